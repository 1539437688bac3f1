package io.kegdb.sql;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

class StatementFormsTest extends InMemorySessionTest {

    @Test
    void defaultTableKvTakesInsertSelectUpdateDelete() throws SqlError {
        assertEquals(1, update(s, "INSERT INTO kv (k, v) VALUES ('a', 'x')"));
        assertEquals(1, update(s, "INSERT INTO KV VALUES (?, ?)", "b", "y"));
        assertEquals(List.of(row("a", "x")), rows(s, "SELECT * FROM kv WHERE k = 'a'"));
        assertEquals(List.of(row("y")), rows(s, "SELECT v FROM kv WHERE k = ?", "b"));
        assertEquals(1, update(s, "UPDATE kv SET v = 'z' WHERE k = 'a'"));
        assertEquals(0, update(s, "UPDATE kv SET v = 'z' WHERE k = 'nope'"));
        assertEquals(List.of(row("a", "z"), row("b", "y")), rows(s, "SELECT k, v FROM kv ORDER BY k"));
        assertEquals(1, update(s, "DELETE FROM kv WHERE k = ?", "a"));
        assertEquals(0, update(s, "DELETE FROM kv WHERE k = ?", "a"));
        assertEquals(List.of(row("b", "y")), rows(s, "SELECT * FROM kv"));
    }

    @Test
    void orderByAColumnThatIsNotSelected() throws SqlError {
        update(s, "CREATE TABLE t (id BIGINT PRIMARY KEY, name VARCHAR)");
        update(s, "INSERT INTO t VALUES (2, 'b'), (1, 'a'), (3, 'c')");
        assertEquals(List.of(row("a"), row("b"), row("c")), rows(s, "SELECT name FROM t ORDER BY id"));
        assertEquals(List.of(row("C")), rows(s, "SELECT UPPER(name) FROM t ORDER BY id DESC LIMIT 1"));
        assertEquals(List.of(row(3L)), rows(s, "SELECT id FROM t ORDER BY name DESC LIMIT 1"));
    }

    @Test
    void upsertOverwritesAndInsertsWithoutError() throws SqlError {
        assertEquals(1, update(s, "UPSERT INTO kv VALUES ('a', '1')"));
        assertEquals(1, update(s, "UPSERT INTO kv (k, v) VALUES (?, ?)", "a", "2"));
        assertEquals(2, update(s, "UPSERT INTO kv VALUES ('a', '3'), ('b', '4')"));
        assertEquals(List.of(row("a", "3"), row("b", "4")), rows(s, "SELECT * FROM kv ORDER BY k"));
        assertEquals(2, update(s, "UPSERT INTO kv SELECT k, v || v FROM kv WHERE k != 'zz'"));
        assertEquals(List.of(row("a", "33"), row("b", "44")), rows(s, "SELECT * FROM kv"));
    }

    @Test
    void multiRowInsertAndInsertSelectAndGeneralDml() throws SqlError {
        assertEquals(3, update(s, "INSERT INTO kv VALUES ('a', '1'), ('b', '2'), ('c', '3')"));
        update(s, "CREATE TABLE copy (k VARCHAR PRIMARY KEY, v VARCHAR)");
        assertEquals(2, update(s, "INSERT INTO copy SELECT k, v || '!' FROM kv WHERE k >= 'b'"));
        assertEquals(List.of(row("b", "2!"), row("c", "3!")), rows(s, "SELECT * FROM copy"));
        assertEquals(2, update(s, "UPDATE kv SET v = v || '+' WHERE k < 'c'"));
        assertEquals(List.of(row("a", "1+"), row("b", "2+"), row("c", "3")), rows(s, "SELECT * FROM kv"));
        assertEquals(2, update(s, "DELETE FROM kv WHERE v LIKE '%+'"));
        assertEquals(List.of(row("c", "3")), rows(s, "SELECT * FROM kv"));
        assertEquals(1, update(s, "UPDATE kv SET k = 'd' WHERE k = 'c'"));
        assertEquals(List.of(row("d", "3")), rows(s, "SELECT * FROM kv"));
    }

