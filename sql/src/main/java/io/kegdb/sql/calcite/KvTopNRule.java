package io.kegdb.sql.calcite;

import io.kegdb.sql.plan.KeyOperand;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.rel.RelFieldCollation;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.Sort;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexOver;

import java.util.List;

/**
 * {@code ORDER BY V [, K] LIMIT n [OFFSET m]} over a scan (directly or through a projection) becomes a scan that
 * keeps its top rows by value in a bounded heap ({@link TopN}); the sort disappears. Only where every condition
 * is inside the scan (no filter between), so the heap sees exactly the rows the sort would, and where stored
 * values compare as the values do ({@link io.kegdb.sql.catalog.ColumnType#valuesCompareStored}).
 */
@SuppressWarnings("deprecation")
final class KvTopNRule extends RelOptRule {

    static final KvTopNRule DIRECT = new KvTopNRule(false);
    static final KvTopNRule THROUGH_PROJECT = new KvTopNRule(true);

    private final boolean throughProject;

    private KvTopNRule(boolean throughProject) {
        super(throughProject ? operand(Sort.class, operand(Project.class, operand(KvScan.class, none())))
                : operand(Sort.class, operand(KvScan.class, none())),
                "KvTopNRule" + (throughProject ? ":project" : ""));
        this.throughProject = throughProject;
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        Sort sort = call.rel(0);
        Project project = throughProject ? call.rel(1) : null;
        KvScan scan = call.rel(throughProject ? 2 : 1);
        if (scan.limited() || scan.keysOnly || !scan.def.valueType().valuesCompareStored() || sort.fetch == null
                || sort.getCollation().getFieldCollations().isEmpty()) {
            return;
        }
        if (project != null && (RexOver.containsOver(project.getProjects(), null)
                || SubQueries.becomeJoins(project.getProjects()))) {
            return;
        }
        List<RelFieldCollation> fields = sort.getCollation().getFieldCollations();
        RelFieldCollation first = fields.get(0);
        if (scanField(project, first.getFieldIndex()) != 1) {
            return;
        }
        boolean keyDescending = false;
        if (fields.size() > 1) {
            RelFieldCollation second = fields.get(1);
            if (scanField(project, second.getFieldIndex()) != 0) {
                return; // fields after the key change nothing: it is unique
            }
            keyDescending = second.getDirection().isDescending();
        }
        KeyOperand offset = KvSortRule.operand(sort.offset);
        KeyOperand fetch = KvSortRule.operand(sort.fetch);
        if ((sort.offset != null && offset == null) || fetch == null) {
            return;
        }
        RelNode top = scan.withTopN(new TopN(first, keyDescending, offset, fetch));
        if (project != null) {
            // Created anew so its collation follows the scan's new order.
            top = LogicalProject.create(top, project.getHints(), project.getProjects(), project.getRowType(),
                    project.getVariablesSet());
        }
        call.transformTo(top);
    }

    /** The scan's field that sort field {@code field} is (through the projection), or -1 for an expression. */
    private static int scanField(Project project, int field) {
        if (project == null) {
            return field;
        }
        RexNode e = project.getProjects().get(field);
        return e instanceof RexInputRef ref ? ref.getIndex() : -1;
    }
}
