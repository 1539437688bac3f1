package io.kegdb.sql.txn;

import io.kegdb.engine.KvCursor;

import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;

/**
 * {@link Overlay#cursor}: the base's cursor merged with an overlay's buffered writes in key order (or its
 * reverse), buffered writes winning and deletes hiding the base's pair. A base pair is compared and returned
 * through its views, so nothing is copied; a buffered write's arrays are the views of its pair.
 */
final class MergedCursor implements KvCursor {

    private final KvCursor base;
    private final Iterator<Map.Entry<byte[], Overlay.Pending>> writes;
    private final boolean descending;
    /** Whether {@link #base} stands on a pair not yet returned or passed over; null: step it first. */
    private Boolean baseAhead;
    private Map.Entry<byte[], Overlay.Pending> nextWrite;
    /** The buffered write returned last; null when the current pair is the base's (or there is none). */
    private Map.Entry<byte[], Overlay.Pending> currentWrite;
    private boolean positioned;
    private boolean closed;

    MergedCursor(KvCursor base, Iterator<Map.Entry<byte[], Overlay.Pending>> writes, boolean descending) {
        this.base = base;
        this.writes = writes;
        this.descending = descending;
        this.nextWrite = writes.hasNext() ? writes.next() : null;
    }

    @Override
    public boolean next() {
        positioned = false;
        currentWrite = null;
        if (closed) {
            return false;
        }
        while (true) {
            if (baseAhead == null) {
                baseAhead = base.next();
            }
            if (!baseAhead && nextWrite == null) {
                return false;
            }
            int c = !baseAhead ? 1 : nextWrite == null ? -1 : compareBaseWith(nextWrite.getKey());
            if (c < 0) {
                baseAhead = null; // returned now, stepped at the next call: its views stay valid until then
                positioned = true;
                return true;
            }
            if (c == 0) {
                baseAhead = null; // the buffered write replaces the base's pair
            }
            Map.Entry<byte[], Overlay.Pending> w = nextWrite;
            nextWrite = writes.hasNext() ? writes.next() : null;
            if (!w.getValue().removes()) {
                currentWrite = w;
                positioned = true;
                return true;
            }
        }
    }

    /** The order of the base's current key against {@code key}, in this cursor's direction. */
    private int compareBaseWith(byte[] key) {
        int c = Arrays.compareUnsigned(base.keyArray(), base.keyOffset(), base.keyOffset() + base.keyLength(),
                key, 0, key.length);
        return descending ? -c : c;
    }

    private void requirePositioned() {
        if (!positioned) {
            throw new IllegalStateException("no current pair: next() returned false or was not called");
        }
    }

    @Override
    public byte[] keyArray() {
        requirePositioned();
        return currentWrite != null ? currentWrite.getKey() : base.keyArray();
    }

    @Override
    public int keyOffset() {
        requirePositioned();
        return currentWrite != null ? 0 : base.keyOffset();
    }

    @Override
    public int keyLength() {
        requirePositioned();
        return currentWrite != null ? currentWrite.getKey().length : base.keyLength();
    }

    @Override
    public byte[] valueArray() {
        requirePositioned();
        return currentWrite != null ? currentWrite.getValue().value() : base.valueArray();
    }

    @Override
    public int valueOffset() {
        requirePositioned();
        return currentWrite != null ? 0 : base.valueOffset();
    }

    @Override
    public int valueLength() {
        requirePositioned();
        return currentWrite != null ? currentWrite.getValue().value().length : base.valueLength();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            positioned = false;
            base.close();
        }
    }
}
