package io.kegdb.sql.calcite;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;

import java.util.List;

/**
 * In a calc's condition, a CAST of a nullable value to a NOT NULL type yields NULL for a NULL value, as Calcite's
 * simplifier takes it to: the simplifier drops a guard {@code x IS NOT NULL} beside a comparison over
 * {@code CAST(x)} (the comparison being null where x is), while the generated code of a NOT NULL cast never makes
 * a NULL, and read a NULL INTEGER as 0. {@code WHERE COALESCE(v, -8.0E0) >= -3} over an INTEGER v became
 * {@code CAST(v):DOUBLE NOT NULL >= -3 OR (v IS NULL AND -8.0E0 >= -3)} and passed the NULL rows. Here each such
 * cast, and each call above it in the condition, is typed nullable (its nullability only), so that the generated
 * code carries the NULL up to where the condition is judged (NULL: the row does not pass). Run on the final plan.
 * A value that cannot be NULL where it is cast computes as before.
 */
final class NullableCasts extends RelHomogeneousShuttle {

    private NullableCasts() {
    }

    /** {@code rel} with the narrowing casts of its calcs' conditions typed nullable. */
    static RelNode apply(RelNode rel) {
        return rel.accept(new NullableCasts());
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode rel = super.visit(other);
        return rel instanceof EnumerableCalc calc ? rewrite(calc) : rel;
    }

    private static RelNode rewrite(EnumerableCalc calc) {
        RexProgram program = calc.getProgram();
        if (program.getCondition() == null) {
            return calc;
        }
        RexBuilder rexBuilder = calc.getCluster().getRexBuilder();
        RelDataTypeFactory types = rexBuilder.getTypeFactory();
        RexNode condition = program.expandLocalRef(program.getCondition());
        RexNode relaxed = condition.accept(new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall visited = (RexCall) super.visitCall(call);
                boolean narrowing = visited.getKind() == SqlKind.CAST && !visited.getType().isNullable()
                        && visited.getOperands().get(0).getType().isNullable();
                boolean nullableOperand = visited.getOperands().stream().anyMatch(o -> o.getType().isNullable())
                        && visited != call;
                if (!narrowing && !(nullableOperand && !visited.getType().isNullable())) {
                    return visited;
                }
                return visited.clone(types.createTypeWithNullability(visited.getType(), true),
                        visited.getOperands());
            }
        });
        if (relaxed == condition) {
            return calc;
        }
        List<RexNode> projects = program.expandList(program.getProjectList());
        return EnumerableCalc.create(calc.getInput(), RexProgram.create(calc.getInput().getRowType(), projects,
                relaxed, calc.getRowType(), rexBuilder));
    }
}
