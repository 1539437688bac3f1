package io.kegdb.sql;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Planning is bounded and reports what it cannot do with a precise SQLState, never an internal error. */
class PlanningBudgetTest {

    /** Calcite's cost-based planner never finished this one (found by a long fuzz run). */
    private static final String ENDLESS = "SELECT a.k, a.v, b.v FROM nums a LEFT JOIN nums b ON a.k = b.k"
            + " ORDER BY a.k LIMIT 9223372036854775807";

    private SqlFixture sql;
    private SqlSession s;

    @BeforeEach
    void open() throws SqlError {
        sql = SqlFixture.inMemory();
        s = sql.session();
        update(s, "CREATE TABLE nums (k BIGINT PRIMARY KEY, v BIGINT)");
        update(s, "INSERT INTO nums VALUES (1, 10), (2, 20)");
    }

    @AfterEach
    void close() {
        sql.close();
    }

    @Test
    void planningWithoutEndIsRefusedWith54001() throws SqlError {
        SqlError e = fails("54001", s, ENDLESS);
        assertTrue(e.getMessage().contains("statement too complex"), e.getMessage());
        assertEquals(2, rows(s, ENDLESS.replace("9223372036854775807", "10")).size(), "the connection stays usable");
    }

    @Test
    void aQueryTimeoutStopsPlanning() {
        long start = System.nanoTime();
        SqlError e = assertThrows(SqlError.class,
                () -> s.prepare(ENDLESS, Deadline.after(TimeUnit.MILLISECONDS.toNanos(200))).close());
        assertEquals("HYT00", e.sqlState(), e.getMessage());
        // Bounded, not timed: the deadline is checked every 16 metadata questions, not only between rules.
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(60));
    }

    /**
     * calcite-core 1.42.0's RelBuilder replaces an aggregate over an input unique on its group keys by the calls'
     * constants, GROUPING's an INTEGER where the call is a BIGINT, and the planner refused the result of
     * AggregateReduceFunctionsRule (the statement failed with 0A000 naming it); on a table with rows and without.
     */
    @Test
    void distinctCountsBesideAveragesOverAKeyArePlanned() throws SqlError {
        update(s, "CREATE TABLE d3 (k DOUBLE PRIMARY KEY, v BIGINT)");
        String grouped = "SELECT k, COUNT(DISTINCT k), AVG(k), COUNT(DISTINCT v), SUM(v) FROM d3 GROUP BY k ORDER BY k";
        assertEquals(java.util.List.of(), rows(s, grouped));
        assertEquals(java.util.List.of(row(0L, null)), rows(s, "SELECT COUNT(DISTINCT k), AVG(k) FROM d3"));
        update(s, "INSERT INTO d3 VALUES (1.5, 1), (2.5, NULL), (-3.0, 7)");
        assertEquals(java.util.List.of(row(-3.0, 1L, -3.0, 1L, java.math.BigDecimal.valueOf(7)),
                row(1.5, 1L, 1.5, 1L, java.math.BigDecimal.ONE),
                row(2.5, 1L, 2.5, 0L, null)), rows(s, grouped));
        assertEquals(java.util.List.of(row(1.5, 1L, 1.5)), rows(s, "SELECT k, COUNT(DISTINCT k), AVG(k) FROM d3"
                + " GROUP BY k HAVING COUNT(DISTINCT v) = 1 AND AVG(v) < 5"));
        assertEquals(java.util.List.of(row(1L, 1L, 1.5)), rows(s, "SELECT k, COUNT(DISTINCT a), AVG(a)"
                + " FROM (VALUES (1.5, 1)) AS x (a, k) GROUP BY k").stream().map(r -> java.util.Arrays.asList(
                        ((Number) r.get(0)).longValue(), r.get(1), ((Number) r.get(2)).doubleValue())).toList());
        assertEquals(java.util.List.of(row(3L, 1.0 / 3, 1.0)), rows(s, "SELECT COUNT(DISTINCT k), AVG(k), SUM(k) FROM d3"));
    }

    @Test
    void anUngroupedOuterColumnInASubQueryIs42000() {
        SqlError e = fails("42000", s, "SELECT (SELECT COUNT(*) FROM nums y WHERE y.k = x.v), AVG(x.v) FROM nums x"
                + " GROUP BY x.k");
        assertTrue(e.getMessage().contains("neither grouped nor aggregated"), e.getMessage());
    }
}
