package io.kegdb.sql.calcite;

import io.kegdb.sql.plan.KeyOperand;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptRuleOperand;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;

import java.math.BigDecimal;
import java.util.List;

/**
 * {@code ORDER BY K [DESC]} and/or {@code LIMIT/OFFSET} over a scan (directly or through a projection)
 * becomes an ordered scan that stops after {@code offset + fetch} rows; the sort disappears. Through a
 * filter, the scan reads in the sort's order and a limit alone stays above the filter (below the projection),
 * so the scan stops once the filter has let {@code offset + fetch} rows through.
 */
@SuppressWarnings("deprecation")
final class KvSortRule extends RelOptRule {

    static final KvSortRule DIRECT = new KvSortRule(false, false);
    static final KvSortRule THROUGH_PROJECT = new KvSortRule(true, false);
    static final KvSortRule THROUGH_FILTER = new KvSortRule(false, true);
    static final KvSortRule THROUGH_PROJECT_FILTER = new KvSortRule(true, true);

    private final boolean throughProject;
    private final boolean throughFilter;

    private KvSortRule(boolean throughProject, boolean throughFilter) {
        super(operand(Sort.class, below(throughProject, throughFilter)),
                "KvSortRule" + (throughProject ? ":project" : "") + (throughFilter ? ":filter" : ""));
        this.throughProject = throughProject;
        this.throughFilter = throughFilter;
    }

    private static RelOptRuleOperand below(boolean project, boolean filter) {
        RelOptRuleOperand scan = operand(KvScan.class, none());
        RelOptRuleOperand filtered = filter ? operand(Filter.class, scan) : scan;
        return project ? operand(Project.class, filtered) : filtered;
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Sort sort = call.rel(0);
        Project project = throughProject ? call.rel(1) : null;
        Filter filter = throughFilter ? call.rel(throughProject ? 2 : 1) : null;
        KvScan scan = call.rel(1 + (throughProject ? 1 : 0) + (throughFilter ? 1 : 0));
        if (scan.limited() || scan.descending
                || (project != null && RexOver.containsOver(project.getProjects(), null))) {
            return; // a window function must see every row before the limit
        }
        if ((filter != null && SubQueries.becomeJoins(List.of(filter.getCondition())))
                || (project != null && SubQueries.becomeJoins(project.getProjects()))) {
            // A sub-query (or a correlation) is rewritten into a join later, and a join does not keep its
            // input's order: a limit left above it would take the join's first rows, not the scan's.
            return;
        }
        RelCollation collation = sort.getCollation();
        boolean descending = false;
        if (!collation.getFieldCollations().isEmpty()) {
            RelFieldCollation first = collation.getFieldCollations().get(0);
            int field = first.getFieldIndex();
            if (project != null) {
                RexNode e = project.getProjects().get(field);
                field = e instanceof RexInputRef ref ? ref.getIndex() : -1;
            }
            // The key is unique, so sort keys after it change nothing.
            if (field != 0) {
                return;
            }
            descending = first.getDirection() == RelFieldCollation.Direction.DESCENDING;
        } else if (filter != null) {
            return; // a limit alone over a filter: nothing to gain
        }
        if (filter != null && project == null && collation.equals(filter.getTraitSet().getCollation())) {
            // The filter already has the sort's order (the limit is one this rule made): nothing to do, and the
            // rule would match its own result again.
            return;
        }
        KeyOperand offset = operand(sort.offset);
        KeyOperand fetch = operand(sort.fetch);
        if ((sort.offset != null && offset == null) || (sort.fetch != null && fetch == null)) {
            return;
        }
        KvScan ordered = scan.withOrder(descending, filter == null ? offset : null, filter == null ? fetch : null);
        // Filter and projection carry the scan's order as their collation (a filter keeps it; a projection as
        // its columns map it), so the planner sees the limit's input already in order and adds no sort.
        RelCollation order = ordered.getTraitSet().getCollation();
        RelNode input = filter == null ? ordered
                : filter.copy(filter.getTraitSet().replace(order), ordered, filter.getCondition());
        if (filter != null && (sort.offset != null || sort.fetch != null)) {
            // The rows arrive in order; the limit stops pulling them (the scan) once it has enough. It goes
            // below the projection, which then computes only the rows the limit keeps, and it has the scan's
            // order, which the projection above carries on.
            input = sort.copy(sort.getTraitSet().replace(order), input, order, sort.offset, sort.fetch);
        }
        if (project != null) {
            input = LogicalProject.create(input, project.getHints(), project.getProjects(), project.getRowType(),
                    project.getVariablesSet());
        }
        call.transformTo(input);
    }

    static KeyOperand operand(RexNode node) {
        if (node == null) {
            return null;
        }
        if (node instanceof RexDynamicParam p) {
            return KeyOperand.param(p.getIndex());
        }
        if (node instanceof RexLiteral lit && lit.getValueAs(BigDecimal.class) != null) {
            return KeyOperand.literal(lit.getValueAs(BigDecimal.class).longValue());
        }
        return null;
    }
}
