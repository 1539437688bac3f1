package io.kegdb.sql.calcite;

import org.apache.calcite.adapter.enumerable.AggAddContext;
import org.apache.calcite.adapter.enumerable.AggContext;
import org.apache.calcite.adapter.enumerable.AggResultContext;
import org.apache.calcite.adapter.enumerable.EnumUtils;
import org.apache.calcite.adapter.enumerable.EnumerableRel;
import org.apache.calcite.adapter.enumerable.EnumerableRules;
import org.apache.calcite.adapter.enumerable.EnumerableWindow;
import org.apache.calcite.adapter.enumerable.StrictAggImplementor;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.plan.Convention;
import org.apache.calcite.rel.RelHomogeneousShuttle;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.convert.ConverterRule;
import org.apache.calcite.rel.core.Aggregate;
import org.apache.calcite.rel.core.AggregateCall;
import org.apache.calcite.rel.core.Window;
import org.apache.calcite.rel.logical.LogicalWindow;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.sql.SqlAggFunction;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.fun.SqlStdOperatorTable;
import org.apache.calcite.sql.parser.SqlParserPos;
import org.apache.calcite.sql.type.InferTypes;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.type.SqlTypeUtil;
import org.apache.calcite.sql.validate.SqlUserDefinedAggFunction;
import org.apache.calcite.util.Optionality;

import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * SUM (and the $SUM0 Calcite makes of a SUM over a window, or of an AVG) of an approximate or an integer argument,
 * computed without losing what plain addition loses. Calcite's generated code adds each value into an accumulator
 * of the result's type: DOUBLEs added in the order they come cancel what lies between values of opposite huge
 * magnitudes ({@code AVG} of 1.0E15, 1.0E300, -1.0E300 was 0.0), and the BigDecimal sum of a BIGINT (DECIMAL(38,
 * 0), {@link KegTypeSystem}) cannot take a long at all. Here:
 * <ul>
 * <li>an approximate argument (DOUBLE, REAL) is added with Neumaier's compensation (a running sum and the error
 * each addition made, added back at the end), as SQLite does: the error of the result no longer grows with the
 * magnitudes between, so 1.0E15, 1.0E300, -1.0E300 sum to 1.0E15. A sum that is infinite or NaN is IEEE's;</li>
 * <li>an integer argument whose sum is a DECIMAL (of BIGINT) is added in a long, counting each time it wraps
 * past 2<sup>64</sup>: exact, and a BigDecimal made once at the end. An AVG of a BIGINT is that exact sum over
 * the count, so {@code AVG} of -9223372036854775808, 26, 9223372036854775807 is 8.333333333333334.</li>
 * </ul>
 * Run on the final plan: every aggregate and window of it, whichever rule made its SUM (AVG is reduced to SUM and
 * COUNT while optimizing), gets these implementations in place of Calcite's. Sums of DECIMALs (BigDecimal, exact)
 * and of integers into a BIGINT (a long cannot wrap before 2<sup>32</sup> rows of INTEGERs) stay Calcite's.
 */
public final class ExactSums extends RelHomogeneousShuttle {

    private static final SqlAggFunction SUM = new Function("SUM", SqlStdOperatorTable.SUM);
    private static final SqlAggFunction SUM0 = new Function("$SUM0", SqlStdOperatorTable.SUM0);
    private static final ConverterRule WINDOW_RULE = (ConverterRule) EnumerableRules.ENUMERABLE_WINDOW_RULE;

    private ExactSums() {
    }

    /** {@code rel} with the sums of its aggregates and windows computed exactly or compensated. */
    static RelNode apply(RelNode rel) {
        return rel.accept(new ExactSums());
    }

    @Override
    public RelNode visit(RelNode other) {
        RelNode rel = super.visit(other);
        if (rel instanceof Aggregate aggregate && rel instanceof EnumerableRel) {
            return rewrite(aggregate);
        }
        return rel instanceof EnumerableWindow window ? rewrite(window) : rel;
    }

    private static RelNode rewrite(Aggregate aggregate) {
        List<AggregateCall> calls = new ArrayList<>();
        boolean changed = false;
        for (AggregateCall call : aggregate.getAggCallList()) {
            List<RelDataType> args = call.getArgList().stream()
                    .map(i -> aggregate.getInput().getRowType().getFieldList().get(i).getType()).toList();
            SqlAggFunction exact = replacement(call.getAggregation(), args, call.getType());
            changed |= exact != null;
            calls.add(exact == null ? call : AggregateCall.create(call.getParserPosition(), exact, call.isDistinct(),
                    call.isApproximate(), call.ignoreNulls(), call.rexList, call.getArgList(), call.filterArg,
                    call.distinctKeys, call.collation, call.getType(), call.getName()));
        }
        return changed ? aggregate.copy(aggregate.getTraitSet(), aggregate.getInput(), aggregate.getGroupSet(),
                aggregate.getGroupSets(), calls) : aggregate;
    }

