package io.kegdb.sql.calcite;

import org.apache.calcite.adapter.enumerable.AggAddContext;
import org.apache.calcite.adapter.enumerable.AggContext;
import org.apache.calcite.adapter.enumerable.AggImplementor;
import org.apache.calcite.adapter.enumerable.AggResetContext;
import org.apache.calcite.adapter.enumerable.AggResultContext;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.StrictAggImplementor;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.FunctionParameter;
import org.apache.calcite.schema.ImplementableAggFunction;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlCallBinding;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlOperandCountRange;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlOperandMetadata;
import org.apache.calcite.sql.type.SqlTypeTransforms;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;

import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Set;

/**
 * VAR_POP, VAR_SAMP, STDDEV_POP and STDDEV_SAMP (VARIANCE and STDDEV are the sample ones), computed without
 * losing the spread of values far from zero. Calcite rewrites them into {@code (SUM(x * x) - SUM(x) * SUM(x) /
 * COUNT(x)) / COUNT(x)} (its {@code AggregateReduceFunctionsRule}, and its convertlets over a window), which
 * cancels: the variance of 1000000001, 1000000002, 1000000003 was 0.0 for INTEGER and DOUBLE alike, and the
 * squares of BIGINTs overflowed. These functions take the standard names in the operator table
 * ({@link FunctionLibrary}), so no rule or convertlet sees a variance to rewrite, and compute:
 * <ul>
 * <li>for an exact argument (integer types, DECIMAL): the count, sum and sum of squares as exact BigDecimals, so
 * {@code (n * SUM(x * x) - SUM(x)^2) / (n * (n - 1))} is exact and rounded once, to 34 digits, then to a
 * double (a standard deviation is the 34-digit root of that);</li>
 * <li>for an approximate argument (DOUBLE, REAL): Welford's running mean and sum of squared deviations from
 * it, whose error does not grow with the values' distance from zero (as H2 computes them). A spread whose
 * square overflows a double is Infinity; an infinite or NaN value makes the result NaN.</li>
 * </ul>
 * The result is DOUBLE for every argument type, as in H2, and NULL where there is no value (no row, or one for
 * the sample statistics). NULL arguments are skipped. They work in plain and grouped aggregates and in windows.
 */
public final class Variances {

    /** The standard operators these functions stand in for, hidden from the operator table. */
    static final Set<SqlOperator> REPLACED = Set.of(SqlStdOperatorTable.VAR_POP, SqlStdOperatorTable.VAR_SAMP,
            SqlStdOperatorTable.VARIANCE, SqlStdOperatorTable.STDDEV_POP, SqlStdOperatorTable.STDDEV_SAMP,
            SqlStdOperatorTable.STDDEV);

    /** The functions, one per spelling. */
    static final List<SqlAggFunction> FUNCTIONS = List.of(new Function("VAR_POP", false, false),
            new Function("VAR_SAMP", true, false), new Function("VARIANCE", true, false),
            new Function("STDDEV_POP", false, true), new Function("STDDEV_SAMP", true, true),
            new Function("STDDEV", true, true));

    private Variances() {
    }

    /** One statistic: of a sample (divided by n - 1) or of the population (by n); its square root or not. */
    private static final class Function extends SqlUserDefinedAggFunction {
        Function(String name, boolean sample, boolean root) {
            super(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
                    ReturnTypes.DOUBLE.andThen(SqlTypeTransforms.FORCE_NULLABLE), InferTypes.FIRST_KNOWN,
                    NumericArgument.INSTANCE, new Implementation(sample, root), false, false, Optionality.FORBIDDEN);
        }
    }

    /**
     * One argument of any numeric type, kept as it is. Not "fixed parameters" (the declared types of a function
     * of the schema): the validator would then cast the argument to one declared type, a BIGINT to DOUBLE.
     */
    private static final class NumericArgument implements SqlOperandMetadata {
        static final NumericArgument INSTANCE = new NumericArgument();

        @Override
        public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
            return OperandTypes.NUMERIC.checkOperandTypes(callBinding, throwOnFailure);
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return OperandTypes.NUMERIC.getOperandCountRange();
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return OperandTypes.NUMERIC.getAllowedSignatures(op, opName);
        }

        @Override
        public List<RelDataType> paramTypes(RelDataTypeFactory typeFactory) {
            throw new UnsupportedOperationException("any numeric type: no declared parameter type");
        }

