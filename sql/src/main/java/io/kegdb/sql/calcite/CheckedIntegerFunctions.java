package io.kegdb.sql.calcite;

import org.apache.calcite.linq4j.function.Strict;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexShuttle;
import org.apache.calcite.rex.RexSubQuery;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * ABS and ROUND of an exact integer raise 22003 when the result does not fit the type, as {@code + - *} and unary
 * minus do (Calcite's {@code ConvertToChecked}); Calcite's wrap around: {@code ABS(-2147483648)} of an INTEGER
 * was -2147483648, {@code ROUND(2147483647, -1)} -2147483646. Each such call of a TINYINT, SMALLINT, INTEGER or
 * BIGINT in the converted plan, sub-queries included, becomes a call of one of the methods below (the generated
 * code calls them). Other types keep Calcite's functions: a DECIMAL is checked where it is stored, a DOUBLE does
 * not wrap. Run once on the converted plan, before the rules.
 */
@Strict
public final class CheckedIntegerFunctions extends RelHomogeneousShuttle {

    private static final Map<SqlTypeName, Class<?>> JAVA_TYPES = Map.of(SqlTypeName.TINYINT, byte.class,
            SqlTypeName.SMALLINT, short.class, SqlTypeName.INTEGER, int.class, SqlTypeName.BIGINT, long.class);

    private static final Map<SqlTypeName, SqlOperator> ABS = operators("ABS", "abs");
    private static final Map<SqlTypeName, SqlOperator> ROUND = operators("ROUND", "round", int.class);

    private static Map<SqlTypeName, SqlOperator> operators(String name, String method, Class<?>... more) {
        Map<SqlTypeName, SqlOperator> operators = new EnumMap<>(SqlTypeName.class);
        JAVA_TYPES.forEach((type, javaType) -> {
            Class<?>[] parameters = new Class<?>[1 + more.length];
            parameters[0] = javaType;
            System.arraycopy(more, 0, parameters, 1, more.length);
            operators.put(type, CodeFunctions.operator(name, CheckedIntegerFunctions.class, method, parameters));
        });
        return Map.copyOf(operators);
    }

    private final RexShuttle calls;

    private CheckedIntegerFunctions(RexBuilder rexBuilder) {
        this.calls = new RexShuttle() {
            @Override
            public RexNode visitCall(RexCall call) {
                RexCall visited = (RexCall) super.visitCall(call);
                SqlOperator checked = checked(visited);
                return checked == null ? visited : rexBuilder.makeCall(visited.getParserPosition(),
                        visited.getType(), checked, visited.getOperands());
            }

            @Override
            public RexNode visitSubQuery(RexSubQuery subQuery) {
                RexSubQuery visited = (RexSubQuery) super.visitSubQuery(subQuery);
                RelNode rel = visited.rel.accept(CheckedIntegerFunctions.this);
                return rel == visited.rel ? visited : visited.clone(rel);
            }
        };
    }

    /** The checked operator {@code call} becomes, or null. ROUND to a whole number cannot overflow. */
    private static SqlOperator checked(RexCall call) {
        List<RexNode> operands = call.getOperands();
        SqlTypeName type = operands.isEmpty() ? null : operands.get(0).getType().getSqlTypeName();
        if (call.getOperator() == SqlStdOperatorTable.ABS && operands.size() == 1) {
            return ABS.get(type);
        }
        if (call.getOperator() == SqlStdOperatorTable.ROUND && operands.size() == 2
                && operands.get(1).getType().getSqlTypeName() == SqlTypeName.INTEGER) {
            return ROUND.get(type);
        }
        return null;
    }

    /** {@code rel} with every ABS and ROUND of an exact integer checked. */
    static RelNode apply(RelNode rel, RexBuilder rexBuilder) {
        return rel.accept(new CheckedIntegerFunctions(rexBuilder));
    }

    @Override
    public RelNode visit(RelNode other) {
        return super.visit(other).accept(calls);
    }

    /** ABS of a TINYINT; called by generated code. */
    public static byte abs(byte value) {
        return (byte) fit(Math.abs((long) value), Byte.MIN_VALUE, Byte.MAX_VALUE, "TINYINT");
    }

    /** ABS of a SMALLINT; called by generated code. */
    public static short abs(short value) {
        return (short) fit(Math.abs((long) value), Short.MIN_VALUE, Short.MAX_VALUE, "SMALLINT");
    }

    /** ABS of an INTEGER; called by generated code. */
    public static int abs(int value) {
        return (int) fit(Math.abs((long) value), Integer.MIN_VALUE, Integer.MAX_VALUE, "INTEGER");
    }

    /** ABS of a BIGINT; called by generated code. */
    public static long abs(long value) {
        if (value == Long.MIN_VALUE) {
            throw overflow(BigDecimal.valueOf(value).negate(), "BIGINT");
        }
        return Math.abs(value);
    }

    /** ROUND of a TINYINT to {@code places} decimal places (negative: tens, hundreds...); called by generated code. */
    public static byte round(byte value, int places) {
        return (byte) fit(rounded(value, places), Byte.MIN_VALUE, Byte.MAX_VALUE, "TINYINT");
    }

    /** ROUND of a SMALLINT; called by generated code. */
    public static short round(short value, int places) {
        return (short) fit(rounded(value, places), Short.MIN_VALUE, Short.MAX_VALUE, "SMALLINT");
    }

    /** ROUND of an INTEGER; called by generated code. */
    public static int round(int value, int places) {
        return (int) fit(rounded(value, places), Integer.MIN_VALUE, Integer.MAX_VALUE, "INTEGER");
    }

    /** ROUND of a BIGINT; called by generated code. */
    public static long round(long value, int places) {
        BigDecimal r = roundedExactly(value, places);
        if (r.compareTo(BigDecimal.valueOf(Long.MIN_VALUE)) < 0 || r.compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0) {
            throw overflow(r, "BIGINT");
        }
        return r.longValueExact();
    }

    /** Half up, as Calcite's ROUND; a non-negative {@code places} leaves a whole number as it is. */
    private static BigDecimal roundedExactly(long value, int places) {
        return places >= 0 ? BigDecimal.valueOf(value)
                : BigDecimal.valueOf(value).setScale(places, RoundingMode.HALF_UP).setScale(0);
    }

    /** As {@link #roundedExactly}, in a long (a rounded byte, short or int cannot leave it). */
    private static long rounded(long value, int places) {
        BigDecimal r = roundedExactly(value, places);
        return r.abs().compareTo(BigDecimal.valueOf(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE : r.longValueExact();
    }

    private static long fit(long value, long min, long max, String type) {
        if (value < min || value > max) {
            throw overflow(BigDecimal.valueOf(value), type);
        }
        return value;
    }

    private static ArithmeticException overflow(BigDecimal value, String type) {
        return new ArithmeticException("integer overflow: " + value.toPlainString() + " is out of range for "
                + type);
    }
}
