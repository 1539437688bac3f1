package io.kegdb.sql.calcite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.sql.SqlKind;

import java.util.List;

/**
 * {@code COUNT(*)} or {@code COUNT(K)}, no GROUP BY, over a scan (no limit; value tests allowed) becomes a
 * {@link KvCount}.
 */
@SuppressWarnings("deprecation")
final class KvCountRule extends RelOptRule {

    static final KvCountRule INSTANCE = new KvCountRule();

    private KvCountRule() {
        super(operand(Aggregate.class, operand(KvScan.class, none())), "KvCountRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        KvScan scan = call.rel(1);
        if (scan.limited() || !aggregate.getGroupSet().isEmpty() || aggregate.getGroupSets().size() != 1
                || aggregate.getAggCallList().isEmpty()) {
            return;
        }
        for (AggregateCall a : aggregate.getAggCallList()) {
            // Keys are never NULL and unique: COUNT(K) and COUNT(DISTINCT K) count every row too.
            if (a.getAggregation().getKind() != SqlKind.COUNT || a.filterArg >= 0
                    || !(a.getArgList().isEmpty() || a.getArgList().equals(List.of(0)))) {
                return;
            }
        }
        call.transformTo(KvCount.of(scan, aggregate.getRowType()));
    }
}
