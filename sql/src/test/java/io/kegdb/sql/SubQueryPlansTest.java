package io.kegdb.sql;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Sub-queries, correlations and the KegDB rules that run before Calcite rewrites them into joins: orders and
 * limits, empty and always-empty sub-queries, correlations on value columns. Expected rows are what H2 and SQLite
 * answer for the same statements.
 */
class SubQueryPlansTest {

    private SqlFixture sql;
    private SqlSession s;

    @BeforeEach
    void open() throws SqlError {
        sql = SqlFixture.inMemory();
        s = sql.session();
        update(s, "CREATE TABLE n4 (k BIGINT PRIMARY KEY, v VARCHAR)");
        update(s, "CREATE TABLE n5 (k BIGINT PRIMARY KEY, v VARCHAR)");
        update(s, "CREATE TABLE a1 (k BIGINT PRIMARY KEY, v BIGINT)");
        update(s, "CREATE TABLE e0 (k BIGINT PRIMARY KEY, v BIGINT)");
        update(s, "INSERT INTO n4 VALUES (1, 'a'), (5, 'b'), (22, 'c'), (30, 'd'), (65536, 'e'), (-3, 'f')");
        update(s, "INSERT INTO n5 VALUES (1, 'a'), (5, 'x')");
        update(s, "INSERT INTO a1 VALUES (1, 10), (2, NULL), (3, 30), (10, 1)");
        // e0 has held a row, so its keyspace is not brand new, and is empty now.
        update(s, "INSERT INTO e0 VALUES (1, 1)");
        update(s, "DELETE FROM e0");
    }

    @AfterEach
    void close() {
        sql.close();
    }

    private List<List<Object>> keys(Object... keys) {
        return java.util.Arrays.stream(keys).map(k -> row(k)).toList();
    }

    /** A limit under ORDER BY K stays above the join a sub-query in the filter becomes. */
    @Test
    void orderAndLimitAboveASubQueryJoin() throws SqlError {
        assertEquals(keys(65536L, 30L),
                rows(s, "SELECT k FROM n4 WHERE k NOT IN (SELECT k FROM n5) ORDER BY k DESC LIMIT 2"));
        assertEquals(keys(65536L, 30L), rows(s,
                "SELECT k FROM n4 WHERE NOT EXISTS (SELECT 1 FROM n5 WHERE n5.k = n4.k) ORDER BY k DESC LIMIT 2"));
        assertEquals(keys(65536L, 30L), rows(s,
                "SELECT k FROM n4 WHERE k IN (SELECT k FROM n4 WHERE k > 0) ORDER BY k DESC FETCH FIRST 2 ROWS ONLY"));
        assertEquals(keys(30L, 22L),
                rows(s, "SELECT k FROM n4 WHERE k NOT IN (SELECT k FROM n5) ORDER BY k DESC LIMIT 2 OFFSET 1"));
        assertEquals(keys(65536L, 30L), rows(s, "SELECT k FROM n4 WHERE v > (SELECT MIN(v) FROM n5"
                + " WHERE n5.k = n4.k) OR k > 20 ORDER BY k DESC LIMIT 2"));
        assertEquals(List.of(row(65536L, 0L), row(30L, 0L)),
                rows(s, "SELECT k, (SELECT COUNT(*) FROM n5 WHERE n5.k = n4.k) FROM n4 ORDER BY k DESC LIMIT 2"));
        // A correlation on a value column is a hash join, which keeps no order in either direction.
        assertEquals(keys(3L, 2L), rows(s, "SELECT x.k FROM a1 x WHERE NOT EXISTS"
                + " (SELECT 1 FROM a1 y WHERE y.v = x.v + 9) ORDER BY x.k DESC LIMIT 2"));
        assertEquals(keys(1L, 2L), rows(s, "SELECT x.k FROM a1 x WHERE NOT EXISTS"
                + " (SELECT 1 FROM a1 y WHERE y.v = x.v + 9) ORDER BY x.k LIMIT 2"));
        assertEquals(keys(1L), rows(s, "SELECT x.k FROM a1 x WHERE x.v > (SELECT MIN(y.v) FROM a1 y"
                + " WHERE y.k <> x.k) ORDER BY x.k LIMIT 1"));
    }

