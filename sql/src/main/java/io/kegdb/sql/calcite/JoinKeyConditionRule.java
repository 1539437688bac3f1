package io.kegdb.sql.calcite;

import org.apache.calcite.plan.RelOptRule;
import org.apache.calcite.plan.RelOptRuleCall;
import org.apache.calcite.plan.RelOptUtil;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.core.Filter;
import org.apache.calcite.rel.core.Join;
import org.apache.calcite.rel.core.JoinInfo;
import org.apache.calcite.rel.core.JoinRelType;
import org.apache.calcite.rel.logical.LogicalFilter;
import org.apache.calcite.plan.hep.HepRelVertex;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.util.ImmutableBitSet;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Carries conditions across the equalities of a join: with {@code a.x = b.y} in the join condition, a
 * condition on {@code a.x} alone below the join (say {@code a.k = ?}) also holds for {@code b.y}, so it is
 * added below the join on the other side, where a key condition becomes that scan's key range. One side's
 * filter goes to the other side when rows of the other side it removes could never have joined: both ways
 * for an inner join, left to right for a left join, right to left for a right join. Only key bounds (a
 * comparison, SEARCH or LIKE with literals or parameters) are copied, onto the key of a table's scan that
 * no condition of its own constrains yet, which also ends the copying.
 */
@SuppressWarnings("deprecation")
final class JoinKeyConditionRule extends RelOptRule {

    static final JoinKeyConditionRule LEFT_TO_RIGHT = new JoinKeyConditionRule(true);
    static final JoinKeyConditionRule RIGHT_TO_LEFT = new JoinKeyConditionRule(false);

    private final boolean fromLeft;

    private JoinKeyConditionRule(boolean fromLeft) {
        super(fromLeft
                ? operand(Join.class, operand(Filter.class, any()), operand(RelNode.class, any()))
                : operand(Join.class, operand(RelNode.class, any()), operand(Filter.class, any())),
                fromLeft ? "JoinKeyConditionRule:leftToRight" : "JoinKeyConditionRule:rightToLeft");
        this.fromLeft = fromLeft;
    }

    /** The scan {@code node} is, or that the filter {@code node} reads; null otherwise. */
    private static RelNode scanBelow(RelNode node) {
        RelNode below = node instanceof Filter f ? f.getInput() : node;
        return below instanceof HepRelVertex v ? v.getCurrentRel() : below;
    }

    /** A comparison, SEARCH or LIKE of one field with literals (not NULL) or parameters. */
    private static boolean isKeyBound(RexNode c) {
        if (!c.isA(KINDS)) {
            return false;
        }
        for (RexNode operand : ((RexCall) c).getOperands()) {
            RexNode o = operand.isA(SqlKind.CAST) ? ((RexCall) operand).getOperands().get(0) : operand;
            if (!(o instanceof RexInputRef || o instanceof RexDynamicParam
                    || o instanceof RexLiteral lit && !lit.isNull())) {
                return false;
            }
        }
        return true;
    }

    private static final Set<SqlKind> KINDS = EnumSet.of(SqlKind.EQUALS, SqlKind.LESS_THAN,
            SqlKind.LESS_THAN_OR_EQUAL, SqlKind.GREATER_THAN, SqlKind.GREATER_THAN_OR_EQUAL, SqlKind.SEARCH,
            SqlKind.LIKE);

    @Override
    public void onMatch(RelOptRuleCall call) {
        Join join = call.rel(0);
        JoinRelType type = join.getJoinType();
        if (type != JoinRelType.INNER && type != (fromLeft ? JoinRelType.LEFT : JoinRelType.RIGHT)) {
            return;
        }
        Filter source = call.rel(fromLeft ? 1 : 2);
        RelNode target = call.rel(fromLeft ? 2 : 1);
        JoinInfo info = join.analyzeCondition();
        List<Integer> from = fromLeft ? info.leftKeys : info.rightKeys;
        List<Integer> to = fromLeft ? info.rightKeys : info.leftKeys;
        // A field the other side already constrains on its own gets nothing more: Calcite rewrites conditions
        // (NOT (x <> 1) becomes x = 1), so a copy could not be recognized, and copies would go back and forth.
        Set<Integer> constrained = new HashSet<>();
        if (target instanceof Filter f) {
            for (RexNode c : RelOptUtil.conjunctions(f.getCondition())) {
                ImmutableBitSet refs = RelOptUtil.InputFinder.bits(c);
                if (refs.cardinality() == 1) {
                    constrained.add(refs.nth(0));
                }
            }
        }
        List<RexNode> added = new ArrayList<>();
        for (RexNode c : RelOptUtil.conjunctions(source.getCondition())) {
            ImmutableBitSet refs = RelOptUtil.InputFinder.bits(c);
            if (refs.cardinality() != 1 || !RexUtil.isDeterministic(c) || RexUtil.containsCorrelation(c)
                    || RexUtil.SubQueryFinder.containsSubQuery(source)) {
                continue;
            }
            int i = from.indexOf(refs.nth(0));
            if (i < 0) {
                continue;
            }
            int field = to.get(i);
            if (constrained.contains(field) || field != 0 || !(scanBelow(target) instanceof KvScan)
                    || !isKeyBound(c)) {
                continue; // only what becomes the other scan's key range: nothing Calcite may simplify away
            }
            var targetType = target.getRowType().getFieldList().get(field).getType();
            if (!SqlTypeUtil.equalSansNullability(join.getCluster().getTypeFactory(),
                    source.getRowType().getFieldList().get(refs.nth(0)).getType(), targetType)) {
                continue; // a different type may compare differently
            }
            RexNode moved = c.accept(new RexShuttle() {
                @Override
                public RexNode visitInputRef(RexInputRef ref) {
                    return new RexInputRef(field, targetType);
                }
            });
            added.add(moved);
        }
        if (added.isEmpty()) {
            return;
        }
        RexBuilder rex = join.getCluster().getRexBuilder();
        RelNode newTarget;
        if (target instanceof Filter f) {
            added.add(0, f.getCondition());
            newTarget = f.copy(f.getTraitSet(), f.getInput(), RexUtil.composeConjunction(rex, added));
        } else {
            newTarget = LogicalFilter.create(target, RexUtil.composeConjunction(rex, added));
        }
        List<RelNode> inputs = fromLeft ? List.of(source, newTarget) : List.of(newTarget, source);
        call.transformTo(join.copy(join.getTraitSet(), join.getCondition(), inputs.get(0), inputs.get(1),
                type, join.isSemiJoinDone()));
    }
}
