package io.kegdb.bench.txn;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.kegdb.bench.ScratchDirectory;
import javax.sql.DataSource;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * One benchmark run on a new database of a target, under a directory of its own, through a HikariCP pool of
 * one connection per thread; afterwards the pool is closed, the database stopped and the directory deleted.
 */
final class PooledRun {

    /** The work of the run. */
    interface Work<T> {
        T run(DataSource pool) throws Exception;
    }

    private PooledRun() {
    }

    static <T> T run(ContendedTarget target, int threads, Path runDir, Work<T> work) throws Exception {
        Files.createDirectories(runDir);
        try {
            try (TargetDatabase db = target.open(runDir)) {
                HikariConfig config = new HikariConfig();
                config.setJdbcUrl(db.url());
                config.setMaximumPoolSize(threads);
                config.setMinimumIdle(threads);
                config.setPoolName("txn-" + target.name().toLowerCase(Locale.ROOT));
                try (HikariDataSource pool = new HikariDataSource(config)) {
                    return work.run(pool);
                }
            }
        } finally {
            ScratchDirectory.deleteTree(runDir);
        }
    }
}
