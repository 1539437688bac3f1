package io.kegdb.sql.calcite;

import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.KeyOperand;
import com.google.common.collect.BoundType;
import com.google.common.collect.Range;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexCall;
import org.apache.calcite.rex.RexDynamicParam;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexLiteral;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.type.SqlTypeFamily;
import org.apache.calcite.util.DateString;
import org.apache.calcite.util.NlsString;
import org.apache.calcite.util.TimestampString;
import org.apache.calcite.util.Sarg;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * Splits a filter on a key/value table into the key ranges a scan can read ({@code K = x}, {@code K IN},
 * ranges, Sargs, {@code LIKE 'p%'}), a value equality ({@code V = x}) the scan checks on stored bytes
 * before decoding a row, and the rest, which stays a filter. A conjunct is pushed only when the scan then
 * selects exactly the rows it accepts.
 */
final class KeyConditions {

    /** The pushed ranges (null: every key), value tests (null: none) and the conjuncts left over (null: none). */
    record Split(KeyPredicate predicate, ValueFilter values, RexNode residual) {
    }

    private final TableDef def;

    KeyConditions(TableDef def) {
        this.def = def;
    }

    /**
     * The key split ({@link #keySplit}) with, taken from what it leaves, every conjunct on the value that the
     * stored bytes decide ({@link #valueTest}); null if neither the key nor the value is constrained.
     */
    Split split(RexNode condition, RexBuilder rexBuilder) {
        Split keys = keySplit(condition, rexBuilder);
        RexNode rest = keys == null ? condition : keys.residual();
        KeyPredicate predicate = keys == null ? null : keys.predicate();
        if (rest == null) {
            return keys;
        }
        List<ValueFilter.Test> tests = new ArrayList<>();
        List<RexNode> left = new ArrayList<>();
        for (RexNode c : org.apache.calcite.plan.RelOptUtil.conjunctions(rest)) {
            ValueFilter.Test t = valueTest(c);
            if (t != null) {
                tests.add(t);
            } else {
                left.add(c);
            }
        }
        if (tests.isEmpty()) {
            return keys;
        }
        return new Split(predicate, new ValueFilter(List.copyOf(tests)), residual(left, rexBuilder));
    }

    /**
     * The test on stored values that accepts exactly the rows {@code node} (a conjunct of a filter) keeps, or
     * null: {@code V = x} where stored bytes decide equality; {@code V <> x}, {@code V < x}, ... where they
     * also decide order; a Sarg of such; {@code V IS [NOT] NULL}; {@code V LIKE pattern} on a VARCHAR.
     * x is a literal of the column's type or a parameter.
     */
    private ValueFilter.Test valueTest(RexNode node) {
        ColumnType type = def.valueType();
        boolean equality = def.valueBytesDecideEquality();
        boolean order = type.valuesCompareStored();
        SqlKind kind = node.getKind();
        if (kind == SqlKind.IS_NULL || kind == SqlKind.IS_NOT_NULL) {
            if (!isValue(((RexCall) node).operands.get(0))) {
                return null;
            }
            return kind == SqlKind.IS_NULL ? new ValueFilter.Test(List.of(), true)
                    : new ValueFilter.Test(List.of(new KeyRange(null, false, null, false)), false);
        }
        if (kind == SqlKind.SEARCH) {
            return valueSarg((RexCall) node, equality, order);
        }
        if (kind == SqlKind.LIKE) {
            RexCall like = (RexCall) node;
            if (like.getOperator() != org.apache.calcite.sql.fun.SqlStdOperatorTable.LIKE || type != ColumnType.VARCHAR
                    || like.operands.size() != 2 || !isValue(like.operands.get(0))) {
                return null;
            }
            KeyOperand pattern = operand(like.operands.get(1), ColumnType.VARCHAR);
            return pattern == null ? null : new ValueFilter.Test(List.of(ValueFilter.like(pattern)), false);
        }
        if (kind != SqlKind.EQUALS && kind != SqlKind.NOT_EQUALS && kind != SqlKind.LESS_THAN
                && kind != SqlKind.LESS_THAN_OR_EQUAL && kind != SqlKind.GREATER_THAN
                && kind != SqlKind.GREATER_THAN_OR_EQUAL) {
            return null;
        }
        RexCall call = (RexCall) node;
        RexNode a = call.operands.get(0);
        RexNode b = call.operands.get(1);
        if (!isValue(a)) {
            if (!isValue(b)) {
                return null;
            }
            kind = kind.reverse();
            b = a;
        }
        KeyOperand x = operand(b, type);
        if (x == null || !(kind == SqlKind.EQUALS ? equality : order)) {
            return null;
        }
        List<KeyRange> ranges = switch (kind) {
            case EQUALS -> List.of(KeyRange.point(x));
            case NOT_EQUALS -> List.of(new KeyRange(null, false, x, false), new KeyRange(x, false, null, false));
            case LESS_THAN -> List.of(new KeyRange(null, false, x, false));
            case LESS_THAN_OR_EQUAL -> List.of(new KeyRange(null, false, x, true));
            case GREATER_THAN -> List.of(new KeyRange(x, false, null, false));
            default -> List.of(new KeyRange(x, true, null, false));
        };
        return new ValueFilter.Test(ranges, false);
    }