    @Test
    void queriesJoinAggregateAndCallFunctions() throws SqlError {
        update(s, "CREATE TABLE n (id BIGINT PRIMARY KEY, name VARCHAR(20))");
        update(s, "INSERT INTO n VALUES (1, 'one'), (2, 'two'), (3, 'three')");
        update(s, "INSERT INTO kv VALUES ('one', 'uno'), ('two', 'dos')");
        assertEquals(List.of(row(1L, "uno"), row(2L, "dos")),
                rows(s, "SELECT n.id, kv.v FROM n JOIN kv ON n.name = kv.k ORDER BY n.id"));
        assertEquals(List.of(row(3L, new BigDecimal(6))), rows(s, "SELECT COUNT(*), SUM(id) FROM n"));
        assertEquals(List.of(row("THREE", 5)), rows(s, "SELECT UPPER(name), CHAR_LENGTH(name) FROM n WHERE id = 3"));
        assertEquals(List.of(row(2L)), rows(s, "SELECT id FROM n ORDER BY id LIMIT 1 OFFSET 1"));
        assertEquals(List.of(row("two")), rows(s, "SELECT name FROM n WHERE id IN (SELECT MAX(id) - 1 FROM n)"));
    }

    @Test
    void createAndDropTableForms() throws SqlError {
        assertEquals(0, update(s, "CREATE TABLE t1 (id BIGINT PRIMARY KEY, v VARBINARY)"));
        assertEquals(0, update(s, "CREATE TABLE t2 (id VARCHAR(10), v BIGINT, PRIMARY KEY (id))"));
        assertEquals(0, update(s, "CREATE TABLE IF NOT EXISTS t2 (id VARCHAR(10), v BIGINT, PRIMARY KEY (id))"));
        assertEquals(0, update(s, "create table \"Mixed\" (\"Key\" varchar not null primary key, val varchar null);"));
        update(s, "INSERT INTO \"Mixed\" VALUES ('a', 'b')");
        assertEquals(List.of(row("a", "b")), rows(s, "SELECT \"Key\", VAL FROM \"Mixed\""));
        update(s, "INSERT INTO t2 VALUES ('x', 5)");
        update(s, "DROP TABLE t2");
        update(s, "DROP TABLE IF EXISTS t2");
        update(s, "CREATE TABLE t2 (id VARCHAR(10) PRIMARY KEY, v BIGINT)");
        assertEquals(List.of(), rows(s, "SELECT * FROM t2"), "a re-created table starts empty");
        List<String> names = sql.db.tables().stream().map(t -> t.schema() + "." + t.name()).toList();
        assertTrue(names.containsAll(List.of("PUBLIC.KV", "PUBLIC.T1", "PUBLIC.T2", "PUBLIC.Mixed", "SYS.TABLES",
                "SYS.SEGMENTS", "SYS.STATS")), names.toString());
    }

    @Test
    void dropDeletesTheRows() throws SqlError {
        update(s, "CREATE TABLE big (k BIGINT PRIMARY KEY, v VARCHAR)");
        s.setAutoCommit(false);
        try (SqlStatement ins = s.prepare("INSERT INTO big VALUES (?, ?)")) {
            for (long i = 0; i < 2500; i++) {
                ins.execute(List.of(i, "v" + i), 0).close();
            }
        }
        s.commit();
        s.setAutoCommit(true);
        long before = sql.store.stats().keys();
        update(s, "DROP TABLE big");
        // the rows and the catalog entry go; the DROP's claim of its catalog version stays
        assertEquals(before - 2500 - 1 + 1, sql.store.stats().keys(), "rows and catalog entry removed");
    }

