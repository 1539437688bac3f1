package io.kegdb.engine;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The open {@link KvSnapshot}s of one store. A snapshot reads the live store and corrects it with the values
 * writes replaced since it was taken: under the store's write lock, before a write changes a key, every open
 * snapshot that has not yet kept that key's earlier value keeps it ({@link #beforeWrite}). A reader reads the
 * live store first and looks at the kept values after, so a write that lands between the two is always
 * corrected for. Nothing is kept while no snapshot is open: a write then pays one volatile read.
 */
final class SnapshotRegistry {

    /** Bytes of replaced values one snapshot keeps at most before it is too old to answer. */
    static final long KEPT_BYTES_LIMIT = 64L << 20;

    private static final Comparator<byte[]> ORDER = Arrays::compareUnsigned;
    /** Kept in place of a value for a key that was absent at the snapshot's moment (compared by identity). */
    private static final byte[] ABSENT = new byte[0];

    private final KvStore live;
    private final Set<Snapshot> open = ConcurrentHashMap.newKeySet();
    private volatile int openCount;

    SnapshotRegistry(KvStore live) {
        this.live = live;
    }

    /** A new snapshot at the store's current state; the caller holds the write lock, so no write is half done. */
    KvSnapshot open(long version) {
        Snapshot s = new Snapshot(version);
        open.add(s);
        openCount = open.size();
        return s;
    }

    /** Whether any snapshot is open: a write with none open keeps nothing. */
    boolean anyOpen() {
        return openCount > 0;
    }

    /** Before {@code key} changes (write lock held): every open snapshot keeps its current value. */
    void beforeWrite(byte[] key) {
        byte[] current = live.get(key);
        byte[] kept = current == null ? ABSENT : current;
        for (Snapshot s : open) {
            s.keep(key, kept);
        }
    }

    /** {@link #beforeWrite} for every key a batch writes. */
    void beforeWrite(WriteBatch batch) {
        for (WriteBatch.Op op : batch.ops()) {
            beforeWrite(op.key());
        }
    }

    private final class Snapshot implements KvSnapshot {
        private final long version;
        private final ConcurrentSkipListMap<byte[], byte[]> kept = new ConcurrentSkipListMap<>(ORDER);
        private long keptBytes;
        private volatile boolean tooOld;
        private volatile boolean closed;

        Snapshot(long version) {
            this.version = version;
        }

        /** Write lock held: the first value replaced after the snapshot's moment is the one it had then. */
        void keep(byte[] key, byte[] value) {
            if (tooOld || kept.containsKey(key)) {
                return;
            }
            keptBytes += key.length + value.length + 64L;
            if (keptBytes > KEPT_BYTES_LIMIT) {
                tooOld = true;
                kept.clear();
                return;
            }
            kept.put(key.clone(), value == ABSENT ? ABSENT : value.clone());
        }

        private void checkUsable() {
            if (closed) {
                throw new IllegalStateException("snapshot is closed");
            }
            if (tooOld) {
                throw new SnapshotTooOldException(KEPT_BYTES_LIMIT);
            }
        }

        @Override
        public byte[] get(byte[] key) {
            Objects.requireNonNull(key, "key");
            checkUsable();
            byte[] now = live.get(key);
            byte[] then = kept.get(key); // after the live read: see the class comment
            checkUsable();
            if (then == null) {
                return now;
            }
            return then == ABSENT ? null : then.clone();
        }

        /** One multi-get of the live store, then each key corrected as {@link #get} corrects it. */
        @Override
        public List<byte[]> getAll(List<byte[]> keys) {
            checkUsable();
            List<byte[]> now = live.getAll(keys);
            byte[][] values = new byte[now.size()][];
            for (int i = 0; i < values.length; i++) {
                byte[] then = kept.get(keys.get(i)); // after the live read: see the class comment
                values[i] = then == null ? now.get(i) : then == ABSENT ? null : then.clone();
            }
            checkUsable();
            return Arrays.asList(values);
        }

        @Override
        public KvIterator scan(byte[] from, byte[] to, boolean descending) {
            checkUsable();
            return new Merged(from, to, descending);
        }

        @Override
        public long version() {
            return version;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                open.remove(this);
                openCount = open.size();
                kept.clear();
            }
        }

        /**
         * The live scan corrected by the kept values. Each step first takes the live scan's next pair and
         * only then looks for kept keys before it, so that a key deleted before the live scan passed it is
         * found among the kept ones.
         */
        private final class Merged implements KvIterator {
            private final byte[] from;
            private final byte[] to;
            private final boolean descending;
            private final KvIterator liveScan;
            private KeyValue liveNext;
            /** The last key returned or skipped; null before the first. */
            private byte[] last;
            private KeyValue next;

            Merged(byte[] from, byte[] to, boolean descending) {
                this.from = from;
                this.to = to;
                this.descending = descending;
                this.liveScan = descending ? live.scanDescending(from, to) : live.scan(from, to);
                advance();
            }

            /** The first kept entry after {@code last} in scan order and inside the bounds, or null. */
            private Map.Entry<byte[], byte[]> nextKept() {
                Map.Entry<byte[], byte[]> e;
                if (descending) {
                    e = last != null ? kept.lowerEntry(last) : to != null ? kept.lowerEntry(to) : kept.lastEntry();
                    return e == null || (from != null && ORDER.compare(e.getKey(), from) < 0) ? null : e;
                }
                e = last != null ? kept.higherEntry(last) : from != null ? kept.ceilingEntry(from) : kept.firstEntry();
                return e == null || (to != null && ORDER.compare(e.getKey(), to) >= 0) ? null : e;
            }

            private int inScanOrder(byte[] a, byte[] b) {
                return descending ? ORDER.compare(b, a) : ORDER.compare(a, b);
            }

            private void advance() {
                next = null;
                while (next == null) {
                    if (liveNext == null && liveScan.hasNext()) {
                        liveNext = liveScan.next();
                    }
                    Map.Entry<byte[], byte[]> k = nextKept();
                    if (k != null && (liveNext == null || inScanOrder(k.getKey(), liveNext.key()) <= 0)) {
                        if (liveNext != null && inScanOrder(k.getKey(), liveNext.key()) == 0) {
                            liveNext = null;
                        }
                        last = k.getKey();
                        if (k.getValue() != ABSENT) {
                            next = new KeyValue(k.getKey().clone(), k.getValue().clone());
                        }
                    } else if (liveNext != null) {
                        KeyValue kv = liveNext;
                        liveNext = null;
                        last = kv.key();
                        byte[] then = kept.get(kv.key()); // after the live read
                        if (then == null) {
                            next = kv;
                        } else if (then != ABSENT) {
                            next = new KeyValue(kv.key(), then.clone());
                        }
                    } else {
                        return;
                    }
                }
            }

            @Override
            public boolean hasNext() {
                return next != null;
            }

            @Override
            public KeyValue next() {
                if (next == null) {
                    throw new NoSuchElementException();
                }
                checkUsable();
                KeyValue out = next;
                advance();
                return out;
            }

            @Override
            public void close() {
                liveScan.close();
            }
        }
    }
}
