package io.kegdb.sql.calcite;

import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.plan.StatementFailure;
import org.apache.calcite.plan.RelOptListener;

/**
 * Stops the cost-based optimizer at the next rule it tries once the statement's deadline is reached, or once
 * it has tried {@link #MAX_RULE_ATTEMPTS} rules. Ordinary statements, five-way joins and nested subqueries
 * included, take well under a thousand attempts; some shapes send Calcite's planner into an endless chain of
 * rule applications, which without this bound would hang a connection that has no query timeout.
 */
final class DeadlineListener implements RelOptListener {

    static final int MAX_RULE_ATTEMPTS = 200_000;

    private final Deadline deadline;
    private int attempts;

    DeadlineListener(Deadline deadline) {
        this.deadline = deadline;
    }

    @Override
    public void ruleAttempted(RuleAttemptedEvent event) {
        if (++attempts > MAX_RULE_ATTEMPTS) {
            throw new StatementFailure(new SqlError(SqlState.STATEMENT_TOO_COMPLEX,
                    "statement too complex: the optimizer gave up after "
                    + MAX_RULE_ATTEMPTS + " rule attempts"));
        }
        StatementFailure.checkRow(deadline);
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