    /** An uncorrelated EXISTS over an empty table beside a correlated sub-query. */
    @Test
    void uncorrelatedExistsBesideACorrelation() throws SqlError {
        String counted = "SELECT x.k, (SELECT COUNT(*) FROM a1 y WHERE y.k = x.k) FROM a1 x WHERE ";
        String ordered = " ORDER BY x.k";
        assertEquals(List.of(), rows(s, counted + "EXISTS (SELECT 1 FROM e0)"));
        assertEquals(List.of(row(1L, 1L), row(2L, 1L), row(3L, 1L), row(10L, 1L)),
                rows(s, counted + "NOT EXISTS (SELECT 1 FROM e0)" + ordered));
        assertEquals(List.of(), rows(s, counted + "EXISTS (SELECT DISTINCT 1 FROM e0)"));
        assertEquals(List.of(), rows(s, counted + "1 IN (SELECT 1 FROM e0)"));
        // A constant GROUP BY over an empty table has no group, so the scalar sub-query is NULL.
        assertEquals(List.of(row(1L, 1L, null), row(2L, 1L, null), row(3L, 1L, null), row(10L, 1L, null)),
                rows(s, "SELECT x.k, (SELECT COUNT(*) FROM a1 y WHERE y.k = x.k),"
                        + " (SELECT COUNT(*) FROM e0 GROUP BY 'a') FROM a1 x ORDER BY x.k"));
        assertEquals(0, update(s,
                "UPDATE a1 SET v = (SELECT COUNT(*) FROM a1 y WHERE y.k = a1.k) WHERE EXISTS (SELECT 1 FROM e0)"));
        assertEquals(List.of(row(1L, 10L), row(2L, null), row(3L, 30L), row(10L, 1L)),
                rows(s, "SELECT * FROM a1"), "nothing was written");
        assertEquals(4, update(s, "UPDATE a1 SET v = (SELECT COUNT(*) FROM a1 y WHERE y.k = a1.k)"
                + " WHERE NOT EXISTS (SELECT 1 FROM e0)"));
        assertEquals(List.of(row(1L, 1L), row(2L, 1L), row(3L, 1L), row(10L, 1L)), rows(s, "SELECT * FROM a1"));
    }

    /** OR with a sub-query that is empty: the other side of the OR still selects its rows. */
    @Test
    void orWithAnEmptySubQuery() throws SqlError {
        assertEquals(keys(1L), rows(s, "SELECT k FROM a1 WHERE k = 1 OR v IN (SELECT k FROM n5 WHERE 7 < -8)"));
        assertEquals(keys(1L), rows(s, "SELECT k FROM a1 WHERE k = 1 OR v IN (SELECT k FROM n5 WHERE v <> v)"));
        assertEquals(keys(3L), rows(s, "SELECT k FROM a1 WHERE k = 3 OR v IN (SELECT COUNT(*) FROM e0)"));
        assertEquals(keys(3L), rows(s, "SELECT k FROM a1 WHERE k = 3 OR EXISTS (SELECT 1 FROM n5 WHERE 1 = 0)"));
        assertEquals(keys(10L), rows(s, "SELECT k FROM a1 WHERE k = 10 OR v NOT IN (SELECT k FROM e0 WHERE k < 0)"
                + " AND k < 0"));
        assertEquals(3, update(s, "DELETE FROM a1 WHERE (k NOT IN (SELECT k FROM n4) OR v IN"
                + " (SELECT k FROM n5 WHERE 7 < -8))"));
        assertEquals(List.of(row(1L, 10L)), rows(s, "SELECT * FROM a1"));
    }

