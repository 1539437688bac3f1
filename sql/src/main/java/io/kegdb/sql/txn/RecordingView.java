package io.kegdb.sql.txn;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.RangeDigest;

import java.util.Arrays;
import java.util.List;

/**
 * A view that records into a {@link ReadSet} what it reads from its base: each point read, and each scan
 * as the part of its range actually read (up to where the cursor stopped), with the digest of the pairs.
 */
public final class RecordingView implements ReadView {

    private final ReadView base;
    private final ReadSet reads;

    public RecordingView(ReadView base, ReadSet reads) {
        this.base = base;
        this.reads = reads;
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] value = base.get(key);
        reads.point(key, value);
        return value;
    }

    /** One multi-get of the base; each key is recorded as a point read, as {@link #get} records it. */
    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        List<byte[]> values = base.getAll(keys);
        for (int i = 0; i < values.size(); i++) {
            reads.point(keys.get(i), values.get(i));
        }
        return values;
    }

    @Override
    public boolean contains(byte[] key) {
        return get(key) != null; // the value is what the commit compares
    }

    @Override
    public boolean readsAreRoundTrips() {
        return base.readsAreRoundTrips();
    }

    /**
     * A key read before is answered from what was read; another is read (and recorded) as {@link #contains}
     * would, unless the base's reads are round trips: then it stays unknown and unrecorded, and the write's
     * put-if-absent decides at apply.
     */
    @Override
    public Presence presence(byte[] key) {
        Presence seen = reads.presence(key);
        if (seen != Presence.UNKNOWN || base.readsAreRoundTrips()) {
            return seen;
        }
        return Presence.of(get(key) != null);
    }

    @Override
    public KvIterator scan(byte[] from, byte[] to, boolean descending) {
        RecordingScan scan = new RecordingScan(base.scan(from, to, descending), from, to, descending);
        reads.opened(scan);
        return scan;
    }

    /** A cursor that digests the pairs it returns and, when closed, records the range it covered. */
    final class RecordingScan implements KvIterator {
        private final KvIterator pairs;
        private final byte[] from;
        private final byte[] to;
        private final boolean descending;
        private final RangeDigest digest = new RangeDigest();
        private byte[] last;
        private boolean exhausted;
        private boolean closed;

        RecordingScan(KvIterator pairs, byte[] from, byte[] to, boolean descending) {
            this.pairs = pairs;
            this.from = from;
            this.to = to;
            this.descending = descending;
        }

        @Override
        public boolean hasNext() {
            boolean more = pairs.hasNext();
            if (!more) {
                exhausted = true;
            }
            return more;
        }

        @Override
        public KeyValue next() {
            KeyValue kv = pairs.next();
            digest.add(kv.key(), kv.value());
            last = kv.key();
            return kv;
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            pairs.close();
            reads.closed(this);
            if (exhausted) {
                reads.range(from, to, digest.value());
            } else if (last != null) {
                // Stopped early (a LIMIT, a lookup that found its row): only the keys up to the last one count.
                if (descending) {
                    reads.range(last, to, digest.value());
                } else {
                    reads.range(from, successor(last), digest.value());
                }
            }
        }

        /** The smallest key greater than {@code key}: an exclusive bound just past it. */
        private static byte[] successor(byte[] key) {
            return Arrays.copyOf(key, key.length + 1);
        }
    }
}
