package io.kegdb.sql;

import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyIterator;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvCursor;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.StoreStats;
import io.kegdb.engine.WriteBatch;

import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** A store wrapper counting the calls the SQL layer makes, to check what is pushed down. */
final class CountingStore implements KvStore {

    final KvStore delegate;
    final AtomicLong gets = new AtomicLong();
    /** Multi-get calls, and the keys they asked for. */
    final AtomicLong multiGets = new AtomicLong();
    final AtomicLong multiGetKeys = new AtomicLong();
    final AtomicLong scans = new AtomicLong();
    final AtomicLong pairsRead = new AtomicLong();
    final AtomicLong writes = new AtomicLong();
    final AtomicLong keyCounts = new AtomicLong();
    final AtomicLong keyScans = new AtomicLong();
    final AtomicLong keysRead = new AtomicLong();
    /** Cursors opened (also counted as scans), and copies of the keys and values their steps read in place. */
    final AtomicLong cursors = new AtomicLong();
    final AtomicLong keyCopies = new AtomicLong();
    final AtomicLong valueCopies = new AtomicLong();

    /** Whether this store says its reads are round trips, as a replicated store's client does. */
    private final boolean roundTrips;

    CountingStore(KvStore delegate) {
        this(delegate, false);
    }

    CountingStore(KvStore delegate, boolean roundTrips) {
        this.delegate = delegate;
        this.roundTrips = roundTrips;
    }

    @Override
    public boolean readsAreRoundTrips() {
        return roundTrips;
    }

    /** Reads of any kind (a contains is a get here): what a replicated store's client pays a round trip each for. */
    long reads() {
        return gets.get() + multiGets.get() + scans.get() + keyCounts.get() + keyScans.get();
    }

    void reset() {
        gets.set(0);
        multiGets.set(0);
        multiGetKeys.set(0);
        scans.set(0);
        pairsRead.set(0);
        writes.set(0);
        keyCounts.set(0);
        keyScans.set(0);
        keysRead.set(0);
        cursors.set(0);
        keyCopies.set(0);
        valueCopies.set(0);
    }

    /** Store calls plus pairs read: what a statement cost the store. */
    long touches() {
        return gets.get() + multiGets.get() + multiGetKeys.get() + scans.get() + pairsRead.get() + writes.get() + keyCounts.get() + keyScans.get()
                + keysRead.get();
    }

    @Override
    public byte[] get(byte[] key) {
        gets.incrementAndGet();
        return delegate.get(key);
    }

    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        multiGets.incrementAndGet();
        multiGetKeys.addAndGet(keys.size());
        return delegate.getAll(keys);
    }

    @Override
    public void put(byte[] key, byte[] value, Durability durability) {
        writes.incrementAndGet();
        delegate.put(key, value, durability);
    }

    @Override
    public boolean delete(byte[] key, Durability durability) {
        writes.incrementAndGet();
        return delegate.delete(key, durability);
    }

    @Override
    public void write(WriteBatch batch, Durability durability) {
        writes.incrementAndGet();
        delegate.write(batch, durability);
    }

    @Override
    public KvIterator scan(byte[] fromInclusive, byte[] toExclusive) {
        scans.incrementAndGet();
        return counted(delegate.scan(fromInclusive, toExclusive));
    }

    @Override
    public KvIterator scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        scans.incrementAndGet();
        return counted(delegate.scanDescending(fromInclusive, toExclusive));
    }

    @Override
    public KvCursor cursor(byte[] fromInclusive, byte[] toExclusive) {
        return counted(delegate.cursor(fromInclusive, toExclusive));
    }

    @Override
    public KvCursor cursorDescending(byte[] fromInclusive, byte[] toExclusive) {
        return counted(delegate.cursorDescending(fromInclusive, toExclusive));
    }

    /** Counts the cursor as a scan, each step as a pair read, and each copy it makes. */
    private KvCursor counted(KvCursor c) {
        scans.incrementAndGet();
        cursors.incrementAndGet();
        return new KvCursor() {
            @Override
            public boolean next() {
                boolean more = c.next();
                if (more) {
                    pairsRead.incrementAndGet();
                }
                return more;
            }

            @Override
            public byte[] keyArray() {
                return c.keyArray();
            }

            @Override
            public int keyOffset() {
                return c.keyOffset();
            }

            @Override
            public int keyLength() {
                return c.keyLength();
            }

            @Override
            public byte[] valueArray() {
                return c.valueArray();
            }

            @Override
            public int valueOffset() {
                return c.valueOffset();
            }

            @Override
            public int valueLength() {
                return c.valueLength();
            }

            @Override
            public byte[] key() {
                keyCopies.incrementAndGet();
                return c.key();
            }

            @Override
            public byte[] value() {
                valueCopies.incrementAndGet();
                return c.value();
            }

            @Override
            public void close() {
                c.close();
            }
        };
    }

    @Override
    public KeyIterator scanKeys(byte[] fromInclusive, byte[] toExclusive, boolean descending) {
        keyScans.incrementAndGet();
        KeyIterator it = delegate.scanKeys(fromInclusive, toExclusive, descending);
        return new KeyIterator() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public byte[] next() {
                keysRead.incrementAndGet();
                return it.next();
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }

    @Override
    public long countKeys(byte[] fromInclusive, byte[] toExclusive) {
        keyCounts.incrementAndGet();
        return delegate.countKeys(fromInclusive, toExclusive);
    }

    /** Not counted: the planner asks for table sizes, which is no read of a statement. */
    @Override
    public long countKeysFromIndex(byte[] fromInclusive, byte[] toExclusive) {
        return delegate.countKeysFromIndex(fromInclusive, toExclusive);
    }

    private KvIterator counted(KvIterator it) {
        return new KvIterator() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public KeyValue next() {
                pairsRead.incrementAndGet();
                return it.next();
            }

            @Override
            public void close() {
                it.close();
            }
        };
    }

    @Override
    public void flush() {
        delegate.flush();
    }

    @Override
    public StoreStats stats() {
        return delegate.stats();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