    @Test
    void systemTablesDescribeCatalogAndStore() throws SqlError {
        update(s, "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR(5))");
        assertEquals(List.of(row("PUBLIC", "T", "K", "BIGINT", "V", "VARCHAR(5)")),
                rows(s, "SELECT table_schema, table_name, key_column, key_type, value_column, value_type "
                        + "FROM sys.tables WHERE table_name = 'T'"));
        update(s, "INSERT INTO kv VALUES ('a', 'b')");
        List<List<Object>> stats = rows(s, "SELECT name, \"VALUE\" FROM sys.stats WHERE name = 'keys'");
        assertEquals(1, stats.size());
        assertEquals(sql.store.stats().keys(), stats.get(0).get(1));
        assertEquals(List.of(), rows(s, "SELECT id, bytes, live_bytes, dead_bytes FROM sys.segments"),
                "the in-memory store has no segments");
        SqlTestSupport.fails("42000", s, "INSERT INTO sys.stats VALUES ('x', 1)");
    }

    @Test
    void preparedStatementDescribesParametersAndColumns() throws SqlError {
        update(s, "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR(5))");
        try (SqlStatement st = s.prepare("SELECT v, k FROM t WHERE k = ?")) {
            assertTrue(st.isQuery());
            assertEquals(1, st.parameterCount());
            assertEquals("BIGINT", st.parameters().get(0).typeName());
            assertEquals(List.of("V", "K"), st.columns().stream().map(ColumnInfo::name).toList());
            assertEquals("T", st.columns().get(0).table());
        }
        try (SqlStatement st = s.prepare("SELECT COUNT(*) AS c FROM t WHERE v = ?")) {
            assertEquals("VARCHAR", st.parameters().get(0).typeName());
            assertEquals("C", st.columns().get(0).name());
        }
        try (SqlStatement st = s.prepare("UPDATE t SET v = ? WHERE k = ?")) {
            assertEquals(2, st.parameterCount());
            assertEquals(List.of("VARCHAR", "BIGINT"), st.parameters().stream().map(ColumnInfo::typeName).toList());
        }
    }

    @Test
    void maxRowsStopsTheCursor() throws SqlError {
        update(s, "INSERT INTO kv VALUES ('a', '1'), ('b', '2'), ('c', '3')");
        try (SqlStatement st = s.prepare("SELECT * FROM kv"); SqlResult r = st.execute(List.of(), 2)) {
            assertEquals(2, SqlTestSupport.drain(r).size());
        }
    }

    @Test
    void windowFunctionsSeeEveryRowBeforeTheLimit() throws SqlError {
        update(s, "INSERT INTO kv VALUES ('a', '1'), ('b', '2'), ('c', '3')");
        assertEquals(List.of(row("a", 3L), row("b", 3L)),
                rows(s, "SELECT k, COUNT(*) OVER () FROM kv ORDER BY k LIMIT 2"));
        assertEquals(1, update(s, "INSERT INTO kv (k) VALUES ('d')"));
        assertEquals(List.of(row("d", null)), rows(s, "SELECT * FROM kv WHERE k = 'd'"));
    }

    @Test
    void constantQueriesAndTimeFunctions() throws SqlError {
        assertEquals(List.of(row(1)), rows(s, "SELECT 1"));
        assertEquals(List.of(row(2)), rows(s, "VALUES 1 + 1"));
        List<List<Object>> now = rows(s, "SELECT CURRENT_TIMESTAMP, CURRENT_DATE, LOCALTIME FROM kv UNION ALL "
                + "SELECT CURRENT_TIMESTAMP, CURRENT_DATE, LOCALTIME");
        assertEquals(1, now.size());
        assertInstanceOf(java.time.LocalDateTime.class, now.get(0).get(0));
        assertInstanceOf(java.time.LocalDate.class, now.get(0).get(1));
        assertInstanceOf(java.time.LocalTime.class, now.get(0).get(2));
        assertEquals(List.of(row(java.time.LocalDate.of(2024, 2, 29))), rows(s, "SELECT DATE '2024-02-29'"));
    }

