package io.kegdb.sql.calcite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.core.Filter;

/**
 * Filter over a full {@link KvScan}: key conditions become the scan's ranges and the conditions on the value
 * that stored bytes decide its value tests ({@link ValueFilter}); the rest stays a filter.
 */
@SuppressWarnings("deprecation")
final class KvFilterRule extends RelOptRule {

    static final KvFilterRule INSTANCE = new KvFilterRule();

    private KvFilterRule() {
        super(operand(Filter.class, operand(KvScan.class, none())), "KvFilterRule");
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Filter filter = call.rel(0);
        KvScan scan = call.rel(1);
        if (scan.predicate != null || scan.filtersValues() || scan.limited()) {
            return;
        }
        KeyConditions.Split split = new KeyConditions(scan.def).split(filter.getCondition(),
                filter.getCluster().getRexBuilder());
        if (split == null) {
            return;
        }
        KvScan narrowed = scan.withConditions(split.predicate(), split.values());
        call.transformTo(split.residual() == null ? narrowed
                : filter.copy(filter.getTraitSet(), narrowed, split.residual()));
    }
}
