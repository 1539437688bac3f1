package io.kegdb.sql.calcite;

import io.kegdb.engine.KeyIterator;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvCursor;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.ExecutionContext;
import io.kegdb.sql.plan.KeyOperand;
import io.kegdb.sql.plan.StatementFailure;
import io.kegdb.sql.txn.ReadView;
import org.apache.calcite.DataContext;
import org.apache.calcite.linq4j.AbstractEnumerable;
import org.apache.calcite.linq4j.Enumerable;
import org.apache.calcite.linq4j.Enumerator;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.ScannableTable;
import org.apache.calcite.schema.impl.AbstractTable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The run-time half of a {@link KvScan}, stashed into the generated code: reads the execution's view of
 * the store. A ScannableTable only so the generated code can call it through a public interface.
 */
final class KvScanSource extends AbstractTable implements ScannableTable {

    private final TableDef def;
    private final KeyPredicate predicate;
    private final ValueFilter values;
    private final boolean keysOnly;
    private final boolean descending;
    private final KeyOperand offset;
    private final KeyOperand fetch;
    private final TopN topN;

    KvScanSource(TableDef def, KeyPredicate predicate, ValueFilter values, boolean keysOnly, boolean descending,
                 KeyOperand offset, KeyOperand fetch, TopN topN) {
        this.def = def;
        this.predicate = predicate;
        this.values = values;
        this.keysOnly = keysOnly;
        this.descending = descending;
        this.offset = offset;
        this.fetch = fetch;
        this.topN = topN;
    }

    @Override
    public RelDataType getRowType(RelDataTypeFactory typeFactory) {
        return new KvTable(def).getRowType(typeFactory);
    }

    @Override
    public Enumerable<Object[]> scan(DataContext root) {
        ExecutionContext ctx = (ExecutionContext) root;
        List<KeyPredicate.Bounds> bounds;
        ValueFilter.Resolved wanted;
        long skip;
        long limit;
        try {
            bounds = KeyPredicate.resolve(predicate, def, ctx);
            wanted = values == null ? null : values.resolve(def, ctx);
            if (wanted != null && wanted.passesNothing()) {
                bounds = List.of(); // V = NULL (or a value the column cannot hold) keeps no row
            }
            skip = count(topN != null ? topN.offset() : offset, ctx, 0);
            limit = count(topN != null ? topN.fetch() : fetch, ctx, Long.MAX_VALUE);
        } catch (SqlError e) {
            throw new StatementFailure(e);
        }
        List<KeyPredicate.Bounds> ordered = descending ? reversed(bounds) : bounds;
        if (topN != null) {
            List<KeyPredicate.Bounds> all = ordered;
            return new AbstractEnumerable<>() {
                @Override
                public Enumerator<Object[]> enumerator() {
                    return new TopNEnumerator(new RangeEnumerator(ctx, all, wanted, 0, Long.MAX_VALUE), skip, limit);
                }
            };
        }
        // Keys-only rows are the key itself (Calcite's scalar row format), hence the unchecked cast.
        Enumerable<?> rows = new AbstractEnumerable<Object>() {
            @Override
            public Enumerator<Object> enumerator() {
                return new RangeEnumerator(ctx, ordered, wanted, skip, limit);
            }
        };
        @SuppressWarnings("unchecked")
        Enumerable<Object[]> typed = (Enumerable<Object[]>) rows;
        return typed;
    }

    private static List<KeyPredicate.Bounds> reversed(List<KeyPredicate.Bounds> bounds) {
        List<KeyPredicate.Bounds> copy = new ArrayList<>(bounds);
        Collections.reverse(copy);
        return copy;
    }

    private static long count(KeyOperand op, ExecutionContext ctx, long absent) throws SqlError {
        if (op == null) {
            return absent;
        }
        Object v = op.value(ctx);
        if (!(v instanceof Number n) || n.longValue() < 0) {
            throw new SqlError(SqlState.INVALID_PARAMETER_VALUE,
                    "OFFSET/FETCH must be a non-negative integer, got " + v);
        }
        return n.longValue();
    }

