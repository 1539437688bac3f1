package io.kegdb.bench.sql;

import io.kegdb.bench.jdbc.JdbcTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The whole SQL shapes benchmark at a tiny size: every shape on every database, answers compared, one cold start. */
class SqlShapesBenchmarkSmokeTest {

    @TempDir
    Path tmp;

    @Test
    void everyShapeRunsOnEveryDatabaseWithTheSameAnswers() throws Exception {
        SqlShapesBenchmark.Options options = SqlShapesBenchmark.Options.parse(new String[] {
                "--rows", "2000", "--seconds", "0.02", "--warmup", "0.01", "--cold-runs", "1", "--dir", tmp.toString()});
        SqlShapesBenchmark.Report report = SqlShapesBenchmark.run(options);

        assertEquals(Map.of(), report.mismatches(), "answers that differ between databases");
        assertEquals(List.of(JdbcTarget.values()), List.copyOf(report.rates().keySet()));
        for (Map<SqlShape, SqlShapesBenchmark.Rates> byShape : report.rates().values()) {
            assertEquals(SqlShapes.ALL, List.copyOf(byShape.keySet()));
            byShape.values().forEach(r -> assertTrue(r.adHoc() > 0 && r.prepared() > 0, r.toString()));
        }
        for (ColdStart.Phases p : report.coldStarts().values()) {
            assertTrue(p.processMs() >= p.connectMs() + p.pointMs() + p.plannedMs(), p.toString());
        }
        String table = SqlShapesBenchmark.table(report);
        for (SqlShape shape : SqlShapes.ALL) {
            assertTrue(table.contains(shape.sql()), shape.sql());
        }
    }

    @Test
    void keysAndValuesAreZeroPadded() {
        assertEquals("k000042", ShapeData.key(42));
        assertEquals("k123456", ShapeData.key(123_456));
        assertEquals("v00", ShapeData.value(0));
        assertEquals("v37", ShapeData.value(1));
    }

    @Test
    void adHocTextWritesEachParameterAsALiteral() {
        SqlShape shape = new SqlShape("t", "SELECT k FROM kv WHERE k BETWEEN ? AND ? LIMIT 10 OFFSET ?", (r, n) -> null);
        assertEquals("SELECT k FROM kv WHERE k BETWEEN 'a''b' AND 'c' LIMIT 10 OFFSET 7",
                shape.adHoc(new Object[] {"a'b", "c", 7}));
    }

    @Test
    void shapesAreChosenBySubstringsOfTheirNames() {
        SqlShapesBenchmark.Options options = SqlShapesBenchmark.Options.parse(new String[] {"--shapes", "JOIN, min(k)"});
        assertEquals(List.of("point join", "range join over 100 keys", "MIN(k) above a key",
                        "join ORDER BY k LIMIT 20", "range join over 3k keys"),
                options.shapes().stream().map(SqlShape::label).toList());
        assertEquals(SqlShapes.ALL, SqlShapesBenchmark.Options.parse(new String[0]).shapes());
        assertThrows(IllegalArgumentException.class,
                () -> SqlShapesBenchmark.Options.parse(new String[] {"--shapes", "no such shape"}));
        // A word that names no shape is refused even beside one that does: a typo does not shrink the run.
        assertThrows(IllegalArgumentException.class,
                () -> SqlShapesBenchmark.Options.parse(new String[] {"--shapes", "join,rnage"}));
    }
}
