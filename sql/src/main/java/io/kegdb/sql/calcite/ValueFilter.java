package io.kegdb.sql.calcite;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.ExecutionContext;
import io.kegdb.sql.plan.KeyOperand;
import org.apache.calcite.runtime.SqlFunctions;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Conditions on the value column that a scan checks on each row's stored bytes before it decodes the row: a
 * conjunction of {@link Test}s, each a set of values (points, intervals, a text prefix) and whether NULL passes.
 * {@code V = x}, {@code V < x} (and the other comparisons), a Sarg ({@code BETWEEN}, {@code IN}, {@code <>}),
 * {@code IS [NOT] NULL} and {@code LIKE 'p%'} are such tests; {@link KeyConditions} picks them where the stored
 * bytes decide them exactly (see {@link ColumnType#valuesCompareStored}).
 */
record ValueFilter(List<Test> tests) {

    /**
     * Passes a non-NULL value inside one of {@code ranges} (a point or an interval, as for keys, or a LIKE
     * pattern: {@link #like}), and NULL when {@code nullPasses}.
     */
    record Test(List<KeyRange> ranges, boolean nullPasses) {
        @Override
        public String toString() {
            String values = ranges.stream().map(KeyRange::toString).collect(Collectors.joining(" or "));
            return nullPasses ? (ranges.isEmpty() ? "null" : values + " or null") : values;
        }
    }

    /** The values {@code V LIKE pattern} accepts, as a range of a {@link Test}. */
    static KeyRange like(KeyOperand pattern) {
        return new KeyRange(pattern, true, null, false, true, true);
    }

    /** Estimated share of rows the filter keeps, for costs: Calcite's default guesses per condition. */
    double selectivity() {
        double s = 1;
        for (Test t : tests) {
            boolean points = !t.ranges().isEmpty() && t.ranges().stream().allMatch(KeyRange::isPoint);
            s *= points ? 0.15 : t.ranges().isEmpty() ? 0.1 : 0.5;
        }
        return s;
    }

    @Override
    public String toString() {
        return tests.toString();
    }

    /**
     * The filter with its operands bound for one execution. An operand that no value equals or compares with
     * (NULL, a DECIMAL finer than the column's scale for a point) drops its range.
     */
    Resolved resolve(TableDef def, ExecutionContext ctx) throws SqlError {
        List<Resolved.Check> checks = new ArrayList<>(tests.size());
        for (Test t : tests) {
            List<Resolved.Span> spans = new ArrayList<>(t.ranges().size());
            for (KeyRange r : t.ranges()) {
                Resolved.Span span = span(r, def, ctx);
                if (span != null) {
                    spans.add(span);
                }
            }
            checks.add(new Resolved.Check(spans.toArray(new Resolved.Span[0]), t.nullPasses()));
        }
        return new Resolved(def, checks.toArray(new Resolved.Check[0]));
    }

    private static Resolved.Span span(KeyRange r, TableDef def, ExecutionContext ctx) throws SqlError {
        if (r.isPoint()) {
            byte[] v = def.searchValue(r.lo().value(ctx));
            return v == null ? null : new Resolved.Span(v, true, v, true, false);
        }
        if (r.pattern()) {
            Object p = r.lo().value(ctx);
            return p == null ? null : Resolved.Span.like(p.toString(), def);
        }
        byte[] lo = null;
        byte[] hi = null;
        if (r.lo() != null && (lo = bound(r.lo(), def, ctx)) == null) {
            return null;
        }
        if (r.hi() != null && (hi = bound(r.hi(), def, ctx)) == null) {
            return null;
        }
        return new Resolved.Span(lo, r.loInclusive(), hi, r.hiInclusive(), false);
    }

    /** The stored form of a comparison's operand, or null for NULL (which compares with nothing). */
    private static byte[] bound(KeyOperand op, TableDef def, ExecutionContext ctx) throws SqlError {
        Object v = def.valueType().coerce(op.value(ctx), def.valueColumn());
        return v == null ? null : def.encodeValue(v);
    }

    /** A {@link ValueFilter} bound for one execution: {@link #test} decides a row from its stored value. */
    static final class Resolved {
        /**
         * One value set: stored bounds ({@code lo == hi}: a point, compared by bytes), a stored prefix in lo
         * ({@code prefix}), or a LIKE pattern that is neither ({@code pattern}: the decoded text is matched).
         */
        record Span(byte[] lo, boolean loInclusive, byte[] hi, boolean hiInclusive, boolean prefix, String pattern) {
            Span(byte[] lo, boolean loInclusive, byte[] hi, boolean hiInclusive, boolean prefix) {
                this(lo, loInclusive, hi, hiInclusive, prefix, null);
            }

            /**
             * The values {@code LIKE pattern} (no ESCAPE clause) accepts: without wildcards or backslashes one
             * stored text, {@code 'p%'} (one or more trailing %) the stored texts starting with p, else the pattern.
             */
            static Span like(String pattern, TableDef def) {
                int end = pattern.length();
                while (end > 0 && pattern.charAt(end - 1) == '%') {
                    end--;
                }
                String start = pattern.substring(0, end);
                if (start.indexOf('%') >= 0 || start.indexOf('_') >= 0 || start.indexOf('\\') >= 0) {
                    return new Span(null, false, null, false, false, pattern);
                }
                byte[] stored = def.encodeValue(start);
                return end == pattern.length() ? new Span(stored, true, stored, true, false)
                        : new Span(stored, true, null, false, true);
            }
        }

        record Check(Span[] spans, boolean nullPasses) {
        }

        /** Calcite's own LIKE, so a pattern matches here exactly as in a filter it evaluates. */
        private static final SqlFunctions.LikeFunction LIKE = new SqlFunctions.LikeFunction();

        private final TableDef def;
        private final ColumnType type;
        private final Check[] checks;

        private Resolved(TableDef def, Check[] checks) {
            this.def = def;
            this.type = def.valueType();
            this.checks = checks;
        }

        /** True if no row can pass (a test left with no value and no NULL): the scan reads nothing. */
        boolean passesNothing() {
            for (Check c : checks) {
                if (c.spans().length == 0 && !c.nullPasses()) {
                    return true;
                }
            }
            return false;
        }

        /** Whether a row whose stored value is {@code stored} passes every test. */
        boolean test(byte[] stored) {
            return test(stored, 0, stored.length);
        }

        /**
         * Whether a row whose stored value is {@code a[offset, offset + length)} passes every test, read in place:
         * only a LIKE pattern the bytes cannot decide decodes the value.
         */
        boolean test(byte[] a, int offset, int length) {
            boolean isNull = ColumnType.isNullValue(a, offset, length);
            for (Check c : checks) {
                if (isNull ? !c.nullPasses() : !anySpan(c.spans(), a, offset, length)) {
                    return false;
                }
            }
            return true;
        }

        private boolean anySpan(Span[] spans, byte[] a, int offset, int length) {
            for (Span s : spans) {
                if (inside(s, a, offset, length)) {
                    return true;
                }
            }
            return false;
        }

        private boolean inside(Span s, byte[] a, int offset, int length) {
            if (s.pattern() != null) {
                return LIKE.like((String) def.decodeValue(Arrays.copyOfRange(a, offset, offset + length)), s.pattern());
            }
            if (s.lo() != null && s.lo() == s.hi()) {
                return Arrays.equals(a, offset, offset + length, s.lo(), 0, s.lo().length);
            }
            if (s.prefix()) {
                byte[] p = s.lo();
                return length >= p.length && Arrays.equals(a, offset, offset + p.length, p, 0, p.length);
            }
            if (s.lo() != null) {
                int c = type.compareValues(a, offset, length, s.lo(), 0, s.lo().length);
                if (c < 0 || (c == 0 && !s.loInclusive())) {
                    return false;
                }
            }
            if (s.hi() != null) {
                int c = type.compareValues(a, offset, length, s.hi(), 0, s.hi().length);
                return c < 0 || (c == 0 && s.hiInclusive());
            }
            return true;
        }
    }
}
