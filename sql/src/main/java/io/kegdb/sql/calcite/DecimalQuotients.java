package io.kegdb.sql.calcite;

import org.apache.calcite.adapter.enumerable.EnumerableCalc;
import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * A DECIMAL quotient cast to a DECIMAL type is computed to that type's scale, rounded half up. Calcite's generated
 * code divides DECIMALs to 16 significant digits ({@code MathContext.DECIMAL64}) whatever the type, and the cast
 * then pads zeros: AVG of a DECIMAL(15,3), which is DECIMAL(38, 13) and computed as
 * {@code CAST(SUM(v) / COUNT(v) AS DECIMAL(38, 13))}, gave 11223343.1073636400000 for 11223343.1073636363636.
 * Run on the final plan (AVG is reduced to that quotient while optimizing); every {@code CAST(a / b AS
 * DECIMAL(p, s))} of an EnumerableCalc with a DECIMAL operand (an integer division stays one) becomes the cast of
 * {@link #quotient}.
 */
@Strict
public final class DecimalQuotients extends RelHomogeneousShuttle {

    private static final SqlOperator QUOTIENT = CodeFunctions.operator("DECIMAL_QUOTIENT", DecimalQuotients.class,
            "quotient", BigDecimal.class, BigDecimal.class, int.class);

    private DecimalQuotients() {
    }

    /** {@code rel} with the DECIMAL quotients of its calcs computed to their cast's scale. */
    static RelNode apply(RelNode rel) {
        return rel.accept(new DecimalQuotients());
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode rel = super.visit(other);
        return rel instanceof EnumerableCalc calc ? rewrite(calc) : rel;
    }

    private static RelNode rewrite(EnumerableCalc calc) {
        RexProgram program = calc.getProgram();
        RexBuilder rexBuilder = calc.getCluster().getRexBuilder();
        boolean[] changed = {false};
        RexShuttle quotients = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall visited = (RexCall) super.visitCall(call);
                RexNode exact = exactQuotient(rexBuilder, visited);
                changed[0] |= exact != visited;
                return exact;
            }
        };
        List<RexNode> projects = quotients.apply(program.expandList(program.getProjectList()));
        RexNode condition = program.getCondition() == null ? null
                : program.expandLocalRef(program.getCondition()).accept(quotients);
        if (!changed[0]) {
            return calc;
        }
        return EnumerableCalc.create(calc.getInput(), RexProgram.create(calc.getInput().getRowType(), projects,
                condition, calc.getRowType(), rexBuilder));
    }

    /** {@code call} if it is no DECIMAL quotient cast to a DECIMAL, else the cast of {@link #quotient}. */
    private static RexNode exactQuotient(RexBuilder rexBuilder, RexCall call) {
        if (call.getKind() != SqlKind.CAST || call.getType().getSqlTypeName() != SqlTypeName.DECIMAL
                || !(call.getOperands().get(0) instanceof RexCall divide)
                || (divide.getKind() != SqlKind.DIVIDE && divide.getKind() != SqlKind.CHECKED_DIVIDE)) {
            return call;
        }
        RexNode dividend = divide.getOperands().get(0);
        RexNode divisor = divide.getOperands().get(1);
        if (!SqlTypeUtil.isExactNumeric(dividend.getType()) || !SqlTypeUtil.isExactNumeric(divisor.getType())
                || !(SqlTypeUtil.isDecimal(dividend.getType()) || SqlTypeUtil.isDecimal(divisor.getType()))) {
            return call;
        }
        RelDataTypeFactory types = rexBuilder.getTypeFactory();
        int scale = call.getType().getScale();
        boolean nullable = dividend.getType().isNullable() || divisor.getType().isNullable();
        RelDataType wide = types.createTypeWithNullability(types.createSqlType(SqlTypeName.DECIMAL,
                types.getTypeSystem().getMaxPrecision(SqlTypeName.DECIMAL), scale), nullable);
        RexNode quotient = rexBuilder.makeCall(divide.getParserPosition(), wide, QUOTIENT, List.of(
                decimal(rexBuilder, dividend), decimal(rexBuilder, divisor),
                rexBuilder.makeExactLiteral(BigDecimal.valueOf(scale))));
        return rexBuilder.makeCast(call.getParserPosition(), call.getType(), quotient);
    }

    private static RexNode decimal(RexBuilder rexBuilder, RexNode operand) {
        if (SqlTypeUtil.isDecimal(operand.getType())) {
            return operand;
        }
        RelDataTypeFactory types = rexBuilder.getTypeFactory();
        return rexBuilder.makeCast(types.createTypeWithNullability(types.createSqlType(SqlTypeName.DECIMAL,
                19, 0), operand.getType().isNullable()), operand);
    }

    /** {@code dividend / divisor} to {@code scale} fractional digits, half up; called by generated code. */
    public static BigDecimal quotient(BigDecimal dividend, BigDecimal divisor, int scale) {
        if (divisor.signum() == 0) {
            throw new ArithmeticException("division by zero");
        }
        return dividend.divide(divisor, scale, RoundingMode.HALF_UP);
    }
}
