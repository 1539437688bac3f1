package io.kegdb.sql.calcite;

import io.kegdb.engine.KeyIterator;
import io.kegdb.engine.KvCursor;
import io.kegdb.sql.catalog.ColumnType;
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
 * what it keeps.
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
    /** The current pair: views into the cursor's arrays, or a point's (or a key scan's) own arrays. */
    private byte[] keyArray;
    private int keyOffset;
    private int keyLength;
    private byte[] valueArray;
    private int valueOffset;
    private int valueLength;
    /** Copies of the current key and value made on request ({@link #key}, {@link #value}); null until then. */
    private byte[] keyCopy;
    private byte[] valueCopy;
    /** Whether the current arrays are the pair's own (a point's, a key scan's), not a cursor's reused views. */
    private boolean whole;

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

    /** The current pair's stored key, a copy the caller may keep (made once per pair). */
    byte[] key() {
        if (keyCopy == null) {
            keyCopy = whole ? keyArray : pairs.key();
        }
        return keyCopy;
    }

    /** The current pair's stored value, a copy the caller may keep (made once per pair); null when no value is read. */
    byte[] value() {
        if (valueCopy == null && valueArray != null) {
            valueCopy = whole ? valueArray : pairs.value();
        }
        return valueCopy;
    }

    /** The array holding the current key, valid until the next step; not to be changed. */
    byte[] keyArray() {
        return keyArray;
    }

    int keyOffset() {
        return keyOffset;
    }

    int keyLength() {
        return keyLength;
    }

    /** The array holding the current value, valid until the next step; not to be changed. Null: no value read. */
    byte[] valueArray() {
        return valueArray;
    }

    int valueOffset() {
        return valueOffset;
    }

    int valueLength() {
        return valueLength;
    }

    /** Whether the current stored value is NULL, read in place (values must be read). */
    boolean valueIsNull() {
        return ColumnType.isNullValue(valueArray, valueOffset, valueLength);
    }

    /** Moves to the next kept pair; false after the last. */
    boolean next() {
        while (true) {
            ctx.checkRow();
            if (!advance()) {
                return false;
            }
            if (wanted == null || wanted.test(valueArray, valueOffset, valueLength)) {
                return true;
            }
        }
    }

    /** Moves to the next pair in the ranges, kept or not. */
    private boolean advance() {
        keyCopy = null;
        valueCopy = null;
        while (true) {
            if (pairs != null && pairs.next()) {
                whole = false;
                keyArray = pairs.keyArray();
                keyOffset = pairs.keyOffset();
                keyLength = pairs.keyLength();
                valueArray = pairs.valueArray();
                valueOffset = pairs.valueOffset();
                valueLength = pairs.valueLength();
                return true;
            }
            if (keys != null && keys.hasNext()) {
                whole(keys.next(), null);
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
                    whole(b.from(), null);
                    return true;
                }
                continue;
            }
            byte[] v = points.value(index - 1, PointReads.BATCH);
            if (v != null) {
                whole(b.from(), v);
                return true;
            }
        }
    }

    /** Makes {@code key} and {@code value} (null: none read) the current pair, whole arrays. */
    private void whole(byte[] key, byte[] value) {
        whole = true;
        keyArray = key;
        keyOffset = 0;
        keyLength = key.length;
        valueArray = value;
        valueOffset = 0;
        valueLength = value == null ? 0 : value.length;
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
