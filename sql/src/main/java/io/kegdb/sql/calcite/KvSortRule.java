package io.kegdb.sql.calcite;

import io.kegdb.sql.plan.KeyOperand;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelCollation;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;

import java.math.BigDecimal;

/**
 * {@code ORDER BY K [DESC]} and/or {@code LIMIT/OFFSET} over a scan (directly or through a projection)
 * becomes an ordered scan that stops after {@code offset + fetch} rows; the sort disappears.
 */
@SuppressWarnings("deprecation")
final class KvSortRule extends RelOptRule {

    static final KvSortRule DIRECT = new KvSortRule(false);
    static final KvSortRule THROUGH_PROJECT = new KvSortRule(true);

    private final boolean throughProject;

    private KvSortRule(boolean throughProject) {
        super(throughProject
                ? operand(Sort.class, operand(Project.class, operand(KvScan.class, none())))
                : operand(Sort.class, operand(KvScan.class, none())),
                throughProject ? "KvSortRule:project" : "KvSortRule");
        this.throughProject = throughProject;
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Sort sort = call.rel(0);
        Project project = throughProject ? call.rel(1) : null;
        KvScan scan = call.rel(throughProject ? 2 : 1);
        if (scan.limited() || scan.descending
                || (project != null && RexOver.containsOver(project.getProjects(), null))) {
            return; // a window function must see every row before the limit
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
        }
        KeyOperand offset = operand(sort.offset);
        KeyOperand fetch = operand(sort.fetch);
        if ((sort.offset != null && offset == null) || (sort.fetch != null && fetch == null)) {
            return;
        }
        KvScan ordered = scan.withOrder(descending, offset, fetch);
        call.transformTo(project == null ? ordered
                : project.copy(project.getTraitSet(), ordered, project.getProjects(), project.getRowType()));
    }

    private static KeyOperand operand(RexNode node) {
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
