package io.kegdb.sql.calcite;

import org.apache.calcite.adapter.enumerable.AggAddContext;
import org.apache.calcite.adapter.enumerable.AggContext;
import org.apache.calcite.adapter.enumerable.AggResetContext;
import org.apache.calcite.adapter.enumerable.AggResultContext;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.StrictAggImplementor;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
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
import org.apache.calcite.sql.type.SqlOperandTypeChecker;
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
 * VAR_POP, VAR_SAMP, STDDEV_POP and STDDEV_SAMP (VARIANCE and STDDEV are the sample ones), and their two-argument
 * siblings COVAR_POP, COVAR_SAMP, REGR_SXX and REGR_SYY, computed without losing the spread of values far from
 * zero. Calcite rewrites each into sums, such as {@code (SUM(x * x) - SUM(x) * SUM(x) / COUNT(x)) / COUNT(x)}
 * (its {@code AggregateReduceFunctionsRule}, and its convertlets over a window), which cancel: the variance of
 * 1000000001, 1000000002, 1000000003 was 0.0 for INTEGER and DOUBLE alike, and the products of BIGINTs or of
 * INTEGERs near 10^9 overflowed (22003). These functions take the standard names in the operator table
 * ({@link FunctionLibrary}), so no rule or convertlet sees one to rewrite. Each is a co-moment of two of its
 * arguments (a variance is the co-moment of a value with itself; REGR_SXX(y, x) that of x, REGR_SYY of y, over
 * the rows where both are not NULL), divided by n, n - 1 or nothing, and its square root or not, computed:
 * <ul>
 * <li>for exact arguments (integer types, DECIMAL): from the count, the sums and the sum of products as exact
 * BigDecimals, so {@code (n * SUM(x * y) - SUM(x) * SUM(y)) / (n * (n - 1))} is exact and rounded once, to 34
 * digits, then to a double (a standard deviation is the 34-digit root of that);</li>
 * <li>for an approximate argument (DOUBLE, REAL): with Welford's running means and co-moment, whose error does
 * not grow with the values' distance from zero (as H2 computes them). A spread whose square overflows a double
 * is Infinity; an infinite or NaN value makes the result NaN.</li>
 * </ul>
 * The result is DOUBLE for every argument type, as in H2, and NULL where there is no value (no row, or one for
 * the sample statistics). Rows with a NULL argument are skipped. They work in plain and grouped aggregates and in
 * windows.
 */
public final class Variances {

    /** The standard operators these functions stand in for, hidden from the operator table. */
    static final Set<SqlOperator> REPLACED = Set.of(SqlStdOperatorTable.VAR_POP, SqlStdOperatorTable.VAR_SAMP,
            SqlStdOperatorTable.VARIANCE, SqlStdOperatorTable.STDDEV_POP, SqlStdOperatorTable.STDDEV_SAMP,
            SqlStdOperatorTable.STDDEV, SqlStdOperatorTable.COVAR_POP, SqlStdOperatorTable.COVAR_SAMP,
            SqlStdOperatorTable.REGR_SXX, SqlStdOperatorTable.REGR_SYY);

    /** The functions, one per spelling. */
    static final List<SqlAggFunction> FUNCTIONS = List.of(
            new Function("VAR_POP", Statistic.variance(Divisor.COUNT, false)),
            new Function("VAR_SAMP", Statistic.variance(Divisor.COUNT_LESS_ONE, false)),
            new Function("VARIANCE", Statistic.variance(Divisor.COUNT_LESS_ONE, false)),
            new Function("STDDEV_POP", Statistic.variance(Divisor.COUNT, true)),
            new Function("STDDEV_SAMP", Statistic.variance(Divisor.COUNT_LESS_ONE, true)),
            new Function("STDDEV", Statistic.variance(Divisor.COUNT_LESS_ONE, true)),
            new Function("COVAR_POP", new Statistic(2, 0, 1, Divisor.COUNT, false)),
            new Function("COVAR_SAMP", new Statistic(2, 0, 1, Divisor.COUNT_LESS_ONE, false)),
            new Function("REGR_SXX", new Statistic(2, 1, 1, Divisor.ONE, false)),
            new Function("REGR_SYY", new Statistic(2, 0, 0, Divisor.ONE, false)));