    /** A Sarg on the value as a test: its points and intervals, NULL passing as the Sarg says. */
    private ValueFilter.Test valueSarg(RexCall call, boolean equality, boolean order) {
        if (!isValue(call.operands.get(0)) || !(call.operands.get(1) instanceof RexLiteral lit)) {
            return null;
        }
        Sarg<?> sarg = lit.getValueAs(Sarg.class);
        List<KeyRange> ranges = sarg == null ? null : sargRanges(sarg, def.valueType(), equality, order);
        return ranges == null ? null : new ValueFilter.Test(ranges, sarg.nullAs == org.apache.calcite.rex.RexUnknownAs.TRUE);
    }

    /**
     * A Sarg's points and intervals over a column of {@code type}; null if an endpoint does not convert, or a
     * point is met where {@code equality} is false, or an interval where {@code order} is false.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static List<KeyRange> sargRanges(Sarg<?> sarg, ColumnType type, boolean equality, boolean order) {
        List<KeyRange> out = new ArrayList<>();
        for (Object o : sarg.rangeSet.asRanges()) {
            Range r = (Range) o;
            KeyOperand lo = null;
            KeyOperand hi = null;
            if (r.hasLowerBound()) {
                Object v = internal(r.lowerEndpoint(), type);
                if (v == null) {
                    return null;
                }
                lo = KeyOperand.literal(v);
            }
            if (r.hasUpperBound()) {
                Object v = internal(r.upperEndpoint(), type);
                if (v == null) {
                    return null;
                }
                hi = KeyOperand.literal(v);
            }
            boolean loInc = r.hasLowerBound() && r.lowerBoundType() == BoundType.CLOSED;
            boolean hiInc = r.hasUpperBound() && r.upperBoundType() == BoundType.CLOSED;
            if (lo != null && hi != null && loInc && hiInc && lo.literal().equals(hi.literal())) {
                if (!equality) {
                    return null;
                }
                out.add(KeyRange.point(lo));
            } else {
                if (!order) {
                    return null;
                }
                out.add(new KeyRange(lo, loInc, hi, hiInc));
            }
        }
        return out;
    }

    /**
     * Picks, in this order: a conjunct selecting points (=, IN, OR of =); one lower and one upper comparison;
     * a Sarg or {@code LIKE 'p%'}; the literal prefix of any other LIKE on the key (keeping it as a filter).
     * Null if no conjunct constrains the key.
     */
    private Split keySplit(RexNode condition, RexBuilder rexBuilder) {
        List<RexNode> conjuncts = org.apache.calcite.plan.RelOptUtil.conjunctions(condition);
        Split s = exactConjunct(conjuncts, true, rexBuilder);
        if (s == null) {
            s = comparisons(conjuncts, rexBuilder);
        }
        if (s == null) {
            s = exactConjunct(conjuncts, false, rexBuilder);
        }
        if (s == null) {
            for (RexNode c : conjuncts) {
                String prefix = likePrefix(c);
                if (prefix != null) {
                    return new Split(new KeyPredicate(List.of(KeyRange.startingWith(KeyOperand.literal(prefix)))),
                            null, condition);
                }
                KeyOperand pattern = likeParameter(c);
                if (pattern != null) {
                    // The pattern is known only when the statement runs: its literal start is the scanned
                    // prefix then, and the LIKE itself stays as a filter.
                    return new Split(new KeyPredicate(List.of(KeyRange.startingWithLiteralStartOf(pattern))),
                            null, condition);
                }
            }
        }
        return s;
    }

    /** The parameter of {@code K LIKE ?} on a VARCHAR key (no ESCAPE clause), or null. */
    private KeyOperand likeParameter(RexNode node) {
        if (node.getKind() != SqlKind.LIKE || def.keyType() != ColumnType.VARCHAR) {
            return null;
        }
        RexCall like = (RexCall) node;
        if (like.operands.size() != 2 || !isKey(like.operands.get(0))) {
            return null;
        }
        KeyOperand op = operand(like.operands.get(1));
        return op != null && op.param() >= 0 ? op : null;
    }