    /**
     * Walks the ranges in order: an interval is one ordered scan, a run of points one multi-get (a lone point
     * one get), read as the run starts, at most {@link PointReads#BATCH} keys and, without a value condition, no
     * more than the LIMIT still wants. Keys-only scans and the
     * rows an OFFSET skips read keys alone (the store's key scan, {@code contains} for points); after the
     * skipped keys the value scan starts right past the last one. With value tests every row's value is read
     * and tested as stored bytes, and only the rows kept are decoded, skipped or counted.
     */
    private final class RangeEnumerator implements Enumerator<Object> {
        private final ExecutionContext ctx;
        private final ReadView view;
        private final List<KeyPredicate.Bounds> bounds;
        /** The tests a kept row's stored value passes, or null to keep every row. */
        private final ValueFilter.Resolved wanted;
        private final boolean readsValues;
        /**
         * Keys-only points are looked up with the multi-get too where each read is a round trip (a replicated
         * store's client): one request for the run of points, where a presence check each would be one per key.
         */
        private final boolean batchesPresence;
        private final long limit;
        private long toSkip;
        private long produced;
        private int index;
        /** The rest of an interval an OFFSET stopped in, to be read before {@code bounds[index]}. */
        private KeyPredicate.Bounds resumed;
        /** The open interval's cursor over pairs, stepped in place; or its keys when keys only. */
        private KvCursor pairs;
        private KeyIterator keys;
        private final PointReads points;
        private Object current;
        /** The entry {@link #nextEntry} moved to: a pair, or a key alone (no value) when no value is read. */
        final StoredPair pair = new StoredPair();

        RangeEnumerator(ExecutionContext ctx, List<KeyPredicate.Bounds> bounds, ValueFilter.Resolved wanted, long skip,
                        long limit) {
            this.ctx = ctx;
            this.view = ctx.view();
            this.bounds = bounds;
            this.points = new PointReads(view, bounds);
            this.wanted = wanted;
            this.readsValues = !keysOnly || wanted != null;
            this.batchesPresence = !readsValues && view.readsAreRoundTrips();
            this.toSkip = skip;
            this.limit = limit;
        }

        @Override
        public Object current() {
            return current;
        }

        @Override
        public boolean moveNext() {
            if (toSkip > 0 && wanted == null) {
                skip();
            }
            if (produced >= limit) {
                return false;
            }
            while (true) {
                ctx.checkRow();
                if (!nextEntry()) {
                    return false;
                }
                if (pair.hasValue()) {
                    if (!pair.passes(wanted)) {
                        continue;
                    }
                    if (toSkip > 0) {
                        toSkip--;
                        continue;
                    }
                    current = keysOnly ? def.decodeKey(pair.key())
                            : new Object[] {def.decodeKey(pair.key()), def.decodeValue(pair.value())};
                } else {
                    current = def.decodeKey(pair.key());
                }
                produced++;
                return true;
            }
        }

        /**
         * Moves to the next pair whose value passes the tests, OFFSET and LIMIT aside; false after the last. The
         * pair is {@link #pair}, read in place: valid until the next move.
         */
        boolean nextPassing() {
            while (true) {
                ctx.checkRow();
                if (!nextEntry()) {
                    return false;
                }
                if (pair.passes(wanted)) {
                    return true;
                }
            }
        }

        /** Passes over the first {@code toSkip} keys without reading their values. */
        private void skip() {
            while (toSkip > 0 && index < bounds.size()) {
                KeyPredicate.Bounds b = bounds.get(index++);
                if (b.point()) {
                    ctx.checkRow();
                    if (view.contains(b.from())) {
                        toSkip--;
                    }
                    continue;
                }
                byte[] last = null;
                try (KeyIterator skipped = view.scanKeys(b.from(), b.to(), descending)) {
                    while (toSkip > 0 && skipped.hasNext()) {
                        ctx.checkRow();
                        last = skipped.next();
                        toSkip--;
                    }
                    if (toSkip == 0 && skipped.hasNext()) {
                        resumed = descending ? new KeyPredicate.Bounds(b.from(), last, false)
                                : new KeyPredicate.Bounds(Arrays.copyOf(last, last.length + 1), b.to(), false);
                    }
                }
            }
            toSkip = 0;
        }

