package io.kegdb.sql.calcite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.List;

/**
 * A projection that uses only the key (possibly through a filter on the key) makes the scan produce
 * keys alone, so values are never decoded.
 */
@SuppressWarnings("deprecation")
final class KvProjectRule extends RelOptRule {

    static final KvProjectRule DIRECT = new KvProjectRule(false);
    static final KvProjectRule THROUGH_FILTER = new KvProjectRule(true);

    private final boolean throughFilter;

    private KvProjectRule(boolean throughFilter) {
        super(throughFilter
                ? operand(Project.class, operand(Filter.class, operand(KvScan.class, none())))
                : operand(Project.class, operand(KvScan.class, none())),
                throughFilter ? "KvProjectRule:filter" : "KvProjectRule");
        this.throughFilter = throughFilter;
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Project project = call.rel(0);
        Filter filter = throughFilter ? call.rel(1) : null;
        KvScan scan = call.rel(throughFilter ? 2 : 1);
        if (scan.keysOnly || scan.topN != null) {
            return; // a top-N orders by the value, so it reads it
        }
        // A correlated sub-query reads the row's other fields through its correlation variable.
        ImmutableBitSet refs = SubQueries.inputFields(project.getProjects(), project.getVariablesSet());
        if (filter != null) {
            refs = refs.union(SubQueries.inputFields(List.of(filter.getCondition()), filter.getVariablesSet()));
        }
        if (!ImmutableBitSet.of(0).contains(refs)) {
            return;
        }
        RelNode input = scan.withKeysOnly();
        if (filter != null) {
            input = filter.copy(filter.getTraitSet(), input, filter.getCondition());
        }
        call.transformTo(project.copy(project.getTraitSet(), input, project.getProjects(), project.getRowType()));
    }
}