    /** A correlated sub-query that reads the outer row's value column (the scan must not become keys-only). */
    @Test
    void correlationOnAValueColumn() throws SqlError {
        update(s, "INSERT INTO n5 VALUES (10, 'y')");
        assertEquals(List.of(row(1L, 1L), row(2L, 0L), row(3L, 0L), row(10L, 1L)),
                rows(s, "SELECT x.k, (SELECT COUNT(*) FROM n5 y WHERE y.k = x.v) FROM a1 x ORDER BY x.k"));
        assertEquals(keys(1L, 3L, 10L), rows(s, "SELECT x.k FROM a1 x WHERE EXISTS (SELECT 1 FROM a1 y WHERE y.v = x.v) ORDER BY x.k"));
        assertEquals(keys(1L, 10L), rows(s, "SELECT x.k FROM a1 x WHERE EXISTS (SELECT 1 FROM a1 y WHERE y.k = x.v) ORDER BY x.k"));
        assertEquals(keys(2L, 3L, 10L),
                rows(s, "SELECT x.k FROM a1 x WHERE x.k > (SELECT COUNT(*) FROM a1 y WHERE y.v > x.v) ORDER BY x.k"));
        update(s, "CREATE TABLE d1 (k DECIMAL(10,2) PRIMARY KEY, v DECIMAL(10,2))");
        update(s, "INSERT INTO d1 VALUES (1.5, 10), (2, NULL), (10, 1.5)");
        List<List<Object>> counts = rows(s, "SELECT x.k, (SELECT COUNT(*) FROM d1 y WHERE y.k = x.v) FROM d1 x ORDER BY x.k");
        assertEquals(List.of(1L, 0L, 1L), counts.stream().map(r -> r.get(1)).toList());
        assertEquals(2, rows(s, "SELECT x.k FROM d1 x WHERE EXISTS (SELECT 1 FROM d1 y WHERE y.v = x.v)").size());
        assertEquals(List.of(new java.math.BigDecimal("2.00")), rows(s, "SELECT x.k FROM d1 x WHERE NOT EXISTS"
                + " (SELECT 1 FROM d1 y WHERE y.k = x.v) ORDER BY x.k DESC LIMIT 1").stream().map(r -> r.get(0))
                .toList());
    }

    /**
     * A correlated COUNT(*) in the select list beside an OR with a scalar sub-query, on empty tables and with rows
     * (on empty tables Calcite's EnumerableProjectRule failed on it). Expected rows are H2's.
     */
    @Test
    void aCorrelatedCountBesideAnOrWithAScalarSubQuery() throws SqlError {
        update(s, "CREATE TABLE e1 (k BIGINT PRIMARY KEY, v BIGINT)");
        String sql = "SELECT x.k, (SELECT COUNT(*) FROM %s y WHERE y.k = x.k) FROM %s x WHERE x.k = %d OR x.v >"
                + " (SELECT MIN(v) FROM %s) ORDER BY x.k";
        assertEquals(List.of(), rows(s, String.format(sql, "e1", "e1", 1, "e1")));
        assertEquals(List.of(), rows(s, String.format(sql, "e0", "e1", 1, "e0")));
        assertEquals(List.of(row(1L, 1L), row(3L, 1L)), rows(s, String.format(sql, "a1", "a1", 1, "a1")));
        assertEquals(List.of(row(2L, 0L)), rows(s, String.format(sql, "e0", "a1", 2, "e0")));
    }

    /** NOT IN with parameters OR / AND an EXISTS over an empty table, under MIN and MAX. Expected rows are H2's. */
    @Test
    void notInParametersBesideAnExistsOverAnEmptyTable() throws SqlError {
        String or = "SELECT MIN(v) FROM a1 WHERE v NOT IN (?, ?) OR NOT EXISTS (SELECT 1 FROM e0)";
        assertEquals(List.of(row(1L)), rows(s, or, 10L, 30L));
        assertEquals(List.of(row(1L)), rows(s, or, 1L, 30L));
        String and = "SELECT MIN(v), MAX(v) FROM a1 WHERE v NOT IN (?, ?) AND NOT EXISTS (SELECT 1 FROM e0)";
        assertEquals(List.of(row(10L, 10L)), rows(s, and, 1L, 30L));
        assertEquals(List.of(row(null, null)), rows(s, "SELECT MIN(v), MAX(v) FROM a1 WHERE v NOT IN (?, ?) AND"
                + " EXISTS (SELECT 1 FROM e0)", 1L, 30L));
    }