    @Test
    void longValuesAreNotTruncated() throws SqlError {
        String big = "x".repeat(100_000);
        update(s, "INSERT INTO kv VALUES ('a', ?), ('b', ?)", big, big + "y");
        update(s, "UPDATE kv SET v = v || 'z' WHERE k = 'a'");
        assertEquals(List.of(row(100_001, 100_001)), rows(s, "SELECT CHAR_LENGTH(v), MAX(CHAR_LENGTH(v)) FROM kv "
                + "WHERE k = 'a' GROUP BY v"));
        assertEquals(List.of(row(big + "y")), rows(s, "SELECT v FROM kv WHERE k = 'b'"));
    }

    @Test
    void unicodeRoundTrips() throws SqlError {
        update(s, "INSERT INTO kv VALUES ('ключ', 'значение ☃')");
        assertEquals(List.of(row("значение ☃")), rows(s, "SELECT v FROM kv WHERE k = 'ключ'"));
        assertEquals(List.of(row("ключ")), rows(s, "SELECT k FROM kv WHERE v LIKE 'знач%'"));
    }

    /** A column selected twice may be sorted by its name (H2, SQLite and PostgreSQL accept it). */
    @Test
    void orderByAColumnSelectedTwice() throws SqlError {
        update(s, "CREATE TABLE twice (k BIGINT PRIMARY KEY, v BIGINT)");
        update(s, "INSERT INTO twice VALUES (1, 10), (2, NULL), (3, 30)");
        assertEquals(List.of(row(1L, 1L), row(2L, 2L), row(3L, 3L)), rows(s, "SELECT k, k FROM twice ORDER BY k"));
        assertEquals(List.of(row(3L, 3L), row(2L, 2L)),
                rows(s, "SELECT k, k FROM twice ORDER BY k DESC NULLS LAST LIMIT 2"));
        // Different expressions under one name stay ambiguous, as in PostgreSQL.
        SqlTestSupport.fails("42000", s, "SELECT v AS k, k FROM twice ORDER BY k");
    }

    /** A set operation whose columns share a name may be sorted (H2, SQLite and PostgreSQL accept it). */
    @Test
    void orderedSetOperationOfAColumnSelectedTwice() throws SqlError {
        update(s, "CREATE TABLE twice (k BIGINT PRIMARY KEY, v BIGINT)");
        update(s, "INSERT INTO twice VALUES (1, 10), (2, 30), (30, 30)");
        assertEquals(List.of(row(1L, 1L), row(2L, 2L)),
                rows(s, "SELECT k, k FROM twice EXCEPT SELECT v, 30 FROM twice ORDER BY 1"));
        assertEquals(List.of(row(30L, 30L), row(30L, 30L), row(30L, 30L), row(10L, 30L)),
                rows(s, "SELECT k, k FROM twice WHERE k = 30 UNION ALL SELECT v, 30 FROM twice WHERE v IS NOT NULL"
                        + " ORDER BY 1 DESC, 2 LIMIT 4"));
        assertEquals(List.of(row(30L, 30L)),
                rows(s, "SELECT k AS a, k AS a FROM twice INTERSECT SELECT v, v FROM twice ORDER BY 2"));
        try (SqlStatement st = s.prepare("SELECT k, k, v FROM twice UNION SELECT v, k, k FROM twice ORDER BY 2, 1")) {
            assertEquals(List.of("K", "K", "V"), st.columns().stream().map(ColumnInfo::name).toList());
        }
        assertEquals(List.of(row(10L, 10L)), rows(s, "SELECT * FROM (SELECT k, k FROM twice WHERE k < 3 UNION"
                + " SELECT 10, 10 ORDER BY 1 DESC LIMIT 1) AS y"));
        // A repeated name is ambiguous there: the columns may differ in the other SELECTs (as in PostgreSQL).
        SqlTestSupport.fails("42000", s, "SELECT k, k FROM twice UNION SELECT k, v FROM twice ORDER BY k");
    }
}