    private Variances() {
    }

    /** What the sum of products of deviations is divided by: the population's, a sample's, or none (a sum). */
    public enum Divisor {
        COUNT, COUNT_LESS_ONE, ONE;

        /** The divisor for {@code count} values; not positive where the statistic is NULL. */
        long of(long count) {
            return switch (this) {
                case COUNT -> count;
                case COUNT_LESS_ONE -> count - 1;
                case ONE -> 1;
            };
        }
    }

    /**
     * One statistic: of {@code arity} arguments, the co-moment of arguments {@code x} and {@code y} (the same
     * one for a variance) divided by {@code divisor}, and its square root if {@code root}.
     */
    record Statistic(int arity, int x, int y, Divisor divisor, boolean root) {
        static Statistic variance(Divisor divisor, boolean root) {
            return new Statistic(1, 0, 0, divisor, root);
        }

        boolean ofOneValue() {
            return x == y;
        }
    }

    private static final class Function extends SqlUserDefinedAggFunction {
        Function(String name, Statistic statistic) {
            super(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
                    ReturnTypes.DOUBLE.andThen(SqlTypeTransforms.FORCE_NULLABLE), InferTypes.FIRST_KNOWN,
                    new NumericArguments(statistic.arity() == 1 ? OperandTypes.NUMERIC : OperandTypes.NUMERIC_NUMERIC),
                    new ImplementorOnly(() -> new Accumulation(statistic)), false, false,
                    Optionality.FORBIDDEN);
        }
    }

    /**
     * Arguments of any numeric type, each kept as it is. Not "fixed parameters" (the declared types of a function
     * of the schema): the validator would then cast each argument to one declared type, a BIGINT to DOUBLE.
     */
    private record NumericArguments(SqlOperandTypeChecker checker) implements SqlOperandMetadata {
        @Override
        public boolean checkOperandTypes(SqlCallBinding callBinding, boolean throwOnFailure) {
            return checker.checkOperandTypes(callBinding, throwOnFailure);
        }

        @Override
        public SqlOperandCountRange getOperandCountRange() {
            return checker.getOperandCountRange();
        }

        @Override
        public String getAllowedSignatures(SqlOperator op, String opName) {
            return checker.getAllowedSignatures(op, opName);
        }

        @Override
        public List<RelDataType> paramTypes(RelDataTypeFactory typeFactory) {
            throw new UnsupportedOperationException("any numeric types: no declared parameter types");
        }

        @Override
        public List<String> paramNames() {
            return getOperandCountRange().getMax() == 1 ? List.of("value") : List.of("y", "x");
        }
    }

    /**
     * The count of rows, then for exact arguments the sums of x, of y (for two values) and of x * y
     * (BigDecimal), for an approximate one Welford's means of x and y (for two values) and co-moment (double).
     * Rows with a NULL argument are skipped and no row at all gives NULL by Calcite's {@link StrictAggImplementor}.
     */
    private static final class Accumulation extends StrictAggImplementor {
        private final Statistic statistic;

        Accumulation(Statistic statistic) {
            this.statistic = statistic;
        }

        @Override
        public List<Type> getNotNullState(AggContext info) {
            Class<?> moment = approximate(info) ? double.class : BigDecimal.class;
            return statistic.ofOneValue() ? List.<Type>of(long.class, moment, moment)
                    : List.<Type>of(long.class, moment, moment, moment);
        }

        @Override
        protected void implementNotNullReset(AggContext info, AggResetContext reset) {
            super.implementNotNullReset(info, reset);
            if (!approximate(info)) {
                List<Expression> acc = reset.accumulator();
                for (Expression moment : acc.subList(1, getStateSize())) {
                    reset.currentBlock().add(Expressions.statement(Expressions.assign(moment,
                            Expressions.field(null, BigDecimal.class, "ZERO"))));
                }
            }
        }

