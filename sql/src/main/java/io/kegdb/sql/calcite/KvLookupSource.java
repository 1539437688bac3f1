package io.kegdb.sql.calcite;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.ExecutionContext;
import io.kegdb.sql.plan.StatementFailure;
import io.kegdb.sql.txn.ReadView;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.linq4j.function.Function2;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The run-time half of a {@link KvLookupJoin}, stashed into the generated code: joins the outer rows (arrays)
 * with the rows their keys find through the execution's read view, so a transaction records each lookup as
 * a point read (present or absent), as it does a scan's points. A Function2 only so the generated code can
 * call it through a public interface.
 */
final class KvLookupSource implements Function2<Enumerable<Object[]>, DataContext, Enumerable<Object[]>> {

    /**
     * Outer rows per multi-get: enough to pay one call for many keys, few enough that a LIMIT above the join
     * reads little past what it needs.
     */
    static final int BATCH = 256;

    private final TableDef def;
    private final KeyPredicate predicate;
    private final ValueFilter values;
    private final boolean keysOnly;
    private final int outerKey;
    private final boolean innerFirst;
    private final boolean keepOuter;

    KvLookupSource(TableDef def, KeyPredicate predicate, ValueFilter values, boolean keysOnly, int outerKey,
                   boolean innerFirst, boolean keepOuter) {
        this.def = def;
        this.predicate = predicate;
        this.values = values;
        this.keysOnly = keysOnly;
        this.outerKey = outerKey;
        this.innerFirst = innerFirst;
        this.keepOuter = keepOuter;
    }

    @Override
    public Enumerable<Object[]> apply(Enumerable<Object[]> outer, DataContext root) {
        ExecutionContext ctx = (ExecutionContext) root;
        List<KeyPredicate.Bounds> bounds;
        ValueFilter.Resolved wanted;
        try {
            wanted = values == null ? null : values.resolve(def, ctx);
            // V = NULL: no row of the table takes part
            bounds = wanted != null && wanted.passesNothing() ? List.of()
                    : predicate == null ? null : predicate.resolve(def, ctx);
        } catch (SqlError e) {
            throw new StatementFailure(e);
        }
        return new AbstractEnumerable<>() {
            @Override
            public Enumerator<Object[]> enumerator() {
                return new Lookups(ctx, outer.enumerator(), bounds, wanted);
            }
        };
    }

    /**
     * Outer rows taken in batches of up to {@link #BATCH}: the keys of a batch are read with one multi-get
     * ({@link ReadView#getAll}, which reads them in the order they lie on disk), a lone key with a get, and
     * rows come out in the outer's order. A keys-only lookup asks {@code contains} per row: the keydir
     * answers it without reading a record, so there is nothing to batch; except where each read is a round trip
     * (a replicated store's client), where the batch's keys are one multi-get too.
     */
    private final class Lookups implements Enumerator<Object[]> {
        private final ExecutionContext ctx;
        private final ReadView view;
        private final Enumerator<Object[]> outer;
        /** The table's key conditions resolved (ascending, as {@link KeyPredicate#resolve} gives them); null: all. */
        private final List<KeyPredicate.Bounds> bounds;
        /** The tests a found row's stored value must pass (the scan's), or null for any. */
        private final ValueFilter.Resolved wanted;
        private final int innerWidth = keysOnly ? 1 : 2;
        /** The batch: outer rows and the inner row each found (null: none); {@code next} is the one to emit. */
        private final Object[][] outerRows = new Object[BATCH][];
        private final Object[][] found = new Object[BATCH][];
        private final int[] positions = new int[BATCH];
        private final List<byte[]> keys = new ArrayList<>(BATCH);
        private int filled;
        private int next;
        private Object[] current;

        Lookups(ExecutionContext ctx, Enumerator<Object[]> outer, List<KeyPredicate.Bounds> bounds,
                ValueFilter.Resolved wanted) {
            this.ctx = ctx;
            this.view = ctx.view();
            this.outer = outer;
            this.bounds = bounds;
            this.wanted = wanted;
        }

        @Override
        public Object[] current() {
            return current;
        }

        @Override
        public boolean moveNext() {
            while (true) {
                while (next < filled) {
                    int i = next++;
                    Object[] o = outerRows[i];
                    Object[] f = found[i];
                    outerRows[i] = null;
                    found[i] = null;
                    if (f != null || keepOuter) {
                        current = joined(o, f);
                        return true;
                    }
                }
                if (!fill()) {
                    return false;
                }
            }
        }

        /** Takes the next batch of outer rows and looks their keys up; false when the outer has no more rows. */
        private boolean fill() {
            filled = 0;
            next = 0;
            keys.clear();
            while (filled < BATCH && outer.moveNext()) {
                ctx.checkRow();
                Object[] o = outer.current();
                outerRows[filled] = o;
                byte[] key = keyOf(o[outerKey]);
                if (key != null) {
                    if (keysOnly && wanted == null && !view.readsAreRoundTrips()) {
                        found[filled] = view.contains(key) ? new Object[] {def.decodeKey(key)} : null;
                    } else {
                        positions[keys.size()] = filled;
                        keys.add(key);
                    }
                }
                filled++;
            }
            if (keys.size() == 1) {
                found[positions[0]] = row(keys.get(0), view.get(keys.get(0)));
            } else if (!keys.isEmpty()) {
                List<byte[]> values = view.getAll(keys);
                for (int j = 0; j < keys.size(); j++) {
                    found[positions[j]] = row(keys.get(j), values.get(j));
                }
            }
            return filled > 0;
        }

        /** The key the outer's join value names in the table, or null when no row can match it. */
        private byte[] keyOf(Object value) {
            if (value == null) {
                return null;
            }
            byte[] key;
            try {
                Object k = def.searchKey(value);
                if (k == null) {
                    return null;
                }
                key = def.key(k);
            } catch (SqlError e) {
                throw new StatementFailure(e);
            }
            return bounds != null && !selected(key) ? null : key;
        }

        /** The table's row for {@code key} read as {@code value}, or null if absent or its value is not wanted. */
        private Object[] row(byte[] key, byte[] value) {
            if (value == null || (wanted != null && !wanted.test(value))) {
                return null;
            }
            return keysOnly ? new Object[] {def.decodeKey(key)}
                    : new Object[] {def.decodeKey(key), def.decodeValue(value)};
        }

        private boolean selected(byte[] key) {
            for (KeyPredicate.Bounds b : bounds) {
                if (Arrays.compareUnsigned(b.from(), key) > 0) {
                    return false; // ascending starts: no later bound holds the key
                }
                if (b.point() ? Arrays.equals(b.from(), key) : Arrays.compareUnsigned(key, b.to()) < 0) {
                    return true;
                }
            }
            return false;
        }

        private Object[] joined(Object[] o, Object[] found) {
            Object[] row = new Object[o.length + innerWidth];
            int innerAt = innerFirst ? 0 : o.length;
            System.arraycopy(o, 0, row, innerFirst ? innerWidth : 0, o.length);
            if (found != null) {
                System.arraycopy(found, 0, row, innerAt, innerWidth);
            }
            return row;
        }

        @Override
        public void reset() {
            throw new UnsupportedOperationException("a lookup join cannot be reset");
        }

        @Override
        public void close() {
            filled = 0;
            next = 0;
            Arrays.fill(outerRows, null);
            Arrays.fill(found, null);
            outer.close();
        }
    }
}
