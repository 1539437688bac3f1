package io.kegdb.sql.calcite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.util.ImmutableBitSet;

/** An aggregate that reads only the key (COUNT(*), MIN(K), GROUP BY K) makes the scan produce keys alone. */
@SuppressWarnings("deprecation")
final class KvAggregateRule extends RelOptRule {

    static final KvAggregateRule INSTANCE = new KvAggregateRule();

    private KvAggregateRule() {
        super(operand(Aggregate.class, operand(KvScan.class, none())), "KvAggregateRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Aggregate aggregate = call.rel(0);
        KvScan scan = call.rel(1);
        if (scan.keysOnly) {
            return;
        }
        ImmutableBitSet.Builder used = ImmutableBitSet.builder().addAll(aggregate.getGroupSet());
        for (AggregateCall a : aggregate.getAggCallList()) {
            used.addAll(a.getArgList());
            if (a.filterArg >= 0) {
                used.set(a.filterArg);
            }
            a.collation.getFieldCollations().forEach(f -> used.set(f.getFieldIndex()));
        }
        if (!ImmutableBitSet.of(0).contains(used.build())) {
            return;
        }
        call.transformTo(aggregate.copy(aggregate.getTraitSet(), scan.withKeysOnly(), aggregate.getGroupSet(),
                aggregate.getGroupSets(), aggregate.getAggCallList()));
    }
}