        @Override
        protected void implementNotNullAdd(AggContext info, AggAddContext add) {
            Moments m = new Moments(add.accumulator(), statistic.ofOneValue());
            add.currentBlock().add(Expressions.statement(Expressions.assign(m.count,
                    Expressions.add(m.count, Expressions.constant(1L)))));
            Class<?> type = approximate(info) ? double.class : integers(info) ? long.class : BigDecimal.class;
            Expression x = EnumUtils.convert(add.arguments().get(statistic.x()), type);
            Expression y = EnumUtils.convert(add.arguments().get(statistic.y()), type);
            if (type == double.class) {
                // The co-moment first: it needs the means before this row.
                assign(add, m.product, "comoment", m.product, m.x, m.y, x, y, m.count);
                assign(add, m.x, "mean", m.x, x, m.count);
                if (m.y != m.x) {
                    assign(add, m.y, "mean", m.y, y, m.count);
                }
            } else {
                assign(add, m.product, "plusProduct", m.product, x, y);
                assign(add, m.x, "plus", m.x, x);
                if (m.y != m.x) {
                    assign(add, m.y, "plus", m.y, y);
                }
            }
        }

        private static void assign(AggAddContext add, Expression state, String method, Expression... args) {
            add.currentBlock().add(Expressions.statement(Expressions.assign(state,
                    Expressions.call(Variances.class, method, args))));
        }

        @Override
        protected Expression implementNotNullResult(AggContext info, AggResultContext result) {
            Moments m = new Moments(result.accumulator(), statistic.ofOneValue());
            return Expressions.call(Variances.class, approximate(info) ? "ofComoment" : "ofSums", m.count, m.x, m.y,
                    m.product, Expressions.constant(statistic.divisor()), Expressions.constant(statistic.root()));
        }

        /** Whether any argument is approximate: then all are taken as doubles. */
        private static boolean approximate(AggContext info) {
            return info.parameterRelTypes().stream().anyMatch(SqlTypeUtil::isApproximateNumeric);
        }

        private static boolean integers(AggContext info) {
            return info.parameterRelTypes().stream().allMatch(SqlTypeUtil::isIntType);
        }
    }

    /** The states by their meaning: for one value, its sum (or mean) stands for both x's and y's. */
    private record Moments(Expression count, Expression x, Expression y, Expression product) {
        Moments(List<Expression> acc, boolean oneValue) {
            this(acc.get(0), acc.get(1), oneValue ? acc.get(1) : acc.get(2), acc.get(oneValue ? 2 : 3));
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

    /** Welford's co-moment after the {@code count}th pair, from the means before it. */
    public static double comoment(double comoment, double meanX, double meanY, double x, double y, long count) {
        return count == 1 ? 0.0 : comoment + (x - meanX) * (y - mean(meanY, y, count));
    }

    public static BigDecimal plus(BigDecimal sum, long value) {
        return sum.add(BigDecimal.valueOf(value));
    }

    public static BigDecimal plus(BigDecimal sum, BigDecimal value) {
        return sum.add(value);
    }

    public static BigDecimal plusProduct(BigDecimal sum, long x, long y) {
        return sum.add(BigDecimal.valueOf(x).multiply(BigDecimal.valueOf(y)));
    }

    public static BigDecimal plusProduct(BigDecimal sum, BigDecimal x, BigDecimal y) {
        return sum.add(x.multiply(y));
    }

    /** The statistic of {@code count} exact pairs from their sums and sum of products; null for too few. */
    public static Double ofSums(long count, BigDecimal sumX, BigDecimal sumY, BigDecimal products, Divisor divisor,
                                boolean root) {
        long d = divisor.of(count);
        if (d <= 0) {
            return null;
        }
        BigDecimal n = BigDecimal.valueOf(count);
        // n * SUM(x * y) - SUM(x) * SUM(y) is n^2 times the population covariance (for x = y never negative).
        BigDecimal comoment = products.multiply(n).subtract(sumX.multiply(sumY));
        BigDecimal value = comoment.divide(n.multiply(BigDecimal.valueOf(d)), MathContext.DECIMAL128);
        return (root ? value.sqrt(MathContext.DECIMAL128) : value).doubleValue();
    }

    /** The statistic of {@code count} approximate pairs from Welford's co-moment; null for too few. */
    public static Double ofComoment(long count, double meanX, double meanY, double comoment, Divisor divisor,
                                    boolean root) {
        long d = divisor.of(count);
        if (d <= 0) {
            return null;
        }
        double value = comoment / d;
        return root ? Math.sqrt(value) : value;
    }
}
