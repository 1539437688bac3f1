package io.kegdb.sql;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A select list is computed on the rows LIMIT/FETCH and OFFSET keep, not on the rows they skip or never reach
 * (docs/SQL.md, "LIMIT and OFFSET"): an overflow, a failing CAST or a division by zero on a skipped row raises
 * nothing. Where H2 reads in key order it answers these statements with the same rows; where the order comes
 * from a sort, KegDB still computes only the kept rows (H2 computes every row before it sorts).
 */
class LimitBelowProjectionTest extends InMemorySessionTest {

    private static final long HUGE = 9_000_000_000L;

    @BeforeEach
    void tables() throws SqlError {
        update(s, "CREATE TABLE t (k INTEGER PRIMARY KEY, v BIGINT)");
        // Row 4 overflows v * 10^12, fails a CAST to INTEGER, and is the only row where v - HUGE is zero.
        update(s, "INSERT INTO t VALUES (1, 1), (2, 2), (3, 3), (4, " + HUGE + "), (5, 5), (6, 0)");
        update(s, "CREATE TABLE d (k INTEGER PRIMARY KEY, v DOUBLE)");
        update(s, "INSERT INTO d VALUES (1, 1.0), (2, 2.0), (3, 3.0)");
    }

    private String plan(String sql) throws SqlError {
        return ((KegSession) s).database().plan(sql, "PUBLIC").explain();
    }

    /** The plan of {@code sql} has its limit below the calc that computes {@code expression}. */
    private void limitBelow(String sql, String expression) throws SqlError {
        String plan = plan(sql);
        int limit = plan.indexOf("Limit");
        int scanLimit = plan.indexOf("fetch=");
        int computed = plan.indexOf(expression);
        assertTrue(computed >= 0, plan);
        assertTrue(limit > computed || (limit < 0 && scanLimit > computed), "limit below " + expression + ":\n" + plan);
    }

    @Test
    void aResidualFilterUnderAKeyOrderedLimitComputesOnlyTheKeptRows() throws SqlError {
        // MOD(k, 2) = 0 is no key range: a filter above the ordered scan, its limit above it. Rows 2, 4, 6 pass.
        String sql = "SELECT k, v * 1000000000000 FROM t WHERE MOD(k, 2) = 0 ORDER BY k LIMIT 1 OFFSET 2";
        assertEquals(List.of(row(6, 0L)), rows(s, sql));
        limitBelow(sql, "*($t1");
        String desc = "SELECT k, v * 1000000000000 FROM t WHERE MOD(k, 2) = 0 ORDER BY k DESC LIMIT 1 OFFSET 2";
        assertEquals(List.of(row(2, 2_000_000_000_000L)), rows(s, desc));
        limitBelow(desc, "*($t1");
        assertEquals(List.of(row(6, 0L)), rows(s, "SELECT k, 10 / (v - " + HUGE + ") FROM t WHERE MOD(k, 2) = 0"
                + " ORDER BY k LIMIT 1 OFFSET 2"));
        assertEquals(List.of(row(2, 2)), rows(s, "SELECT k, CAST(v AS INTEGER) FROM t WHERE MOD(k, 2) = 0"
                + " ORDER BY k FETCH FIRST 1 ROWS ONLY"));
        // The kept rows still fail where they fail.
        SqlTestSupport.fails("22003", s, "SELECT k, v * 1000000000000 FROM t WHERE MOD(k, 2) = 0 ORDER BY k"
                + " LIMIT 1 OFFSET 1");
    }

    @Test
    void preparedLimitsAndOffsetsComputeOnlyTheKeptRows() throws SqlError {
        String sql = "SELECT k, v * 1000000000000 FROM t WHERE MOD(k, 2) = ? ORDER BY k LIMIT ? OFFSET ?";
        assertEquals(List.of(row(6, 0L)), rows(s, sql, 0, 1, 2));
        assertEquals(List.of(row(5, 5_000_000_000_000L)), rows(s, sql, 1, 5, 2));
        SqlTestSupport.fails("22003", s, sql, 0, 1, 1);
        assertEquals(List.of(row(5, 5_000_000_000_000L), row(6, 0L)),
                rows(s, "SELECT k, v * 1000000000000 FROM t ORDER BY k OFFSET ? ROWS FETCH NEXT ? ROWS ONLY", 4, 2));
        assertEquals(List.of(row(1, 1)), rows(s, "SELECT k, CAST(v AS INTEGER) FROM t ORDER BY k LIMIT ?", 1));
    }

    @Test
    void aSortedLimitComputesOnlyTheKeptRows() throws SqlError {
        // Sorted by Calcite above a join and above an aggregate: the limit goes below the projection.
        String join = "SELECT t.k, t.v * 1000000000000 FROM t JOIN d ON t.k = d.k + 3 ORDER BY t.k LIMIT 2 OFFSET 1";
        assertEquals(List.of(row(5, 5_000_000_000_000L), row(6, 0L)), rows(s, join));
        limitBelow(join, "*($t1");
        String grouped = "SELECT v, SUM(k), MAX(v) * 1000000000000 FROM t GROUP BY v ORDER BY v LIMIT 1 OFFSET 4";
        assertEquals(List.of(row(5L, 5L, 5_000_000_000_000L)), rows(s, grouped));
        limitBelow(grouped, "*($t");
        assertEquals(List.of(row(5L, 5L, 5_000_000_000_000L)), rows(s,
                "SELECT v, SUM(k), MAX(v) * 1000000000000 FROM t GROUP BY v ORDER BY v DESC LIMIT 1 OFFSET 1"));
        // Sorted by a column the select list does not show; row 4 is the one skipped.
        assertEquals(List.of(row(2, 0L)), rows(s, "SELECT t.k, 10 / (t.v - " + HUGE + ") FROM t JOIN d"
                + " ON t.k = d.k + 1 ORDER BY d.v LIMIT ?", 1));
    }

    @Test
    void aProjectionTheOrderDependsOnIsComputedOnEveryRow() throws SqlError {
        // ORDER BY the computed column: every row must be computed to be sorted, as in H2.
        SqlTestSupport.fails("22003", s, "SELECT k, v * 1000000000000 AS x FROM t ORDER BY x LIMIT 1");
    }
}
