package io.kegdb.sql;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ErrorsTest extends InMemorySessionTest {

    @BeforeEach
    void tables() throws SqlError {
        update(s, "CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR(3))");
        update(s, "INSERT INTO t VALUES (1, 'a')");
    }

    @Test
    void duplicateKeyIs23505OnEveryPath() throws SqlError {
        SqlError e = fails("23505", s, "INSERT INTO t VALUES (1, 'b')");
        assertTrue(e.getMessage().contains("ID = 1"), e.getMessage());
        fails("23505", s, "INSERT INTO t VALUES (?, ?)", 1L, "b");
        fails("23505", s, "INSERT INTO t VALUES (2, 'b'), (1, 'c')");
        fails("23505", s, "INSERT INTO t VALUES (3, 'b'), (3, 'c')");
        fails("23505", s, "INSERT INTO t SELECT id, v FROM t");
        s.setAutoCommit(false);
        fails("23505", s, "INSERT INTO t VALUES (1, 'b')");
        update(s, "INSERT INTO t VALUES (5, 'x')");
        fails("23505", s, "INSERT INTO t VALUES (5, 'y')");
        s.rollback();
        assertEquals(List.of(row(1L, "a")), rows(s, "SELECT * FROM t"), "nothing else was written");
    }

    @Test
    void badStatementsCarryTheirStates() {
        fails("42000", s, "SELEC * FROM t");
        fails("42000", s, "SELECT * FROM t WHERE");
        fails("42S02", s, "SELECT * FROM nope");
        fails("42S02", s, "INSERT INTO nope VALUES (1, 'a')");
        fails("42S02", s, "DROP TABLE nope");
        fails("42S22", s, "SELECT nope FROM t");
        fails("42S22", s, "UPDATE t SET nope = 1 WHERE id = 1");
        fails("42S01", s, "CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR)");
        fails("42000", s, "CREATE TABLE x (id BIGINT PRIMARY KEY)");
        fails("42000", s, "CREATE TABLE x (id BIGINT PRIMARY KEY, a VARCHAR, b VARCHAR)");
        fails("42000", s, "CREATE TABLE x (id BIGINT, v VARCHAR)");
        fails("42000", s, "CREATE TABLE x (id BIGINT PRIMARY KEY, v VARCHAR, PRIMARY KEY (id))");
        fails("42000", s, "CREATE TABLE x (id TIME PRIMARY KEY, v VARCHAR)");
        fails("42000", s, "CREATE TABLE x (id DECIMAL(20, 2) PRIMARY KEY, v VARCHAR)");
        fails("42000", s, "CREATE TABLE x (id BIGINT(5) PRIMARY KEY, v VARCHAR)");
        fails("42000", s, "CREATE TABLE sys.x (id BIGINT PRIMARY KEY, v VARCHAR)");
        fails("42000", s, "DROP TABLE sys.tables");
        fails("42000", s, "DELETE FROM sys.tables");
    }

    @Test
    void badValuesAre22xxx() {
        fails("22001", s, "INSERT INTO t VALUES (2, 'long')");
        fails("22001", s, "UPSERT INTO t VALUES (?, ?)", 2L, "long");
        fails("22001", s, "UPDATE t SET v = 'long' WHERE id = 1");
        fails("23502", s, "INSERT INTO t VALUES (?, 'a')", (Object) null);
        fails("22018", s, "INSERT INTO t VALUES (?, 'a')", "not a number");
        fails("22018", s, "SELECT * FROM t WHERE id = ?", "x1");
        fails("22012", s, "SELECT id / 0 FROM t");
        fails("07001", s, "SELECT * FROM t WHERE id = ?");
    }

    @Test
    void readOnlySessionRejectsWritesWith25006() throws SqlError {
        s.setReadOnly(true);
        fails("25006", s, "INSERT INTO t VALUES (2, 'b')");
        fails("25006", s, "UPDATE t SET v = 'b' WHERE id > 0");
        fails("25006", s, "DELETE FROM t WHERE id = 1");
        fails("25006", s, "CREATE TABLE x (k VARCHAR PRIMARY KEY, v VARCHAR)");
        assertEquals(List.of(row(1L, "a")), rows(s, "SELECT * FROM t"));
    }

    @Test
    void unknownSchemaAndClosedSession() {
        SqlError e = assertThrows(SqlError.class, () -> s.setSchema("NOPE"));
        assertEquals("3F000", e.sqlState());
        s.close();
        e = assertThrows(SqlError.class, () -> s.execute("SELECT 1"));
        assertEquals("08003", e.sqlState());
    }

    @Test
    void storeLimitsAre22001(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir) throws Exception {
        try (io.kegdb.engine.Bitcask small = io.kegdb.engine.Bitcask.open(dir,
                io.kegdb.engine.BitcaskOptions.builder().maxKeySize(16).build());
             SqlDatabase sdb = SqlDatabase.open(small); SqlSession ss = sdb.newSession()) {
            update(ss, "INSERT INTO kv VALUES ('short', 'x')");
            fails("22001", ss, "INSERT INTO kv VALUES ('a key much longer than sixteen bytes', 'x')");
            fails("22001", ss, "UPSERT INTO kv VALUES ('short', 'x'), ('a key much longer than sixteen bytes', 'x')");
            assertEquals(List.of(row("short", "x")), rows(ss, "SELECT * FROM kv"));
        }
    }
}
