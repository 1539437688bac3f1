package io.kegdb.raft.replication;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvSnapshot;
import io.kegdb.engine.SnapshotTooOldException;
import io.kegdb.engine.UnsupportedStoreOperationException;
import io.kegdb.raft.range.RangeDescriptor;

import java.util.List;
import java.util.function.Supplier;

/**
 * A {@link RangedStore}'s snapshot: a snapshot of one range, open on its group's node as a {@link GroupStore}'s
 * is. Snapshots of several ranges would not be one consistent state (that needs the cross-range protocol of
 * docs/SCALE.md, "Transactions"), so a read reaching a second range is refused with an
 * {@link UnsupportedStoreOperationException} rather than answered from another moment. On a cluster of one range
 * it is opened at once on range 1, as a group's store does; otherwise on the range of its first read. A range
 * that split after the snapshot was opened refuses its reads as stale routes: they fail with
 * {@link SnapshotTooOldException}, as a snapshot its node dropped does.
 */
final class RangedSnapshot implements KvSnapshot {

    /** How the snapshot finds its range and opens it (a {@link RangedStore}). */
    interface Ranges {
        RangeDescriptor route(byte[] key);

        /** Opens a snapshot on {@code range}'s group (routed again, by its start, if the route was stale). */
        Opened open(RangeDescriptor range);

        /** Called after each read at the snapshot (the store notes the watched key read along). */
        void afterRead(RangeDescriptor range);
    }

    /** A snapshot open on a range. */
    record Opened(RangeDescriptor range, KvSnapshot snapshot) {
    }

    private final Ranges ranges;
    private Opened opened;

    /** @param whole the range to open the snapshot on now (a cluster of one range), or null for the first read's */
    RangedSnapshot(Ranges ranges, RangeDescriptor whole) {
        this.ranges = ranges;
        if (whole != null) {
            opened = ranges.open(whole);
        }
    }

    @Override
    public byte[] get(byte[] key) {
        Opened at = at(key, key, true);
        return read(at, () -> at.snapshot().get(key));
    }

    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        if (keys.isEmpty()) {
            return List.of();
        }
        Opened at = null;
        for (byte[] key : keys) {
            at = at(key, key, true);
        }
        Opened in = at;
        return read(in, () -> in.snapshot().getAll(keys));
    }

    @Override
    public KvIterator scan(byte[] fromInclusive, byte[] toExclusive, boolean descending) {
        Opened at = at(fromInclusive, toExclusive, false);
        KvIterator pairs = at.snapshot().scan(fromInclusive, toExclusive, descending);
        return new KvIterator() {
            @Override
            public boolean hasNext() {
                return read(at, pairs::hasNext);
            }

            @Override
            public KeyValue next() {
                return pairs.next();
            }

            @Override
            public void close() {
                pairs.close();
            }
        };
    }

    /**
     * The snapshot a read of {@code [from, to)} (a point read: {@code point}, from = to = the key) is made at:
     * opened on the range holding {@code from} at the first read.
     *
     * @throws UnsupportedStoreOperationException if the read reaches beyond the snapshot's range
     */
    private Opened at(byte[] from, byte[] to, boolean point) {
        if (opened == null) {
            opened = ranges.open(ranges.route(from == null ? new byte[0] : from));
        }
        RangeDescriptor range = opened.range();
        if (point ? !range.contains(from) : !range.containsSpan(from, to)) {
            throw new UnsupportedStoreOperationException(UnsupportedStoreOperationException.SNAPSHOT_ACROSS_RANGES,
                    "a snapshot (a transaction at REPEATABLE READ or SERIALIZABLE) reads one range so far: it was "
                    + "taken on " + RangedStore.bounds(range) + " and this read reaches beyond it; run it at READ "
                    + "COMMITTED, or keep each transaction within one range");
        }
        return opened;
    }

    private <T> T read(Opened at, Supplier<T> read) {
        try {
            T result = read.get();
            ranges.afterRead(at.range());
            return result;
        } catch (StaleRouteException e) {
            throw new SnapshotTooOldException("the snapshot's " + RangedStore.bounds(at.range())
                    + " changed since it was taken (" + e.getMessage() + ")");
        }
    }

    /** Not used: a replicated store has no write version. */
    @Override
    public long version() {
        return -1;
    }

    @Override
    public void close() {
        if (opened != null) {
            opened.snapshot().close();
        }
    }
}