        @Override
        public List<String> paramNames() {
            return List.of("value");
        }
    }

    /** What the generated code asks of a function: its implementor (it is typed by its return type inference). */
    private record Implementation(boolean sample, boolean root) implements ImplementableAggFunction {
        @Override
        public AggImplementor getImplementor(boolean windowContext) {
            return new Accumulation(sample, root);
        }

        @Override
        public List<FunctionParameter> getParameters() {
            throw new UnsupportedOperationException("resolved through the operator table, never by parameters");
        }

        @Override
        public RelDataType getReturnType(RelDataTypeFactory typeFactory) {
            throw new UnsupportedOperationException("typed by the function's return type inference");
        }
    }

    /**
     * Three states: the count of values, then for an exact argument their sum and sum of squares (BigDecimal),
     * for an approximate one Welford's mean and sum of squared deviations (double). Null arguments are skipped
     * and no value at all gives NULL by Calcite's {@link StrictAggImplementor}.
     */
    private static final class Accumulation extends StrictAggImplementor {
        private final boolean sample;
        private final boolean root;

        Accumulation(boolean sample, boolean root) {
            this.sample = sample;
            this.root = root;
        }

        @Override
        public List<Type> getNotNullState(AggContext info) {
            Class<?> moments = approximate(info) ? double.class : BigDecimal.class;
            return List.<Type>of(long.class, moments, moments);
        }

        @Override
        protected void implementNotNullReset(AggContext info, AggResetContext reset) {
            super.implementNotNullReset(info, reset);
            if (!approximate(info)) {
                for (Expression moment : reset.accumulator().subList(1, 3)) {
                    reset.currentBlock().add(Expressions.statement(Expressions.assign(moment,
                            Expressions.field(null, BigDecimal.class, "ZERO"))));
                }
            }
        }

        @Override
        protected void implementNotNullAdd(AggContext info, AggAddContext add) {
            Expression count = add.accumulator().get(0);
            Expression first = add.accumulator().get(1);
            Expression second = add.accumulator().get(2);
            RelDataType type = info.parameterRelTypes().get(0);
            add.currentBlock().add(Expressions.statement(Expressions.assign(count,
                    Expressions.add(count, Expressions.constant(1L)))));
            if (approximate(info)) {
                Expression value = EnumUtils.convert(add.arguments().get(0), double.class);
                // The sum of squared deviations first: it needs the mean before this value.
                add.currentBlock().add(Expressions.statement(Expressions.assign(second,
                        Expressions.call(Variances.class, "deviations", second, first, value, count))));
                add.currentBlock().add(Expressions.statement(Expressions.assign(first,
                        Expressions.call(Variances.class, "mean", first, value, count))));
            } else {
                Expression value = EnumUtils.convert(add.arguments().get(0),
                        SqlTypeUtil.isIntType(type) ? long.class : BigDecimal.class);
                add.currentBlock().add(Expressions.statement(Expressions.assign(first,
                        Expressions.call(Variances.class, "plus", first, value))));
                add.currentBlock().add(Expressions.statement(Expressions.assign(second,
                        Expressions.call(Variances.class, "plusSquare", second, value))));
            }
        }

        @Override
        protected Expression implementNotNullResult(AggContext info, AggResultContext result) {
            List<Expression> acc = result.accumulator();
            return Expressions.call(Variances.class, approximate(info) ? "ofDeviations" : "ofSums", acc.get(0),
                    acc.get(1), acc.get(2), Expressions.constant(sample), Expressions.constant(root));
        }

        private static boolean approximate(AggContext info) {
            return SqlTypeUtil.isApproximateNumeric(info.parameterRelTypes().get(0));
        }
    }

    /** Welford's mean after its {@code count}th value {@code value}. */
    public static double mean(double mean, double value, long count) {
        if (count == 1) {
            return value;
        }
        double delta = value - mean;
        // Finite values farther apart than the largest double: their deviation overflows, their mean does not
        // (an infinite mean made the sum of squared deviations -Infinity, then NaN).
        return Double.isInfinite(delta) && Double.isFinite(value) && Double.isFinite(mean)
                ? mean + (value / count - mean / count) : mean + delta / count;
    }

    /** Welford's sum of squared deviations after the {@code count}th value, from the mean before it. */
    public static double deviations(double deviations, double mean, double value, long count) {
        return count == 1 ? 0.0 : deviations + (value - mean) * (value - mean(mean, value, count));
    }

    public static BigDecimal plus(BigDecimal sum, long value) {
        return sum.add(BigDecimal.valueOf(value));
    }

    public static BigDecimal plus(BigDecimal sum, BigDecimal value) {
        return sum.add(value);
    }

    public static BigDecimal plusSquare(BigDecimal squares, long value) {
        BigDecimal v = BigDecimal.valueOf(value);
        return squares.add(v.multiply(v));
    }

    public static BigDecimal plusSquare(BigDecimal squares, BigDecimal value) {
        return squares.add(value.multiply(value));
    }

    /** The statistic of {@code count} exact values from their sum and sum of squares; null for too few. */
    public static Double ofSums(long count, BigDecimal sum, BigDecimal squares, boolean sample, boolean root) {
        long divisor = sample ? count - 1 : count;
        if (divisor <= 0) {
            return null;
        }
        BigDecimal n = BigDecimal.valueOf(count);
        // n * SUM(x * x) - SUM(x)^2 is n^2 times the population variance, never negative (and exact here).
        BigDecimal spread = squares.multiply(n).subtract(sum.multiply(sum));
        BigDecimal variance = spread.divide(n.multiply(BigDecimal.valueOf(divisor)), MathContext.DECIMAL128);
        return (root ? variance.sqrt(MathContext.DECIMAL128) : variance).doubleValue();
    }

    /** The statistic of {@code count} approximate values from Welford's sum of squared deviations; null for too few. */
    public static Double ofDeviations(long count, double mean, double deviations, boolean sample, boolean root) {
        long divisor = sample ? count - 1 : count;
        if (divisor <= 0) {
            return null;
        }
        double variance = deviations / divisor;
        return root ? Math.sqrt(variance) : variance;
    }
}
