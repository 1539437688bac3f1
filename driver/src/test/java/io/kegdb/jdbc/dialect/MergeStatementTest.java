package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.failure;
import static io.kegdb.jdbc.dialect.Databases.rows;
import static io.kegdb.jdbc.dialect.Databases.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The standard MERGE (what Hibernate and jOOQ's standard dialects send), checked against H2 running the same. */
class MergeStatementTest {

    private static final String[] DATA = {
        "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR(10))",
        "INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, NULL)",
        "CREATE TABLE src (id BIGINT PRIMARY KEY, w VARCHAR(10))",
        "INSERT INTO src VALUES (2, 'deux'), (3, 'trois'), (4, 'quatre'), (5, NULL)",
    };

    /** Runs {@code merge} on KegDB and on H2 over the same data; both give the same count and the same rows. */
    private static List<List<Object>> sameAsH2(String merge, Object... params) throws SQLException {
        try (Connection kegdb = Databases.kegdb(); Connection h2 = Databases.h2()) {
            exec(kegdb, DATA);
            exec(h2, DATA);
            int expected = update(h2, merge, params);
            assertEquals(expected, update(kegdb, merge, params), "update count");
            List<List<Object>> rows = rows(kegdb, "SELECT * FROM t ORDER BY k");
            assertEquals(rows(h2, "SELECT * FROM t ORDER BY k"), rows);
            return rows;
        }
    }

    @Test
    void bothClausesFromValuesWithParametersAndTheOldValue() throws SQLException {
        List<List<Object>> rows = sameAsH2("MERGE INTO t USING (VALUES (?, ?), (?, ?)) AS s (k2, v2) ON t.k = s.k2"
                + " WHEN MATCHED THEN UPDATE SET v = t.v || s.v2"
                + " WHEN NOT MATCHED THEN INSERT (k, v) VALUES (s.k2, s.v2)", 1L, "+", 7L, "seven");
        assertEquals(List.of(List.of(1L, "one+"), List.of(2L, "two"), java.util.Arrays.asList(3L, null),
                List.of(7L, "seven")), rows);
        sameAsH2("merge into t using (values (2, 'x'), (8, 'eight'), (3, 'y')) s (k2, v2) on (s.k2 = t.k)"
                + " when not matched then insert values (s.k2, s.v2) when matched then update set v = s.v2");
    }

    @Test
    void conditionsInEitherOrderLeaveOtherRowsAloneAndKeepParameterOrder() throws SQLException {
        List<List<Object>> rows = sameAsH2("MERGE INTO t AS d USING (SELECT id, w FROM src WHERE id > ?) AS s"
                + " ON s.id = d.k WHEN NOT MATCHED AND s.w <> ? THEN INSERT (v, k) VALUES (s.w || CAST(? AS VARCHAR(3)), s.id)"
                + " WHEN MATCHED AND d.v = ? THEN UPDATE SET v = ?", 1L, "none", "!", "two", "2");
        // 3 matched but its value is not 'two'; 5 is new but its w is NULL: both left as they were.
        assertEquals(List.of(List.of(1L, "one"), List.of(2L, "2"), java.util.Arrays.asList(3L, null),
                List.of(4L, "quatre!")), rows);
    }

    @Test
    void aTableSourceAndNulls() throws SQLException {
        List<List<Object>> rows = sameAsH2("MERGE INTO t USING src ON t.k = src.id"
                + " WHEN MATCHED AND src.w = 'deux' THEN UPDATE SET v = NULL"
                + " WHEN NOT MATCHED THEN INSERT (k) VALUES (src.id)");
        assertEquals(List.of(List.of(1L, "one"), java.util.Arrays.asList(2L, null), java.util.Arrays.asList(3L, null),
                java.util.Arrays.asList(4L, null), java.util.Arrays.asList(5L, null)), rows);
        sameAsH2("MERGE INTO t USING (VALUES (CAST(? AS BIGINT), CAST(? AS VARCHAR(10)))) AS s (a, b) ON t.k = s.a"
                + " WHEN MATCHED THEN UPDATE SET v = s.b WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)", 1L, null);
    }

    @Test
    void onlyNotMatchedInsertsAbsentKeys() throws SQLException {
        List<List<Object>> rows = sameAsH2("MERGE INTO t USING (VALUES (?, ?), (?, ?)) s (a, b) ON t.k = s.a"
                + " WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)", 1L, "uno", 9L, "nine");
        assertEquals(List.of(List.of(1L, "one"), List.of(2L, "two"), java.util.Arrays.asList(3L, null),
                List.of(9L, "nine")), rows);
        try (Connection c = Databases.kegdb()) {
            exec(c, DATA);
            // Two source rows with one new key: the INSERT's duplicate check, and nothing written.
            assertEquals("23505", failure(c, "MERGE INTO t USING (VALUES (6, 'a'), (6, 'b')) s (a, b) ON t.k = s.a"
                    + " WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)"));
            assertEquals("23502", failure(c, "MERGE INTO t USING (VALUES (6, 'a'), (NULL, 'b')) s (a, b)"
                    + " ON t.k = s.a WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)"));
            assertEquals(3, rows(c, "SELECT * FROM t").size());
        }
    }

    @Test
    void onlyMatchedUpdatesExistingKeys() throws SQLException {
        // b is not copied whole into the table, so its parameters need a type.
        List<List<Object>> rows = sameAsH2("MERGE INTO t USING (VALUES (?, CAST(? AS VARCHAR(5))), (?, CAST(? AS VARCHAR(5)))) s (a, b)"
                + " ON t.k = s.a WHEN MATCHED THEN UPDATE SET t.v = COALESCE(t.v, '') || s.b", 3L, "!", 9L, "nine");
        assertEquals(List.of(List.of(1L, "one"), List.of(2L, "two"), List.of(3L, "!")), rows);
    }

    @Test
    void matchedDeleteRemovesMatchedRows() throws SQLException {
        List<List<Object>> rows = sameAsH2("MERGE INTO t USING src s ON t.k = s.id"
                + " WHEN MATCHED AND s.w <> ? THEN DELETE", "trois");
        assertEquals(List.of(List.of(1L, "one"), java.util.Arrays.asList(3L, null)), rows);
        rows = sameAsH2("MERGE INTO t USING (VALUES (?), (?)) AS s (a) ON s.a = t.k WHEN MATCHED THEN DELETE",
                1L, 2L);
        assertEquals(List.of(java.util.Arrays.asList(3L, null)), rows);
    }

    @Test
    void parametersAreCountedAndTyped() throws SQLException {
        try (Connection c = Databases.kegdb()) {
            exec(c, DATA);
            // The source's key column and the column the INSERT copies take the table's types.
            String sql = "MERGE INTO t USING (VALUES (?, ?)) s (a, b) ON t.k = s.a"
                    + " WHEN MATCHED THEN UPDATE SET v = ? WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)";
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                assertEquals(3, ps.getParameterMetaData().getParameterCount());
                assertEquals(java.sql.Types.BIGINT, ps.getParameterMetaData().getParameterType(1));
                assertEquals(java.sql.Types.VARCHAR, ps.getParameterMetaData().getParameterType(2));
                assertEquals(java.sql.Types.VARCHAR, ps.getParameterMetaData().getParameterType(3));
            }
            assertEquals(1, update(c, sql, 1L, "ignored", "uno"));
            assertEquals(1, update(c, sql, 6L, "six", "ignored"));
            assertEquals(List.of(List.of(1L, "uno"), List.of(6L, "six")), rows(c, "SELECT * FROM t WHERE k IN (1, 6) ORDER BY k"));
        }
    }

    @Test
    void formsThatCannotHoldAreRefusedClearly() throws SQLException {
        try (Connection c = Databases.kegdb()) {
            exec(c, DATA);
            String tail = " WHEN MATCHED THEN UPDATE SET v = s.b";
            SQLException e = assertThrows(SQLException.class, () -> update(c,
                    "MERGE INTO t USING (VALUES (1, 'a')) s (a, b) ON t.v = s.b" + tail));
            assertEquals("42000", e.getSQLState());
            assertTrue(e.getMessage().contains("ON a.key = s.column") && e.getMessage().contains("found ON t.v = s.b"),
                    e.getMessage());
            assertEquals("42000", failure(c, "MERGE INTO t USING (VALUES (1, 'a')) s (a, b) ON t.k = s.a AND s.b = 'a'"
                    + tail));
            assertEquals("42000", failure(c, "MERGE INTO t USING (VALUES (1, 'a')) s (a, b) ON t.k = s.a"
                    + tail + tail));
            assertEquals("42000", failure(c, "MERGE INTO t USING (VALUES (1, 'a')) s (a, b) ON t.k = s.a"
                    + " WHEN MATCHED THEN DELETE WHEN NOT MATCHED THEN INSERT VALUES (s.a, s.b)"));
            assertEquals("42000", failure(c, "MERGE INTO t USING (VALUES (1, 'a')) s (a, b) ON t.k = s.a"
                    + " WHEN MATCHED THEN UPDATE SET k = s.a"));
            assertEquals("42000", failure(c, "MERGE INTO t USING (VALUES (1, 'a')) s (a, b) ON t.k = s.a"
                    + " WHEN MATCHED THEN UPDATE SET v = s.b, v = 'c'"));
            assertEquals("42S22", failure(c, "MERGE INTO t USING (VALUES (1, 'a')) s (a, b) ON t.k = s.a"
                    + " WHEN MATCHED THEN UPDATE SET w = s.b"));
            assertEquals("42000", failure(c, "MERGE INTO t USING (VALUES (1, 'a')) AS s ON t.k = s.a" + tail));
            assertEquals("23502", failure(c, "MERGE INTO t USING (VALUES (1, 'a')) s (a, b) ON t.k = s.a"
                    + " WHEN NOT MATCHED THEN INSERT (v) VALUES (s.b)"));
            assertEquals(List.of(List.of(1L, "one"), List.of(2L, "two"), java.util.Arrays.asList(3L, null)),
                    rows(c, "SELECT * FROM t ORDER BY k"));
        }
    }

    /** The MERGE reads the old value and writes the new one atomically: concurrent increments lose nothing. */
    @Test
    void aSourceMatchingOneTargetRowTwiceFailsWith21000AndWritesNothing() throws SQLException {
        String[] statements = {
            "MERGE INTO t USING (VALUES (2, 'a'), (2, 'b')) AS s (k2, v2) ON t.k = s.k2"
                + " WHEN MATCHED THEN UPDATE SET v = s.v2",
            "MERGE INTO t USING (VALUES (9, 'new'), (1, 'a'), (1, 'b')) AS s (k2, v2) ON t.k = s.k2"
                + " WHEN MATCHED THEN UPDATE SET v = s.v2 WHEN NOT MATCHED THEN INSERT VALUES (s.k2, s.v2)",
            "MERGE INTO t USING (SELECT 1 AS id, w FROM src) AS s ON t.k = s.id WHEN MATCHED THEN UPDATE SET v = s.w",
        };
        for (String sql : statements) {
            try (Connection kegdb = Databases.kegdb(); Connection h2 = Databases.h2()) {
                exec(kegdb, DATA);
                exec(h2, DATA);
                assertEquals("21000", failure(kegdb, sql), sql);
                assertEquals(rows(h2, "SELECT * FROM t ORDER BY k"), rows(kegdb, "SELECT * FROM t ORDER BY k"),
                        "nothing written: " + sql);
            }
        }
        // a key the source gives twice that matches no row: the INSERT-only form fails with 23505 (docs/SQL.md)
        try (Connection kegdb = Databases.kegdb()) {
            exec(kegdb, DATA);
            assertEquals("23505", failure(kegdb, "MERGE INTO t USING (VALUES (8, 'a'), (8, 'b')) AS s (k2, v2)"
                    + " ON t.k = s.k2 WHEN NOT MATCHED THEN INSERT VALUES (s.k2, s.v2)"));
        }
    }

    @Test
    void concurrentIncrementsLoseNothing() throws Exception {
        String url = "jdbc:kegdb:mem:merge-counter" + System.nanoTime();
        int threads = 4;
        int perThread = 50;
        try (Connection setup = java.sql.DriverManager.getConnection(url)) {
            exec(setup, "CREATE TABLE counter (k BIGINT PRIMARY KEY, n BIGINT)");
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<Void>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    try (Connection c = java.sql.DriverManager.getConnection(url);
                         PreparedStatement ps = c.prepareStatement("MERGE INTO counter USING (VALUES (?)) AS s (id)"
                                 + " ON counter.k = s.id WHEN MATCHED THEN UPDATE SET n = counter.n + 1"
                                 + " WHEN NOT MATCHED THEN INSERT VALUES (s.id, 1)")) {
                        ps.setLong(1, 1L);
                        for (int i = 0; i < perThread; i++) {
                            // An autocommitted statement whose reads changed runs again by itself.
                            assertEquals(1, ps.executeUpdate());
                        }
                    }
                    return null;
                }));
            }
            pool.shutdown();
            assertTrue(pool.awaitTermination(2, TimeUnit.MINUTES));
            for (Future<Void> f : done) {
                f.get();
            }
            assertEquals(List.of(List.of(1L, (long) threads * perThread)), rows(setup, "SELECT * FROM counter"));
        }
    }
}
