package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.failure;
import static io.kegdb.jdbc.dialect.Databases.rows;
import static io.kegdb.jdbc.dialect.Databases.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** PostgreSQL's ON CONFLICT and MySQL's ON DUPLICATE KEY UPDATE (what jOOQ sends), with their parameters. */
class UpsertFormsTest {

    private static Connection table() throws SQLException {
        Connection c = Databases.kegdb();
        exec(c, "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR(10))", "INSERT INTO t VALUES (1, 'one')");
        return c;
    }

    @Test
    void onConflictDoUpdateWithExcludedIsAnUpsert() throws SQLException {
        try (Connection c = table()) {
            assertEquals(2, update(c, "INSERT INTO t (k, v) VALUES (?, ?), (?, ?) ON CONFLICT (k) DO UPDATE"
                    + " SET v = EXCLUDED.v", 1L, "uno", 2L, "two"));
            assertEquals(List.of(List.of(1L, "uno"), List.of(2L, "two")), rows(c, "SELECT * FROM t ORDER BY k"));
            String plan = rows(c, "EXPLAIN PLAN FOR INSERT INTO t VALUES (?, ?) ON CONFLICT (k) DO UPDATE"
                    + " SET v = excluded.v", 3L, "x").get(0).get(0).toString();
            assertTrue(plan.startsWith("KeyValuePlan(UPSERT"), plan);
        }
    }

    @Test
    void onConflictDoUpdateMayUseTheStoredValueAndParametersKeepTheirOrder() throws SQLException {
        try (Connection c = table()) {
            String sql = "INSERT INTO t (v, k) VALUES (?, ?), (?, ?) ON CONFLICT (k) DO UPDATE"
                    + " SET v = CASE WHEN t.v = CAST(? AS VARCHAR(10)) THEN t.v || EXCLUDED.v ELSE CAST(? AS VARCHAR(10)) END";
            assertEquals(2, update(c, sql, "uno", 1L, "two", 2L, "one", "other"));
            assertEquals(List.of(List.of(1L, "oneuno"), List.of(2L, "two")), rows(c, "SELECT * FROM t ORDER BY k"));
            assertEquals(2, update(c, sql, "x", 1L, "y", 3L, "one", "other"));
            assertEquals(List.of(List.of(1L, "other"), List.of(2L, "two"), List.of(3L, "y")),
                    rows(c, "SELECT * FROM t ORDER BY k"));
            // One failing row: the statement writes nothing.
            assertEquals("22018", failure(c, sql, "x", 4L, "y", "not a key", "one", "other"));
            assertEquals(List.of(List.of(1L, "other"), List.of(2L, "two"), List.of(3L, "y")),
                    rows(c, "SELECT * FROM t ORDER BY k"));
        }
    }

    @Test
    void onConflictDoNothingInsertsOnlyAbsentKeys() throws SQLException {
        try (Connection c = table()) {
            assertEquals(1, update(c, "INSERT INTO t VALUES (?, ?), (?, ?) ON CONFLICT DO NOTHING",
                    1L, "uno", 2L, "two"));
            assertEquals(0, update(c, "INSERT INTO t (k, v) VALUES (2, 'deux') ON CONFLICT (k) DO NOTHING;"));
            assertEquals(List.of(List.of(1L, "one"), List.of(2L, "two")), rows(c, "SELECT * FROM t ORDER BY k"));
        }
    }

    @Test
    void onDuplicateKeyUpdateAsJooqSendsIt() throws SQLException {
        try (Connection c = table()) {
            String jooq = "insert into t (k, v) values (?, ?) on duplicate key update v = ?";
            assertEquals(1, update(c, jooq, 1L, "new", "updated"));
            assertEquals(1, update(c, jooq, 5L, "new", "updated"));
            assertEquals(List.of(List.of(1L, "updated"), List.of(5L, "new")), rows(c, "SELECT * FROM t ORDER BY k"));
            // MySQL's own spellings: VALUES(col) is the proposed value, a bare column the stored one.
            update(c, "INSERT INTO t VALUES (1, 'a'), (6, 'b') ON DUPLICATE KEY UPDATE v = v || VALUES(v)");
            assertEquals(List.of(List.of(1L, "updateda"), List.of(5L, "new"), List.of(6L, "b")),
                    rows(c, "SELECT * FROM t ORDER BY k"));
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO t VALUES (?, ?) ON DUPLICATE KEY UPDATE v = VALUES(v)")) {
                assertEquals(2, ps.getParameterMetaData().getParameterCount());
            }
        }
    }

    @Test
    void onDuplicateKeyUpdateOfAQualifiedColumnAsJooqSendsIt() throws SQLException {
        try (Connection c = Databases.kegdb()) {
            exec(c, "CREATE TABLE BOOKS (ID BIGINT PRIMARY KEY, TITLE VARCHAR(40))");
            String jooq = "insert into \"BOOKS\" (\"ID\", \"TITLE\") values (?, ?) on duplicate key update "
                    + "\"BOOKS\".\"TITLE\" = ?";
            assertEquals(1, update(c, jooq, 1L, "Dune", "unused"));
            assertEquals(1, update(c, jooq, 1L, "unused", "Dune Messiah"));
            assertEquals(List.of(List.of(1L, "Dune Messiah")), rows(c, "SELECT * FROM BOOKS"));
            update(c, "INSERT INTO books VALUES (1, 'x') ON DUPLICATE KEY UPDATE public.books.title = books.title || '!'");
            update(c, "INSERT INTO books VALUES (2, 'y') ON CONFLICT (id) DO UPDATE SET books.title = EXCLUDED.title");
            assertEquals(List.of(List.of(1L, "Dune Messiah!"), List.of(2L, "y")),
                    rows(c, "SELECT * FROM books ORDER BY id"));
            // a qualifier naming another table is no column of this one
            assertEquals("42S22", failure(c, "INSERT INTO books VALUES (1, 'z') ON DUPLICATE KEY UPDATE kv.title = 'z'"));
            assertEquals("42S22", failure(c, "INSERT INTO books VALUES (1, 'z') ON DUPLICATE KEY UPDATE other.books.title = 'z'"));
        }
    }

    @Test
    void upsertsThatCannotHoldAreRefusedClearly() throws SQLException {
        try (Connection c = table()) {
            assertEquals("42000", failure(c, "INSERT INTO t VALUES (1, 'a') ON CONFLICT (v) DO NOTHING"));
            assertEquals("42000", failure(c, "INSERT INTO t VALUES (1, 'a') ON CONFLICT (k) DO UPDATE SET k = 2"));
            assertEquals("42000", failure(c, "INSERT INTO t VALUES (1, 'a') ON DUPLICATE KEY UPDATE v = 'x', v = 'y'"));
            assertEquals("42S22", failure(c, "INSERT INTO t VALUES (1, 'a') ON DUPLICATE KEY UPDATE w = 'x'"));
            assertEquals("23502", failure(c, "INSERT INTO t (v) VALUES ('a') ON CONFLICT DO NOTHING"));
            assertEquals(List.of(List.of(1L, "one")), rows(c, "SELECT * FROM t"));
        }
    }
}
