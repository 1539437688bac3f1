package io.kegdb.sql.calcite;

import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.plan.StatementFailure;
import org.apache.calcite.plan.Context;
import org.apache.calcite.plan.Contexts;
import org.apache.calcite.plan.RelOptListener;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.volcano.VolcanoPlanner;
import org.apache.calcite.rel.metadata.MetadataHandler;
import org.apache.calcite.rel.metadata.MetadataHandlerProvider;
import org.apache.calcite.util.CancelFlag;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What one statement's planning may spend, and the statement's {@link Deadline} checked while it plans:
 * <ul>
 * <li>the cost-based optimizer tries at most {@link #RULE_ATTEMPTS} rules, then stops and keeps the cheapest
 * plan it has found (Calcite's cancel flag ends its rule loop gracefully); if it has none yet the statement
 * fails with 54001. A count, not a time, so that a statement gets the same plan on a loaded machine;</li>
 * <li>each heuristic pass applies at most {@link #HEURISTIC_MATCHES} rules (Calcite's match limit), then keeps
 * the tree it has;</li>
 * <li>metadata (row counts, uniqueness, predicates), which Calcite computes by recursing over the plan space,
 * may be asked {@link #METADATA_CALLS} times (54001 past it): some shapes made one rule's uniqueness question
 * recurse for minutes;</li>
 * <li>the deadline (query timeout, cancel) is checked at every rule tried by either optimizer and every few
 * metadata calls, so a timeout stops planning as it stops execution (HYT00).</li>
 * </ul>
 * It also remembers the rule being applied, so that a rule that fails with an internal error can be named and
 * left out of another try ({@link CalcitePlanner}).
 */
final class PlanningBudget implements RelOptListener {

    /** Ordinary statements, five-way joins and nested sub-queries included, take well under a thousand. */
    static final int RULE_ATTEMPTS = 20_000;
    static final int HEURISTIC_MATCHES = 10_000;
    static final int METADATA_CALLS = 1_000_000;

    private final Deadline deadline;
    private final AtomicBoolean stop = new AtomicBoolean();
    private int attempts;
    private int metadataCalls;
    private RelOptRule current;

    PlanningBudget(Deadline deadline) {
        this.deadline = deadline;
    }

    /** The context of the cost-based planner: this budget, and the cancel flag it raises when spent. */
    Context context() {
        return Contexts.of(this, new CancelFlag(stop));
    }

    /** True once the cost-based optimizer was stopped by the budget (its plan is the best found by then). */
    boolean spent() {
        return stop.get();
    }

    /** The rule being applied when planning failed, or null if it failed outside any rule. */
    RelOptRule failingRule() {
        return current;
    }

    @Override
    public void ruleAttempted(RuleAttemptedEvent event) {
        if (!event.isBefore()) {
            current = null;
            return;
        }
        current = event.getRuleCall().getRule();
        if (event.getRuleCall().getPlanner() instanceof VolcanoPlanner && ++attempts >= RULE_ATTEMPTS) {
            stop.set(true); // Calcite checks the flag before the next rule and keeps the best plan so far
        }
        StatementFailure.checkRow(deadline);
    }

    /** {@code provider} with every metadata handler it gives counted and checked against the deadline. */
    MetadataHandlerProvider guard(MetadataHandlerProvider provider) {
        return new MetadataHandlerProvider() {
            @Override
            public <MH extends MetadataHandler<?>> MH handler(Class<MH> handlerClass) {
                return counted(handlerClass, provider.handler(handlerClass));
            }

            @Override
            public <MH extends MetadataHandler<?>> MH revise(Class<MH> handlerClass) {
                return counted(handlerClass, provider.revise(handlerClass));
            }
        };
    }

    private <MH> MH counted(Class<MH> type, MH handler) {
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            if (method.getDeclaringClass() != Object.class) {
                metadataCall();
            }
            try {
                return method.invoke(handler, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }));
    }

    private void metadataCall() {
        if (++metadataCalls > METADATA_CALLS) {
            throw new StatementFailure(new SqlError(SqlState.STATEMENT_TOO_COMPLEX,
                    "statement too complex: planning asked more than " + METADATA_CALLS
                    + " questions of the plan's metadata"));
        }
        StatementFailure.checkRow(deadline);
    }

    /** What planning spent, for the planner's debug log. */
    @Override
    public String toString() {
        return attempts + " cost-based rule attempts, " + metadataCalls + " metadata calls"
                + (spent() ? ", budget spent" : "");
    }

    @Override
    public void relEquivalenceFound(RelEquivalenceEvent event) {
    }

    @Override
    public void ruleProductionSucceeded(RuleProductionEvent event) {
    }

    @Override
    public void relDiscarded(RelDiscardedEvent event) {
    }

    @Override
    public void relChosen(RelChosenEvent event) {
    }
}
