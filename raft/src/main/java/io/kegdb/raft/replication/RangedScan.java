package io.kegdb.raft.replication;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.raft.range.RangeDescriptor;

import java.util.Arrays;
import java.util.NoSuchElementException;

/**
 * A scan of {@code [from, to)} across ranges, in key order (ascending or descending): one range at a time, each
 * scanned within its bounds and paged by its own group, the next range routed and opened only when the one
 * before is exhausted, so a reader that stops early (a {@code LIMIT}) reads no further range. A stale route met
 * on any page is routed again from the last key returned, invisibly: nothing is returned twice or skipped.
 */
final class RangedScan implements KvIterator {

    /** How the scan finds and reads ranges (a {@link RangedStore}). */
    interface Ranges {
        /** The range holding {@code key}; with {@code below}, the range holding the keys just below {@code key}. */
        RangeDescriptor route(byte[] key, boolean below, RouteRetry retry);

        /** Scans {@code [from, to)}, which lies within {@code range}, on its group. */
        KvIterator open(RangeDescriptor range, byte[] from, byte[] to, boolean descending);

        /** Learns from a stale answer to a read routed by {@code used}; see {@link RouteRetry#stale}. */
        void stale(StaleRouteException e, RangeDescriptor used, RouteRetry retry);

        /** Called after each read of {@code range}'s iterator (the store notes the watched key read along). */
        void afterRead(RangeDescriptor range);

        RouteRetry retry();
    }

    private final Ranges ranges;
    private final boolean descending;
    /** What is left to scan: {@code [from, to)}, narrowed as pairs are returned and ranges exhausted. */
    private byte[] from;
    private byte[] to;
    private RangeDescriptor range;
    private KvIterator current;
    private RouteRetry retry;
    private boolean done;

    RangedScan(Ranges ranges, byte[] from, byte[] to, boolean descending) {
        this.ranges = ranges;
        this.from = from;
        this.to = to;
        this.descending = descending;
        this.done = (from != null && to != null && Arrays.compareUnsigned(from, to) >= 0)
                || (descending && to != null && to.length == 0);
    }

    @Override
    public boolean hasNext() {
        while (!done) {
            if (current == null) {
                open();
            }
            try {
                boolean more = current.hasNext();
                ranges.afterRead(range);
                if (more) {
                    return true;
                }
            } catch (StaleRouteException e) {
                closeCurrent();
                ranges.stale(e, range, retry());
                continue;
            }
            closeCurrent();
            advance();
        }
        return false;
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        KeyValue kv = current.next();
        byte[] key = kv.key();
        if (descending) {
            to = key;
        } else {
            from = Arrays.copyOf(key, key.length + 1); // the least key after it
        }
        retry = null; // progress: a later stale route is counted anew
        return kv;
    }

    /** Routes the rest of the scan and opens its first range, within the range's bounds. */
    private void open() {
        range = descending ? ranges.route(to, true, retry()) : ranges.route(from == null ? new byte[0] : from, false,
                retry());
        current = ranges.open(range, clipFrom(range), clipTo(range), descending);
    }

    /** The range just read is exhausted: the scan goes on past its bound, or ends there. */
    private void advance() {
        if (descending) {
            byte[] start = range.start();
            if (start.length == 0 || (from != null && Arrays.compareUnsigned(from, start) >= 0)) {
                done = true;
            } else {
                to = start;
            }
        } else {
            byte[] end = range.end();
            if (end == null || (to != null && Arrays.compareUnsigned(end, to) >= 0)) {
                done = true;
            } else {
                from = end;
            }
        }
    }

    private byte[] clipFrom(RangeDescriptor r) {
        byte[] start = r.start();
        if (from == null) {
            return start.length == 0 ? null : start;
        }
        return Arrays.compareUnsigned(from, start) >= 0 ? from : start;
    }

    private byte[] clipTo(RangeDescriptor r) {
        byte[] end = r.end();
        if (to == null) {
            return end;
        }
        return end == null || Arrays.compareUnsigned(to, end) <= 0 ? to : end;
    }

    private RouteRetry retry() {
        if (retry == null) {
            retry = ranges.retry();
        }
        return retry;
    }

    private void closeCurrent() {
        if (current != null) {
            current.close();
            current = null;
        }
    }

    @Override
    public void close() {
        done = true;
        closeCurrent();
    }
}
