package io.kegdb.sql.calcite;

import io.kegdb.engine.KeyIterator;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.sql.plan.ExecutionContext;
import io.kegdb.sql.txn.ReadView;

import java.util.List;

/**
 * A walk over the stored pairs of resolved key ranges, in ascending key order, that keeps only the pairs whose
 * stored value passes the value tests and decodes nothing: for run-time sources that compute over the bytes
 * ({@link KvAggregateSource}). An interval is one ordered scan, a run of points one multi-get (a lone point one
 * get); without values to read (no value used, no value tests), keys alone ({@code scanKeys}, a presence check
 * per point), and {@link #value} is null.
 */
final class StoredPairs implements AutoCloseable {

    private final ExecutionContext ctx;
    private final ReadView view;
    private final List<KeyPredicate.Bounds> bounds;
    private final ValueFilter.Resolved wanted;
    private final boolean readsValues;
    private int index;
    private KvIterator pairs;
    private KeyIterator keys;
    private final PointReads points;
    private byte[] key;
    private byte[] value;

    /**
     * @param wanted the tests a kept pair's stored value passes, or null to keep every pair
     * @param readsValues whether the caller uses values (with value tests they are read anyway)
     */
    StoredPairs(ExecutionContext ctx, List<KeyPredicate.Bounds> bounds, ValueFilter.Resolved wanted,
                boolean readsValues) {
        this.ctx = ctx;
        this.view = ctx.view();
        this.bounds = wanted != null && wanted.passesNothing() ? List.of() : bounds;
        this.points = new PointReads(view, this.bounds);
        this.wanted = wanted;
        this.readsValues = readsValues || wanted != null;
    }

    /** The current pair's stored key. */
    byte[] key() {
        return key;
    }

    /** The current pair's stored value; null when no value is read. */
    byte[] value() {
        return value;
    }

    /** Moves to the next kept pair; false after the last. */
    boolean next() {
        while (true) {
            ctx.checkRow();
            if (!advance()) {
                return false;
            }
            if (wanted == null || wanted.test(value)) {
                return true;
            }
        }
    }

    /** Moves to the next pair in the ranges, kept or not. */
    private boolean advance() {
        while (true) {
            if (pairs != null && pairs.hasNext()) {
                KeyValue kv = pairs.next();
                key = kv.key();
                value = kv.value();
                return true;
            }
            if (keys != null && keys.hasNext()) {
                key = keys.next();
                return true;
            }
            closeScans();
            if (index >= bounds.size()) {
                return false;
            }
            KeyPredicate.Bounds b = bounds.get(index++);
            if (!b.point()) {
                if (readsValues) {
                    pairs = view.scan(b.from(), b.to(), false);
                } else {
                    keys = view.scanKeys(b.from(), b.to(), false);
                }
                continue;
            }
            if (!readsValues) {
                if (view.contains(b.from())) {
                    key = b.from();
                    return true;
                }
                continue;
            }
            byte[] v = points.value(index - 1, PointReads.BATCH);
            if (v != null) {
                key = b.from();
                value = v;
                return true;
            }
        }
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
    public void close() {
        closeScans();
        index = bounds.size();
        points.clear();
    }
}