    /** The first conjunct whose ranges select exactly its rows (only point sets if {@code pointsOnly}). */
    private Split exactConjunct(List<RexNode> conjuncts, boolean pointsOnly, RexBuilder rexBuilder) {
        for (int i = 0; i < conjuncts.size(); i++) {
            List<KeyRange> r = ranges(conjuncts.get(i));
            if (r != null && (!pointsOnly || r.stream().allMatch(KeyRange::isPoint))) {
                List<RexNode> rest = new ArrayList<>(conjuncts);
                rest.remove(i);
                return new Split(new KeyPredicate(r), null, residual(rest, rexBuilder));
            }
        }
        return null;
    }

    /** One range from the first lower and the first upper comparison of the key; null if there is neither. */
    private Split comparisons(List<RexNode> conjuncts, RexBuilder rexBuilder) {
        Bound lo = null;
        Bound hi = null;
        List<RexNode> rest = new ArrayList<>();
        for (RexNode c : conjuncts) {
            Bound b = comparison(c);
            if (b != null && b.lower && lo == null) {
                lo = b;
            } else if (b != null && !b.lower && hi == null) {
                hi = b;
            } else {
                rest.add(c);
            }
        }
        if (lo == null && hi == null) {
            return null;
        }
        KeyRange range = new KeyRange(lo == null ? null : lo.operand, lo != null && lo.inclusive,
                hi == null ? null : hi.operand, hi != null && hi.inclusive);
        return new Split(new KeyPredicate(List.of(range)), null, residual(rest, rexBuilder));
    }

    private static RexNode residual(List<RexNode> rest, RexBuilder rexBuilder) {
        return rest.isEmpty() ? null : RexUtil.composeConjunction(rexBuilder, rest);
    }

    /** The literal text before the first wildcard of {@code K LIKE 'pattern'}, or null if there is none. */
    private String likePrefix(RexNode node) {
        String pattern = node.getKind() == SqlKind.LIKE ? keyLikePattern((RexCall) node) : null;
        if (pattern == null || pattern.indexOf('\\') >= 0) {
            return null;
        }
        String start = KeyRange.literalStart(pattern);
        return start.isEmpty() ? null : start;
    }

    private record Bound(KeyOperand operand, boolean lower, boolean inclusive) {
    }

    /** {@code K op x} or {@code x op K} for op one of {@code < <= > >=}. */
    private Bound comparison(RexNode node) {
        SqlKind kind = node.getKind();
        if (kind != SqlKind.LESS_THAN && kind != SqlKind.LESS_THAN_OR_EQUAL && kind != SqlKind.GREATER_THAN
                && kind != SqlKind.GREATER_THAN_OR_EQUAL) {
            return null;
        }
        RexCall call = (RexCall) node;
        RexNode a = call.operands.get(0);
        RexNode b = call.operands.get(1);
        if (!isKey(a)) {
            if (!isKey(b)) {
                return null;
            }
            kind = kind.reverse();
            b = a;
        }
        KeyOperand op = operand(b);
        if (op == null) {
            return null;
        }
        return switch (kind) {
            case GREATER_THAN -> new Bound(op, true, false);
            case GREATER_THAN_OR_EQUAL -> new Bound(op, true, true);
            case LESS_THAN -> new Bound(op, false, false);
            default -> new Bound(op, false, true);
        };
    }

    /** Ranges selecting exactly the rows {@code node} accepts, or null. */
    List<KeyRange> ranges(RexNode node) {
        switch (node.getKind()) {
            case EQUALS: {
                RexCall call = (RexCall) node;
                RexNode a = call.operands.get(0);
                RexNode b = call.operands.get(1);
                KeyOperand op = isKey(a) ? operand(b) : isKey(b) ? operand(a) : null;
                return op == null ? null : List.of(KeyRange.point(op));
            }
            case OR: {
                List<KeyRange> out = new ArrayList<>();
                for (RexNode d : ((RexCall) node).operands) {
                    List<KeyRange> r = ranges(d);
                    if (r == null || !r.stream().allMatch(KeyRange::isPoint)) {
                        return null;
                    }
                    out.addAll(r);
                }
                return out;
            }
            case SEARCH:
                return sarg((RexCall) node);
            case LIKE:
                return like((RexCall) node);
            default:
                return null;
        }
    }

    private List<KeyRange> sarg(RexCall call) {
        if (!isKey(call.operands.get(0)) || !(call.operands.get(1) instanceof RexLiteral lit)) {
            return null;
        }
        Sarg<?> sarg = lit.getValueAs(Sarg.class);
        return sarg == null ? null : sargRanges(sarg, def.keyType(), true, true);
    }

