package io.kegdb.sql.calcite;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.ExecutionContext;
import io.kegdb.sql.plan.KeyOperand;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/** The key ranges a scan reads, resolved to byte bounds at execution time. */
record KeyPredicate(List<KeyRange> ranges) {

    /** One resolved range: a single key ({@code point}) or {@code from <= key < to}. */
    record Bounds(byte[] from, byte[] to, boolean point) {
    }

    /** The byte bounds {@code predicate} selects in {@code def}, all of the table if it is null. */
    static List<Bounds> resolve(KeyPredicate predicate, TableDef def, ExecutionContext ctx) throws SqlError {
        return predicate == null ? List.of(new Bounds(def.prefix(), def.prefixEnd(), false))
                : predicate.resolve(def, ctx);
    }

    /**
     * Byte bounds in ascending key order; points are deduplicated, and an operand no key can equal or be
     * compared with (NULL, NaN; for a point, a DECIMAL finer than the key's scale) matches nothing.
     */
    List<Bounds> resolve(TableDef def, ExecutionContext ctx) throws SqlError {
        List<Bounds> out = new ArrayList<>(ranges.size());
        for (KeyRange r : ranges) {
            if (r.isPoint()) {
                Object v = def.searchKey(r.lo().value(ctx));
                if (v != null) {
                    out.add(new Bounds(def.key(v), null, true));
                }
                continue;
            }
            byte[] from = def.prefix();
            byte[] to = def.prefixEnd();
            if (r.lo() != null) {
                Object lo = r.pattern() ? patternStart(r.lo(), ctx) : r.lo().value(ctx);
                TableDef.Bound b = lo == null ? null : def.rangeBound(lo, true);
                if (b == null) {
                    continue;
                }
                from = def.key(b.value());
                if (r.prefix()) {
                    to = prefixEnd(from, def);
                } else if (!r.loInclusive() && !b.inclusive()) {
                    from = successor(from);
                }
            }
            if (r.hi() != null) {
                TableDef.Bound b = def.rangeBound(r.hi().value(ctx), false);
                if (b == null) {
                    continue;
                }
                to = def.key(b.value());
                if (r.hiInclusive() || b.inclusive()) {
                    to = successor(to);
                }
            }
            if (Arrays.compareUnsigned(from, to) < 0) {
                out.add(new Bounds(from, to, false));
            }
        }
        if (out.size() <= 1) {
            return out;
        }
        out.sort(Comparator.comparing(Bounds::from, Arrays::compareUnsigned));
        List<Bounds> distinct = new ArrayList<>(out.size());
        for (Bounds b : out) {
            Bounds last = distinct.isEmpty() ? null : distinct.get(distinct.size() - 1);
            if (!(b.point() && last != null && last.point() && Arrays.equals(last.from(), b.from()))) {
                distinct.add(b);
            }
        }
        return distinct;
    }

    /** The literal start of a LIKE pattern parameter; null (nothing matches) for a NULL pattern. */
    private static Object patternStart(KeyOperand op, ExecutionContext ctx) {
        Object v = op.value(ctx);
        return v == null ? null : KeyRange.literalStart(v.toString());
    }

    /** The smallest key greater than {@code key}: the key followed by a zero byte. */
    private static byte[] successor(byte[] key) {
        return Arrays.copyOf(key, key.length + 1);
    }

    /** The first key after all keys of {@code def} starting with {@code prefix} (a key of {@code def}). */
    private static byte[] prefixEnd(byte[] prefix, TableDef def) {
        byte[] end = prefix.clone();
        for (int i = end.length - 1; i >= TableDef.PREFIX_LENGTH; i--) {
            if (end[i] != (byte) 0xFF) {
                end[i]++;
                return Arrays.copyOf(end, i + 1);
            }
        }
        // Prefix is all 0xFF (or empty): up to the end of the table's keyspace.
        return def.prefixEnd();
    }

    @Override
    public String toString() {
        return ranges.toString();
    }
}
