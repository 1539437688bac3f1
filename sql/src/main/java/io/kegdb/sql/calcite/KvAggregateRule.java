package io.kegdb.sql.calcite;

import io.kegdb.sql.plan.KeyOperand;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptRuleOperand;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * An aggregate that reads only the key (COUNT(*), MIN(K), GROUP BY K) makes the scan produce keys alone
 * ({@link #INSTANCE}); MIN(K) or MAX(K) alone then reads one key, the first of an ascending or a descending
 * scan ({@link #MIN_MAX}).
 */
@SuppressWarnings("deprecation")
final class KvAggregateRule extends RelOptRule {

    static final KvAggregateRule INSTANCE = new KvAggregateRule(false, false);
    static final KvAggregateRule MIN_MAX = new KvAggregateRule(true, false);
    /** MIN/MAX over the projection of the key alone (what the key-only scan of a filter leaves). */
    static final KvAggregateRule MIN_MAX_THROUGH_PROJECT = new KvAggregateRule(true, true);

    private final boolean minMax;
    private final boolean throughProject;

    private KvAggregateRule(boolean minMax, boolean throughProject) {
        super(aggregateOverScan(throughProject),
                "KvAggregateRule" + (minMax ? ":minMax" : "") + (throughProject ? ":project" : ""));
        this.minMax = minMax;
        this.throughProject = throughProject;
    }

    /** An aggregate over a scan, directly or through a projection (this rule's operand and KvAggregateScanRule's). */
    static RelOptRuleOperand aggregateOverScan(boolean throughProject) {
        return throughProject ? operand(Aggregate.class, operand(Project.class, operand(KvScan.class, none())))
                : operand(Aggregate.class, operand(KvScan.class, none()));
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        Project project = throughProject ? call.rel(1) : null;
        KvScan scan = call.rel(throughProject ? 2 : 1);
        if (project != null && !(project.getProjects().size() == 1
                && project.getProjects().get(0) instanceof RexInputRef ref && ref.getIndex() == 0)) {
            return;
        }
        KvScan input = minMax ? firstKey(aggregate, scan) : keysOnly(aggregate, scan);
        if (input != null) {
            RelNode below = project == null ? input
                    : project.copy(project.getTraitSet(), input, project.getProjects(), project.getRowType());
            call.transformTo(aggregate.copy(aggregate.getTraitSet(), below, aggregate.getGroupSet(),
                    aggregate.getGroupSets(), aggregate.getAggCallList()));
        }
    }

    private static KvScan keysOnly(Aggregate aggregate, KvScan scan) {
        if (scan.keysOnly || scan.topN != null) {
            return null;
        }
        ImmutableBitSet.Builder used = ImmutableBitSet.builder().addAll(aggregate.getGroupSet());
        for (AggregateCall a : aggregate.getAggCallList()) {
            used.addAll(a.getArgList());
            if (a.filterArg >= 0) {
                used.set(a.filterArg);
            }
            a.collation.getFieldCollations().forEach(f -> used.set(f.getFieldIndex()));
        }
        return ImmutableBitSet.of(0).contains(used.build()) ? scan.withKeysOnly() : null;
    }

    /** The scan reading only the key that {@code MIN(K)} or {@code MAX(K)} (no GROUP BY) is, or null. */
    private static KvScan firstKey(Aggregate aggregate, KvScan scan) {
        if (scan.limited() || scan.descending || !aggregate.getGroupSet().isEmpty()
                || aggregate.getAggCallList().isEmpty()) {
            return null;
        }
        SqlKind kind = aggregate.getAggCallList().get(0).getAggregation().getKind();
        for (AggregateCall a : aggregate.getAggCallList()) {
            if (a.getAggregation().getKind() != kind || (kind != SqlKind.MIN && kind != SqlKind.MAX)
                    || !a.getArgList().equals(List.of(0)) || a.filterArg >= 0) {
                return null;
            }
        }
        // Keys are never NULL, so the first key in the aggregate's order is its answer (NULL if none).
        return scan.withOrder(kind == SqlKind.MAX, null, KeyOperand.literal(1L));
    }
}
