package io.kegdb.sql.calcite;

import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelVisitor;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Correlate;
import org.apache.calcite.rel.core.Project;
import org.apache.calcite.rel.core.RelFactories;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.tools.RelBuilder;

import java.util.ArrayList;
import java.util.List;

/**
 * Rewrites an aggregate whose group keys are all constants ({@code SELECT DISTINCT TRUE FROM t}, which is what an
 * uncorrelated {@code EXISTS} becomes) into the grand total it is plus a test that its input had a row: {@code
 * SELECT TRUE, aggs FROM (SELECT aggs, COUNT(*) AS n FROM t) WHERE n > 0}. Such an aggregate has no row over an
 * empty input, but Calcite's decorrelator (calcite-core 1.42.0), which rewrites the whole statement once any part
 * of it is correlated, drops the constant keys and leaves a grand total that always has one row: {@code NOT EXISTS
 * (SELECT 1 FROM empty)} next to a correlated scalar sub-query then kept no row. The decorrelator leaves the
 * rewritten form as it is.
 */
final class ConstantGroupKeys {

    private ConstantGroupKeys() {
    }

    /** {@code root} with each constant-keyed aggregate rewritten, if the tree has a correlation; else {@code root}. */
    static RelNode beforeDecorrelation(RelNode root) {
        if (!hasCorrelate(root)) {
            return root;
        }
        RelBuilder builder = RelFactories.LOGICAL_BUILDER.create(root.getCluster(), null);
        return root.accept(new RelHomogeneousShuttle() {
            @Override
            public RelNode visit(RelNode other) {
                RelNode node = super.visit(other);
                return node instanceof Aggregate aggregate && constantKeys(aggregate) ? rewrite(aggregate, builder)
                        : node;
            }
        });
    }

    private static boolean hasCorrelate(RelNode root) {
        boolean[] found = {false};
        new RelVisitor() {
            @Override
            public void visit(RelNode node, int ordinal, RelNode parent) {
                found[0] |= node instanceof Correlate;
                if (!found[0]) {
                    super.visit(node, ordinal, parent);
                }
            }
        }.go(root);
        return found[0];
    }

    private static boolean constantKeys(Aggregate aggregate) {
        if (aggregate.getGroupType() != Aggregate.Group.SIMPLE || aggregate.getGroupCount() == 0
                || !(aggregate.getInput() instanceof Project project)) {
            return false;
        }
        return aggregate.getGroupSet().asList().stream()
                .allMatch(i -> project.getProjects().get(i) instanceof RexLiteral);
    }

    private static RelNode rewrite(Aggregate aggregate, RelBuilder builder) {
        Project project = (Project) aggregate.getInput();
        RexBuilder rex = aggregate.getCluster().getRexBuilder();
        List<AggregateCall> calls = new ArrayList<>(aggregate.getAggCallList());
        int groups = aggregate.getGroupCount();
        builder.push(project);
        List<RelBuilder.AggCall> aggCalls = new ArrayList<>();
        for (AggregateCall call : calls) {
            aggCalls.add(builder.aggregateCall(call));
        }
        aggCalls.add(builder.countStar("$rows"));
        builder.aggregate(builder.groupKey(), aggCalls);
        builder.filter(builder.call(SqlStdOperatorTable.GREATER_THAN, builder.field(calls.size()),
                builder.literal(0)));
        List<RexNode> exprs = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<RelDataTypeField> fields = aggregate.getRowType().getFieldList();
        List<Integer> keys = aggregate.getGroupSet().asList();
        for (int i = 0; i < fields.size(); i++) {
            RexNode e = i < groups ? project.getProjects().get(keys.get(i)) : builder.field(i - groups);
            exprs.add(rex.ensureType(fields.get(i).getType(), e, true));
            names.add(fields.get(i).getName());
        }
        return builder.project(exprs, names, true).build();
    }
}
