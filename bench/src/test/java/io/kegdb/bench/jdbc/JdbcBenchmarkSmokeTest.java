package io.kegdb.bench.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every workload on every target at a tiny size: checks the code and the reads' answers, not speed. */
class JdbcBenchmarkSmokeTest {

    @TempDir
    Path tmp;

    @Test
    void everyWorkloadRunsOnEveryTarget() throws Exception {
        for (JdbcTarget target : JdbcTarget.values()) {
            Path dir = Files.createDirectories(tmp.resolve(target.name()));
            HikariConfig config = new HikariConfig();
            config.setJdbcUrl(target.url(dir));
            config.setMaximumPoolSize(2);
            try (HikariDataSource pool = new HikariDataSource(config)) {
                JdbcWorkloads w = new JdbcWorkloads(pool, 300, new JdbcWorkloads.RowData(300, 10));
                w.createTable(target.createTable());
                w.warmUpWrites(target.createTable(), 1, 10);
                double[] rounds = w.batchedInsert(target.createTable(), 2, 100);
                assertTrue(rounds.length == 2 && rounds[0] > 0 && rounds[1] > 0);
                assertTrue(w.autocommitInserts(10) > 0);
                assertTrue(w.preparedPointSelects(1, 200) > 0);
                assertTrue(w.preparedPointSelects(2, 200) > 0);
                assertTrue(w.adHocPointSelects(100) > 0);
            }
        }
    }
}