        /**
         * Moves to the next pair, or key alone (no value) when no value is read; false after the last.
         */
        private boolean nextEntry() {
            while (true) {
                if (pairs != null && pairs.next()) {
                    pair.viewOf(pairs);
                    return true;
                }
                if (keys != null && keys.hasNext()) {
                    pair.own(keys.next(), null);
                    return true;
                }
                closeScans();
                KeyPredicate.Bounds b;
                if (resumed != null) {
                    b = resumed;
                    resumed = null;
                } else if (index < bounds.size()) {
                    b = bounds.get(index++);
                } else {
                    return false;
                }
                if (b.point()) {
                    if (readsValues) {
                        byte[] value = pointValue(index - 1);
                        if (value != null) {
                            pair.own(b.from(), value);
                            return true;
                        }
                    } else if (batchesPresence ? pointValue(index - 1) != null : view.contains(b.from())) {
                        pair.own(b.from(), null);
                        return true;
                    }
                } else {
                    if (readsValues) {
                        pairs = view.cursor(b.from(), b.to(), descending);
                    } else {
                        keys = view.scanKeys(b.from(), b.to(), descending);
                    }
                }
            }
        }

        /** The value of the point {@code bounds[at]}, or null when absent; reads the run of points it starts. */
        private byte[] pointValue(int at) {
            // without value tests, no more points than the LIMIT still wants
            return points.value(at, wanted == null ? limit - produced : PointReads.BATCH);
        }

        private void closeScans() {
            if (pairs != null) {
                pairs.close();
                pairs = null;
            }
            if (keys != null) {
                keys.close();
                keys = null;
            }
        }

        @Override
        public void reset() {
            throw new UnsupportedOperationException("a key/value scan cannot be reset");
        }

        @Override
        public void close() {
            closeScans();
            resumed = null;
            points.clear();
            index = bounds.size();
        }
    }

    /**
     * The {@link TopN} of the scan's rows: on the first move it reads every pair passing the value tests once,
     * keeping the first {@code skip + limit} in the top-N order in a heap whose head is the last of them (so a
     * pair after it is dropped with one comparison), then returns them in order past the first {@code skip},
     * decoding only those.
     */
    private final class TopNEnumerator implements Enumerator<Object[]> {
        private final RangeEnumerator range;
        private final long skip;
        private final long limit;
        private KeyValue[] sorted;
        private int next;
        private Object[] current;

        TopNEnumerator(RangeEnumerator range, long skip, long limit) {
            this.range = range;
            this.skip = skip;
            this.limit = limit;
        }

        @Override
        public Object[] current() {
            return current;
        }

        @Override
        public boolean moveNext() {
            if (sorted == null) {
                sorted = top();
                next = (int) Math.min(skip, sorted.length);
            }
            if (next >= sorted.length) {
                return false;
            }
            KeyValue kv = sorted[next];
            sorted[next++] = null;
            current = new Object[] {def.decodeKey(kv.key()), def.decodeValue(kv.value())};
            return true;
        }

        private KeyValue[] top() {
            long kept = limit > Long.MAX_VALUE - skip ? Long.MAX_VALUE : skip + limit;
            if (kept == 0) {
                return new KeyValue[0];
            }
            TopN.PairOrder order = topN.order(def);
            PriorityQueue<KeyValue> heap = new PriorityQueue<>((int) Math.min(kept, 1024), order.reversed());
            try {
                while (range.nextPassing()) {
                    // compared in place with the last kept pair: only a pair that enters the heap is copied
                    StoredPair p = range.pair;
                    if (heap.size() >= kept && order.compare(p, heap.peek()) >= 0) {
                        continue;
                    }
                    if (heap.size() >= kept) {
                        heap.poll();
                    }
                    heap.add(new KeyValue(p.key(), p.value()));
                }
            } finally {
                range.close();
            }
            KeyValue[] out = heap.toArray(new KeyValue[0]);
            Arrays.sort(out, order);
            return out;
        }

        @Override
        public void reset() {
            throw new UnsupportedOperationException("a key/value scan cannot be reset");
        }

        @Override
        public void close() {
            range.close();
            sorted = new KeyValue[0];
        }
    }
}
