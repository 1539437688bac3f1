package io.kegdb.sql;

import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.plan.RelOptPlanner;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.logical.LogicalAggregate;
import org.apache.calcite.runtime.Hook;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A Calcite rule that fails with an internal error while a statement is planned is left out of a second
 * planning, which answers correctly; a statement no plan is found for fails with a precise SQLState, never an
 * internal error. The rules are added and removed through Calcite's planner hook, on this thread only.
 */
class FailingRuleTest extends InMemorySessionTest {

    /** Grouped by an expression, which the scan does not aggregate: a Calcite aggregate is planned. */
    private static final String GROUPED = "SELECT UPPER(v), COUNT(*) FROM t GROUP BY UPPER(v) ORDER BY 1 NULLS FIRST";

    @BeforeEach
    void tables() throws SqlError {
        update(s, "CREATE TABLE t (k INTEGER PRIMARY KEY, v VARCHAR)");
        update(s, "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'a'), (4, NULL)");
    }

    /** Fails on every aggregate it meets, as some of calcite-core 1.42.0's rules did on some shapes. */
    private static final class FailingRule extends RelOptRule {
        final AtomicInteger tried = new AtomicInteger();

        @SuppressWarnings("deprecation")
        FailingRule() {
            super(operand(LogicalAggregate.class, any()), "FailingRule");
        }

        @Override
        public void onMatch(RelOptRuleCall call) {
            tried.incrementAndGet();
            throw new IllegalStateException("this rule fails on purpose");
        }
    }

    private static Hook.Closeable onPlanner(Consumer<RelOptPlanner> change) {
        return Hook.PLANNER.addThread(change);
    }

    private static final List<List<Object>> GROUPS = List.of(row(null, 1L), row("A", 2L), row("B", 1L));

    @Test
    void aStatementIsPlannedAgainWithoutARuleThatFailedOnIt() throws SqlError {
        FailingRule rule = new FailingRule();
        try (Hook.Closeable ignored = onPlanner(p -> p.addRule(rule))) {
            assertEquals(GROUPS, rows(s, GROUPED));
            assertEquals(List.of(row(2L)), rows(s, "SELECT COUNT(*) FROM t WHERE UPPER(v) = 'A' GROUP BY v"));
        }
        assertTrue(rule.tried.get() >= 2, "the rule was tried and failed on both statements: " + rule.tried);
    }

    @Test
    void aStatementNoPlanIsFoundForIs42000() throws SqlError {
        try (Hook.Closeable ignored = onPlanner(p -> {
            p.removeRule(EnumerableRules.ENUMERABLE_AGGREGATE_RULE);
            p.removeRule(EnumerableRules.ENUMERABLE_SORTED_AGGREGATE_RULE);
        })) {
            SqlError e = fails("42000", s, GROUPED + " LIMIT 5");
            assertTrue(e.getMessage().contains("cannot be planned"), e.getMessage());
        }
        assertEquals(GROUPS, rows(s, GROUPED + " LIMIT 5"), "the session stays usable");
    }

    @Test
    void aStatementNoPlanIsFoundForWithoutAFailedRuleNamesTheRule() throws SqlError {
        FailingRule rule = new FailingRule();
        try (Hook.Closeable ignored = onPlanner(p -> {
            p.addRule(rule);
            p.removeRule(EnumerableRules.ENUMERABLE_AGGREGATE_RULE);
            p.removeRule(EnumerableRules.ENUMERABLE_SORTED_AGGREGATE_RULE);
        })) {
            SqlError e = fails("0A000", s, GROUPED + " LIMIT 4");
            assertTrue(e.getMessage().contains("FailingRule") && e.getMessage().contains("fails on purpose"),
                    e.getMessage());
        }
        assertTrue(rule.tried.get() >= 1);
    }
}
