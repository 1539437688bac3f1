package io.kegdb.sql.calcite;

import io.kegdb.engine.KeyIterator;
import io.kegdb.engine.KvCursor;
import io.kegdb.sql.plan.ExecutionContext;
import io.kegdb.sql.txn.ReadView;

import java.util.List;

/**
 * A walk over the stored pairs of resolved key ranges, in ascending key order, that keeps only the pairs whose
 * stored value passes the value tests and decodes nothing: for run-time sources that compute over the bytes
 * ({@link KvAggregateSource}). An interval is one ordered scan, a run of points one multi-get (a lone point one
 * get); without values to read (no value used, no value tests), keys alone ({@code scanKeys}, a presence check
 * per point), and {@link #value} is null. An interval is read through the view's cursor: each pair is a view into
 * the cursor's arrays, the value tests read it in place, and a caller copies ({@link #key}, {@link #value}) only
 * what it keeps ({@link StoredPair}).
 */
final class StoredPairs implements AutoCloseable {

    private final ExecutionContext ctx;
    private final ReadView view;
    private final List<KeyPredicate.Bounds> bounds;
    private final ValueFilter.Resolved wanted;
    private final boolean readsValues;
    private int index;
    /** The open interval's cursor, stepped in place; or its keys when no value is read. */
    private KvCursor pairs;
    private KeyIterator keys;
    private final PointReads points;
    private final StoredPair current = new StoredPair();

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

    /** The current pair, read in place; its value is absent when no value is read. */
    StoredPair current() {
        return current;
    }

    /** Moves to the next kept pair; false after the last. */
    boolean next() {
        while (true) {
            ctx.checkRow();
            if (!advance()) {
                return false;
            }
            if (current.passes(wanted)) {
                return true;
            }
        }
    }

    /** Moves to the next pair in the ranges, kept or not. */
    private boolean advance() {
        while (true) {
            if (pairs != null && pairs.next()) {
                current.viewOf(pairs);
                return true;
            }
            if (keys != null && keys.hasNext()) {
                current.own(keys.next(), null);
                return true;
            }
            closeScans();
            if (index >= bounds.size()) {
                return false;
            }
            KeyPredicate.Bounds b = bounds.get(index++);
            if (!b.point()) {
                if (readsValues) {
                    pairs = view.cursor(b.from(), b.to(), false);
                } else {
                    keys = view.scanKeys(b.from(), b.to(), false);
                }
                continue;
            }
            if (!readsValues) {
                if (view.contains(b.from())) {
                    current.own(b.from(), null);
                    return true;
                }
                continue;
            }
            byte[] v = points.value(index - 1, PointReads.BATCH);
            if (v != null) {
                current.own(b.from(), v);
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