    /**
     * {@code window} with its sums replaced. Calcite's enumerable window cannot be built outside its package, so
     * the logical window of the new groups is converted by Calcite's own rule (its input is enumerable already).
     */
    private static RelNode rewrite(EnumerableWindow window) {
        List<Window.Group> groups = new ArrayList<>();
        boolean changed = false;
        for (Window.Group group : window.groups) {
            List<Window.RexWinAggCall> calls = new ArrayList<>();
            for (Window.RexWinAggCall call : group.aggCalls) {
                SqlAggFunction exact = replacement((SqlAggFunction) call.getOperator(),
                        call.getOperands().stream().map(o -> o.getType()).toList(), call.getType());
                changed |= exact != null;
                calls.add(exact == null ? call : new Window.RexWinAggCall(call.getParserPosition(), exact,
                        call.getType(), call.getOperands(), call.ordinal, call.distinct, call.ignoreNulls));
            }
            groups.add(new Window.Group(group.keys, group.isRows, group.lowerBound, group.upperBound, group.exclude,
                    group.orderKeys, calls));
        }
        if (!changed) {
            return window;
        }
        RelNode logical = LogicalWindow.create(window.getTraitSet().replace(Convention.NONE), window.getHints(),
                window.getInput(),
                window.getConstants(), window.getRowType(), groups);
        RelNode converted = WINDOW_RULE.convert(logical);
        if (converted == null) {
            throw new IllegalStateException("the window cannot be rebuilt: " + window);
        }
        return converted.copy(window.getTraitSet(), converted.getInputs());
    }

    /** The exact or compensated function in place of {@code function}, or null where Calcite's sum is kept. */
    private static SqlAggFunction replacement(SqlAggFunction function, List<RelDataType> args, RelDataType type) {
        SqlKind kind = function.getKind();
        if ((kind != SqlKind.SUM && kind != SqlKind.SUM0) || args.size() != 1) {
            return null;
        }
        RelDataType arg = args.get(0);
        boolean exact = SqlTypeUtil.isApproximateNumeric(arg)
                || SqlTypeUtil.isIntType(arg) && type.getSqlTypeName() == SqlTypeName.DECIMAL;
        return exact ? (kind == SqlKind.SUM ? SUM : SUM0) : null;
    }

    /** A SUM implemented by {@link Accumulation}, typed as the Calcite function it replaces. */
    private static final class Function extends SqlUserDefinedAggFunction {
        Function(String name, SqlAggFunction typedAs) {
            super(new SqlIdentifier(name, SqlParserPos.ZERO), SqlKind.OTHER_FUNCTION,
                    typedAs.getReturnTypeInference(), InferTypes.FIRST_KNOWN, null, new ImplementorOnly(Accumulation::new),
                    false, false, Optionality.FORBIDDEN);
        }
    }

    /**
     * Two primitive states per sum (so that a window may copy and reset them freely): an approximate argument's
     * running sum and compensation (doubles), an integer argument's wrapped sum and wrap count (longs). Null
     * arguments are skipped and an empty sum is NULL ($SUM0: 0) by Calcite's {@link StrictAggImplementor}.
     */
    private static final class Accumulation extends StrictAggImplementor {
        @Override
        public List<Type> getNotNullState(AggContext info) {
            Class<?> state = approximate(info) ? double.class : long.class;
            return List.<Type>of(state, state);
        }

        @Override
        protected void implementNotNullAdd(AggContext info, AggAddContext add) {
            Expression sum = add.accumulator().get(0);
            Expression error = add.accumulator().get(1);
            Expression value = EnumUtils.convert(add.arguments().get(0), sum.getType());
            add.currentBlock().add(Expressions.statement(Expressions.assign(error, Expressions.call(ExactSums.class,
                    approximate(info) ? "compensation" : "wraps", error, sum, value))));
            add.currentBlock().add(Expressions.statement(Expressions.assign(sum, Expressions.add(sum, value))));
        }

        @Override
        protected Expression implementNotNullResult(AggContext info, AggResultContext result) {
            return Expressions.call(ExactSums.class, approximate(info) ? "compensatedSum" : "exactSum",
                    result.accumulator().get(0), result.accumulator().get(1));
        }

        private static boolean approximate(AggContext info) {
            return SqlTypeUtil.isApproximateNumeric(info.parameterRelTypes().get(0));
        }
    }

    /** The compensation {@code error} after {@code value} is added to {@code sum} (Neumaier's). */
    public static double compensation(double error, double sum, double value) {
        double t = sum + value;
        return error + (Math.abs(sum) >= Math.abs(value) ? (sum - t) + value : (value - t) + sum);
    }

    /** A compensated sum's value; one that overflowed or met an infinity or NaN is the plain sum's. */
    public static double compensatedSum(double sum, double error) {
        return Double.isFinite(sum) ? sum + error : sum;
    }

    /** The wrap count {@code wraps} after {@code value} is added to the wrapped long {@code sum}. */
    public static long wraps(long wraps, long sum, long value) {
        long r = sum + value;
        if (((sum ^ r) & (value ^ r)) >= 0) {
            return wraps;
        }
        return value > 0 ? wraps + 1 : wraps - 1;
    }

    /** The exact sum of a wrapped long and its wrap count (each wrap is 2<sup>64</sup>). */
    public static BigDecimal exactSum(long sum, long wraps) {
        if (wraps == 0) {
            return BigDecimal.valueOf(sum);
        }
        return new BigDecimal(BigInteger.valueOf(wraps).shiftLeft(Long.SIZE).add(BigInteger.valueOf(sum)));
    }
}
