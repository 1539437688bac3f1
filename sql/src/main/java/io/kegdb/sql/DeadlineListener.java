package io.kegdb.sql;

import org.apache.calcite.plan.RelOptListener;

/** Stops the cost-based optimizer at the next rule it tries once the statement's deadline is reached. */
final class DeadlineListener implements RelOptListener {

    private final Deadline deadline;

    DeadlineListener(Deadline deadline) {
        this.deadline = deadline;
    }

    @Override
    public void ruleAttempted(RuleAttemptedEvent event) {
        deadline.checkRow();
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
