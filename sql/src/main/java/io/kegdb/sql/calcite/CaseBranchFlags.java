package io.kegdb.sql.calcite;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.rex.RexVisitorImpl;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeName;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Moves TRIM, EXTRACT, FLOOR and CEIL calls with a flag out of CASE branches into a calc below, before code
 * generation.
 *
 * <p>Calcite's code generator reads these functions' flag operand ({@code BOTH}, {@code YEAR}) as a literal
 * it has seen, and it generates each CASE branch (and each WHEN after the first) with a translator that inherits what the enclosing code
 * translated but not the literals' values. A flag already used outside the branch (in the WHEN condition, or
 * another column) then reads as unknown inside it: {@code CASE TRIM(k) WHEN 'x' THEN ... ELSE TRIM(v) END}
 * returned v untrimmed, and an EXTRACT there failed to compile. Computed below the CASE, those calls are
 * ordinary input fields of it. They cannot fail on a row (a TRIM character that is not one character fails
 * whatever the row), so evaluating them for rows whose branch is not taken changes no result.
 */
final class CaseBranchFlags extends RelHomogeneousShuttle {

    private static final Set<SqlKind> FLAG_CALLS = EnumSet.of(SqlKind.TRIM, SqlKind.EXTRACT, SqlKind.FLOOR,
            SqlKind.CEIL);

    private CaseBranchFlags() {
    }

    static RelNode apply(RelNode rel) {
        return rel.accept(new CaseBranchFlags());
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode rel = super.visit(other);
        return rel instanceof EnumerableCalc calc ? hoist(calc) : rel;
    }

    private static RelNode hoist(EnumerableCalc calc) {
        RexProgram program = calc.getProgram();
        List<RexNode> projects = program.expandList(program.getProjectList());
        RexNode condition = program.getCondition() == null ? null : program.expandLocalRef(program.getCondition());
        Map<RexNode, Integer> hoisted = new LinkedHashMap<>();
        int inputs = calc.getInput().getRowType().getFieldCount();
        List<RexNode> all = new ArrayList<>(projects);
        if (condition != null) {
            all.add(condition);
        }
        for (RexNode e : all) {
            e.accept(new RexVisitorImpl<Void>(true) {
                @Override
                public Void visitCall(RexCall call) {
                    if (call.getKind() == SqlKind.CASE) {
                        // every operand but the first condition is generated in a branch's translator
                        for (int i = 1; i < call.getOperands().size(); i++) {
                            collect(call.getOperands().get(i), hoisted, inputs);
                        }
                    }
                    return super.visitCall(call);
                }
            });
        }
        if (hoisted.isEmpty()) {
            return calc;
        }
        RexBuilder rexBuilder = calc.getCluster().getRexBuilder();
        List<RexNode> below = new ArrayList<>(rexBuilder.identityProjects(calc.getInput().getRowType()));
        below.addAll(hoisted.keySet());
        EnumerableCalc lower = EnumerableCalc.create(calc.getInput(), RexProgram.create(
                calc.getInput().getRowType(), below, null, (List<String>) null, rexBuilder));
        RexShuttle replace = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                Integer field = hoisted.get(call);
                return field != null ? rexBuilder.makeInputRef(call.getType(), field) : super.visitCall(call);
            }
        };
        RexProgram upper = RexProgram.create(lower.getRowType(), replace.apply(projects),
                condition == null ? null : condition.accept(replace), calc.getRowType(), rexBuilder);
        // the hoisted calls may hold CASEs of their own
        return EnumerableCalc.create(hoist(lower), upper);
    }

    /** Adds the flag calls in {@code e} (at any depth) that read only input fields and literals. */
    private static void collect(RexNode e, Map<RexNode, Integer> hoisted, int inputs) {
        e.accept(new RexVisitorImpl<Void>(true) {
            @Override
            public Void visitCall(RexCall call) {
                if (FLAG_CALLS.contains(call.getKind()) && hasFlag(call) && local(call)) {
                    hoisted.putIfAbsent(call, inputs + hoisted.size());
                    return null;
                }
                return super.visitCall(call);
            }
        });
    }

    private static boolean hasFlag(RexCall call) {
        return call.getOperands().stream().anyMatch(o -> o instanceof RexLiteral l
                && l.getTypeName() == SqlTypeName.SYMBOL);
    }

    /** Whether {@code call} can be computed from the calc's input row alone. */
    private static boolean local(RexCall call) {
        return RexUtil.isDeterministic(call) && RexUtil.SubQueryFinder.find(call) == null
                && !RexUtil.containsCorrelation(call);
    }
}