    /**
     * INSERT ... SELECT from the table it writes, through NOT IN over that table: the statement reads the table as
     * it was before it (its own rows are no duplicates of it), again and again on one session's cached plan; a key
     * the SELECT does repeat fails with 23505 and writes nothing. Expected counts and rows are H2's.
     */
    @Test
    void anInsertSelectNotInItsOwnTable() throws SqlError {
        assertEquals(2, update(s, "INSERT INTO a1 SELECT k + 1, v FROM a1 WHERE k + 1 NOT IN (SELECT k FROM a1)"));
        assertEquals(List.of(row(1L, 10L), row(2L, null), row(3L, 30L), row(4L, 30L), row(10L, 1L), row(11L, 1L)),
                rows(s, "SELECT * FROM a1 ORDER BY k"));
        assertEquals(4, update(s, "INSERT INTO a1 SELECT k * 100, k FROM a1 WHERE k NOT IN (SELECT v FROM a1 WHERE"
                + " v IS NOT NULL)"));
        assertEquals(keys(200L, 300L, 400L, 1100L), rows(s, "SELECT k FROM a1 WHERE k >= 100 ORDER BY k"));
        SqlTestSupport.fails(SqlState.DUPLICATE_KEY, s,
                "INSERT INTO a1 SELECT k + 1, v FROM a1 WHERE k NOT IN (SELECT k FROM a1 WHERE k > 100)");
        assertEquals(10, rows(s, "SELECT k FROM a1").size(), "nothing was written");
        for (int i = 0; i < 20; i++) {
            assertEquals(10, update(s, "INSERT INTO a1 SELECT k + 5000, v FROM a1 WHERE k + 5000 NOT IN"
                    + " (SELECT k FROM a1)"), "round " + i);
            assertEquals(10, update(s, "DELETE FROM a1 WHERE k >= 5000"), "round " + i);
        }
    }

    /** A scalar sub-query that yields more than one row is a cardinality violation (21000), not an internal error. */
    @Test
    void aScalarSubQueryOfMoreThanOneRowIs21000() throws SqlError {
        for (String q : List.of("SELECT (SELECT k FROM n4)", "SELECT k, (SELECT k FROM n5 WHERE k > 0) FROM a1",
                "SELECT k FROM a1 WHERE k = (SELECT k FROM n5)",
                "SELECT x.k, (SELECT y.k FROM n4 y WHERE y.k >= x.k) FROM a1 x",
                "UPDATE a1 SET v = (SELECT k FROM n5) WHERE k = 1")) {
            SqlTestSupport.fails(SqlState.CARDINALITY_VIOLATION, s, q);
        }
        assertEquals(List.of(row(1L, 10L)), rows(s, "SELECT k, v FROM a1 WHERE k = 1"));
        assertEquals(List.of(row(5L)), rows(s, "SELECT (SELECT k FROM n5 WHERE v = 'x')"));
    }

    /**
     * A NOT IN over a sub-query correlated by a range plans (the planner's predicates question on a cycle of its
     * plan space threw a CyclicMetadataException, and the statement was refused with 0A000): empty and with rows.
     */
    @Test
    void notInCorrelatedByARangePlans() throws SqlError {
        update(s, "CREATE TABLE t1 (k INTEGER PRIMARY KEY, v DOUBLE)");
        update(s, "CREATE TABLE t2 (k DOUBLE PRIMARY KEY, v VARCHAR)");
        String where = " WHERE t1.v NOT IN (SELECT s1.k FROM t2 s1 WHERE s1.k <= t1.k)";
        assertEquals(0, update(s, "UPDATE t1 SET v = v + -8.25" + where));
        assertEquals(List.of(), rows(s, "SELECT k FROM t1" + where));
        assertEquals(0, update(s, "DELETE FROM t1" + where));
        update(s, "INSERT INTO t1 VALUES (1, 0.5), (2, 2), (3, NULL), (4, 9)");
        update(s, "INSERT INTO t2 VALUES (0.5, 'a'), (2, 'b'), (9, 'c')");
        // 1: 0.5 is among {0.5}; 2: 2 among {0.5, 2}; 3: NULL; 4: 9 not among {0.5, 2}
        assertEquals(List.of(row(4)), rows(s, "SELECT k FROM t1" + where + " ORDER BY k"));
        assertEquals(1, update(s, "UPDATE t1 SET v = v + -8.25" + where));
        assertEquals(List.of(row(1, 0.5), row(2, 2.0), row(3, null), row(4, 0.75)), rows(s, "SELECT * FROM t1"));
    }
}