    private List<KeyRange> like(RexCall call) {
        String pattern = keyLikePattern(call);
        if (pattern == null || !pattern.endsWith("%")) {
            return null;
        }
        String prefix = pattern.substring(0, pattern.length() - 1);
        if (prefix.indexOf('%') >= 0 || prefix.indexOf('_') >= 0 || prefix.indexOf('\\') >= 0) {
            return null;
        }
        return List.of(KeyRange.startingWith(KeyOperand.literal(prefix)));
    }

    /** The pattern of {@code K LIKE 'pattern'} on a VARCHAR key (no ESCAPE clause), or null. */
    private String keyLikePattern(RexCall like) {
        if (def.keyType() != ColumnType.VARCHAR || like.operands.size() != 2 || !isKey(like.operands.get(0))
                || !(like.operands.get(1) instanceof RexLiteral lit)) {
            return null;
        }
        return lit.getValueAs(String.class);
    }

    private static boolean isKey(RexNode node) {
        return node instanceof RexInputRef ref && ref.getIndex() == 0;
    }

    private static boolean isValue(RexNode node) {
        return node instanceof RexInputRef ref && ref.getIndex() == 1;
    }

    /** A literal or parameter usable as a key bound, or null. */
    private KeyOperand operand(RexNode node) {
        return operand(node, def.keyType());
    }

    /** A literal or parameter usable as an operand on a column of {@code type}, or null. */
    private KeyOperand operand(RexNode node, ColumnType type) {
        if (node instanceof RexDynamicParam p) {
            return KeyOperand.param(p.getIndex());
        }
        if (node.getKind() == SqlKind.CAST && ((RexCall) node).operands.get(0) instanceof RexDynamicParam p) {
            return KeyOperand.param(p.getIndex());
        }
        if (node instanceof RexLiteral lit && !lit.isNull()) {
            SqlTypeFamily family = lit.getType().getSqlTypeName().getFamily();
            Object value = switch (type) {
                case VARCHAR -> family == SqlTypeFamily.CHARACTER ? lit.getValueAs(String.class) : null;
                case VARBINARY -> family == SqlTypeFamily.BINARY ? lit.getValueAs(ByteString.class) : null;
                case BIGINT, INTEGER, DOUBLE, DECIMAL ->
                        family == SqlTypeFamily.NUMERIC ? internal(lit.getValueAs(BigDecimal.class), type) : null;
                case BOOLEAN -> family == SqlTypeFamily.BOOLEAN ? lit.getValueAs(Boolean.class) : null;
                case DATE -> family == SqlTypeFamily.DATE ? lit.getValueAs(Integer.class) : null;
                case TIMESTAMP -> family == SqlTypeFamily.TIMESTAMP ? lit.getValueAs(Long.class) : null;
            };
            return value == null ? null : KeyOperand.literal(value);
        }
        return null;
    }

    /**
     * A Sarg endpoint or literal value in internal form, or null if it is not exactly a value of the column's
     * type (a fractional or too large number for an integer key). A DECIMAL finer than the key's scale is
     * kept: {@link KeyPredicate} rounds it into the range.
     */
    private static Object internal(Object endpoint, ColumnType type) {
        return switch (type) {
            case VARCHAR -> endpoint instanceof NlsString s ? s.getValue() : null;
            case VARBINARY -> endpoint instanceof ByteString b ? b : null;
            case BIGINT -> endpoint instanceof BigDecimal d ? exact(d, Long.MIN_VALUE, Long.MAX_VALUE) : null;
            case INTEGER -> {
                Long l = endpoint instanceof BigDecimal d ? exact(d, Integer.MIN_VALUE, Integer.MAX_VALUE) : null;
                yield l == null ? null : (Object) l.intValue();
            }
            case DOUBLE -> endpoint instanceof Number n ? (Object) n.doubleValue() : null;
            case DECIMAL -> endpoint instanceof BigDecimal d ? d : null;
            case BOOLEAN -> endpoint instanceof Boolean b ? b : null;
            case DATE -> endpoint instanceof DateString d ? (Object) d.getDaysSinceEpoch() : null;
            case TIMESTAMP -> endpoint instanceof TimestampString t ? (Object) t.getMillisSinceEpoch() : null;
        };
    }

    private static Long exact(BigDecimal d, long min, long max) {
        if (d == null) {
            return null;
        }
        try {
            long l = d.longValueExact();
            return l < min || l > max ? null : l;
        } catch (ArithmeticException e) {
            return null;
        }
    }
}
