package io.kegdb.sql.calcite;

import org.apache.calcite.adapter.enumerable.EnumerableConvention;
import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptRuleOperand;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.rel.logical.LogicalJoin;
import org.apache.calcite.rel.logical.LogicalProject;
import org.apache.calcite.rel.type.RelDataTypeField;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Offers a join whose condition equates one input's key with a column of the other as a {@link KvLookupJoin}:
 * the keyed input, a {@link KvScan} (under a filter for an inner join, and under a projection of its columns,
 * as Calcite's trimming of unused fields leaves it), is looked up once per row of the other. Whatever else
 * the condition requires, and the keyed input's filter, is checked by a filter above the lookups, which is
 * the same for an inner join; an outer join is taken only with the key equality alone as its condition and
 * the keyed input on its inner side. The planner keeps the lookups when their cost (the other input's rows,
 * each a lookup) beats scanning and joining both inputs.
 */
@SuppressWarnings("deprecation")
final class KvLookupJoinRule extends RelOptRule {

    /** Every variant: the keyed input on either side, with or without a projection and a filter. */
    static final List<KvLookupJoinRule> ALL = variants();

    private final boolean innerRight;
    private final boolean projected;
    private final boolean filtered;

    private KvLookupJoinRule(boolean innerRight, boolean projected, boolean filtered) {
        super(innerRight ? operand(LogicalJoin.class, operand(RelNode.class, any()), keyed(projected, filtered))
                        : operand(LogicalJoin.class, keyed(projected, filtered), operand(RelNode.class, any())),
                "KvLookupJoinRule:" + (innerRight ? "right" : "left") + (projected ? ":projected" : "")
                        + (filtered ? ":filtered" : ""));
        this.innerRight = innerRight;
        this.projected = projected;
        this.filtered = filtered;
    }

    private static List<KvLookupJoinRule> variants() {
        List<KvLookupJoinRule> all = new ArrayList<>();
        for (boolean right : new boolean[] {true, false}) {
            for (boolean projected : new boolean[] {false, true}) {
                for (boolean filtered : new boolean[] {false, true}) {
                    all.add(new KvLookupJoinRule(right, projected, filtered));
                }
            }
        }
        return List.copyOf(all);
    }

    private static RelOptRuleOperand keyed(boolean projected, boolean filtered) {
        RelOptRuleOperand scan = filtered ? operand(LogicalFilter.class, operand(KvScan.class, none()))
                : operand(KvScan.class, none());
        return projected ? operand(LogicalProject.class, scan) : scan;
    }

    @Override
    public void onMatch(RelOptRuleCall call) {
        LogicalJoin join = call.rel(0);
        // Operands in depth-first order: the join, then the left side's rels, then the right side's.
        int at = innerRight ? 2 : 1;
        LogicalProject project = projected ? call.rel(at++) : null;
        LogicalFilter filter = filtered ? call.rel(at++) : null;
        KvScan scan = call.rel(at);
        JoinRelType type = join.getJoinType();
        boolean keepOuter = type == (innerRight ? JoinRelType.LEFT : JoinRelType.RIGHT);
        if ((type != JoinRelType.INNER && !keepOuter) || (filter != null && keepOuter) || scan.limited()) {
            return;
        }
        // Which scan column each column of the keyed input is: the projection must only pick columns.
        int keyedWidth = (innerRight ? join.getRight() : join.getLeft()).getRowType().getFieldCount();
        int[] scanColumn = new int[keyedWidth];
        for (int i = 0; i < keyedWidth; i++) {
            if (project == null) {
                scanColumn[i] = i;
            } else if (project.getProjects().get(i) instanceof RexInputRef ref) {
                scanColumn[i] = ref.getIndex();
            } else {
                return;
            }
        }
        RelNode outer = innerRight ? join.getLeft() : join.getRight();
        int outerWidth = outer.getRowType().getFieldCount();
        int keyedStart = innerRight ? outerWidth : 0;
        int outerStart = innerRight ? 0 : keyedWidth;
        List<RexNode> rest = new ArrayList<>();
        int outerKey = -1;
        List<RelDataTypeField> fields = join.getRowType().getFieldList();
        for (RexNode c : RelOptUtil.conjunctions(join.getCondition())) {
            int[] equated = outerKey < 0 ? equated(c) : null;
            int field = -1;
            if (equated != null) {
                for (int side = 0; side < 2 && field < 0; side++) {
                    int k = equated[side] - keyedStart;
                    if (k >= 0 && k < keyedWidth && scanColumn[k] == 0) {
                        field = equated[1 - side];
                    }
                }
            }
            if (field >= outerStart && field < outerStart + outerWidth && SqlTypeUtil.equalSansNullability(
                    join.getCluster().getTypeFactory(), fields.get(field).getType(),
                    scan.getRowType().getFieldList().get(0).getType())) {
                outerKey = field - outerStart;
            } else {
                rest.add(c);
            }
        }
        if (outerKey < 0 || (keepOuter && !rest.isEmpty())) {
            return;
        }
        KvLookupJoin lookups = KvLookupJoin.create(
                convert(outer, outer.getTraitSet().replace(EnumerableConvention.INSTANCE)), scan, outerKey,
                !innerRight, keepOuter);
        // The join's columns as columns of the lookups' rows (the scan's row in full, beside the outer's).
        int scanWidth = scan.getRowType().getFieldCount();
        int scanAt = innerRight ? outerWidth : 0;
        int outerAt = innerRight ? 0 : scanWidth;
        int[] source = new int[fields.size()];
        for (int f = 0; f < fields.size(); f++) {
            int k = f - keyedStart;
            source[f] = k >= 0 && k < keyedWidth ? scanAt + scanColumn[k] : outerAt + f - outerStart;
        }
        RexBuilder rex = join.getCluster().getRexBuilder();
        List<RexNode> conditions = new ArrayList<>();
        for (RexNode c : rest) {
            conditions.add(c.accept(remap(lookups, source)));
        }
        if (filter != null) {
            conditions.add(RexUtil.shift(filter.getCondition(), scanAt));
        }
        RelNode out = conditions.isEmpty() ? lookups
                : LogicalFilter.create(lookups, RexUtil.composeConjunction(rex, conditions));
        List<RexNode> columns = new ArrayList<>();
        boolean identity = source.length == lookups.getRowType().getFieldCount();
        for (int f = 0; f < source.length; f++) {
            columns.add(rex.makeInputRef(out, source[f]));
            identity &= source[f] == f;
        }
        call.transformTo(identity ? out
                : LogicalProject.create(out, List.of(), columns, join.getRowType().getFieldNames(), Set.of()));
    }

    /** Input references to join column {@code f} become references to the lookups' column {@code source[f]}. */
    private static RexShuttle remap(RelNode lookups, int[] source) {
        List<RelDataTypeField> fields = lookups.getRowType().getFieldList();
        return new RexShuttle() {
            @Override
            public RexNode visitInputRef(RexInputRef ref) {
                int to = source[ref.getIndex()];
                return new RexInputRef(to, fields.get(to).getType());
            }
        };
    }

    /** The two columns {@code c} equates ({@code $a = $b}), or null. */
    private static int[] equated(RexNode c) {
        if (c.getKind() != SqlKind.EQUALS) {
            return null;
        }
        List<RexNode> operands = ((RexCall) c).getOperands();
        if (operands.get(0) instanceof RexInputRef a && operands.get(1) instanceof RexInputRef b) {
            return new int[] {a.getIndex(), b.getIndex()};
        }
        return null;
    }
}
