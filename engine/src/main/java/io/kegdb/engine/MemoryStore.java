package io.kegdb.engine;

import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentSkipListMap;
import java.nio.ByteBuffer;

/** {@link KvStore#inMemory()}: a sorted map; batches are applied under one lock so readers never see half. */
final class MemoryStore implements KvStore {

    private final ConcurrentSkipListMap<byte[], byte[]> map = new ConcurrentSkipListMap<>(Arrays::compareUnsigned);
    private final Object writeLock = new Object();
    private final SnapshotRegistry snapshots = new SnapshotRegistry(this);
    /** Writes applied so far: see {@link KvStore#writeVersion()}. */
    private volatile long writes;
    private volatile boolean closed;

    @Override
    public byte[] get(byte[] key) {
        checkOpen();
        byte[] v = map.get(Objects.requireNonNull(key, "key"));
        return v == null ? null : v.clone();
    }

    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        Objects.requireNonNull(keys, "keys");
        checkOpen();
        byte[][] values = new byte[keys.size()][];
        for (int i = 0; i < values.length; i++) {
            if (keys.get(i) == null) {
                throw new IllegalArgumentException("key " + i + " is null");
            }
        }
        for (int i = 0; i < values.length; i++) {
            byte[] v = map.get(keys.get(i));
            values[i] = v == null ? null : v.clone();
        }
        return Arrays.asList(values);
    }

    @Override
    public boolean contains(byte[] key) {
        checkOpen();
        return map.containsKey(Objects.requireNonNull(key, "key"));
    }

    @Override
    public long writeVersion() {
        return writes;
    }

    @Override
    public KvSnapshot snapshot() {
        synchronized (writeLock) {
            checkOpen();
            return snapshots.open(writes);
        }
    }

    @Override
    public void put(byte[] key, byte[] value, Durability durability) {
        write(new WriteBatch().put(key, value), durability);
    }

    @Override
    public boolean delete(byte[] key, Durability durability) {
        Objects.requireNonNull(key, "key");
        synchronized (writeLock) {
            checkOpen();
            if (!map.containsKey(key)) {
                return false;
            }
            if (snapshots.anyOpen()) {
                snapshots.beforeWrite(key);
            }
            map.remove(key);
            writes++;
            return true;
        }
    }

    @Override
    public void write(WriteBatch batch, Durability durability) {
        Objects.requireNonNull(batch, "batch");
        synchronized (writeLock) {
            checkOpen();
            batch.checkExpectations(this, writes);
            if (batch.isEmpty()) {
                return;
            }
            Set<ByteBuffer> added = new HashSet<>();
            for (WriteBatch.Op op : batch.ops()) {
                if (op.kind() == WriteBatch.Kind.PUT_IF_ABSENT) {
                    ByteBuffer k = ByteBuffer.wrap(op.key());
                    if (map.containsKey(op.key()) || !added.add(k)) {
                        throw new KeyExistsException(op.key());
                    }
                } else if (op.kind() == WriteBatch.Kind.PUT) {
                    added.add(ByteBuffer.wrap(op.key()));
                } else {
                    added.remove(ByteBuffer.wrap(op.key()));
                }
            }
            if (snapshots.anyOpen()) {
                snapshots.beforeWrite(batch);
            }
            for (WriteBatch.Op op : batch.ops()) {
                if (op.kind() == WriteBatch.Kind.DELETE) {
                    map.remove(op.key());
                } else {
                    map.put(op.key().clone(), op.value().clone());
                }
            }
            writes++;
        }
    }

    @Override
    public KvIterator scan(byte[] fromInclusive, byte[] toExclusive) {
        return iterate(fromInclusive, toExclusive, false);
    }

    @Override
    public KvIterator scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        return iterate(fromInclusive, toExclusive, true);
    }

    /**
     * Steps through the map's entries in place: the views are the stored arrays themselves, which no write
     * changes (a put stores copies and replaces the entry's array), so nothing is copied per pair.
     */
    @Override
    public KvCursor cursor(byte[] fromInclusive, byte[] toExclusive) {
        return new EntryCursor(entries(fromInclusive, toExclusive, false));
    }

    @Override
    public KvCursor cursorDescending(byte[] fromInclusive, byte[] toExclusive) {
        return new EntryCursor(entries(fromInclusive, toExclusive, true));
    }

    private KvIterator iterate(byte[] from, byte[] to, boolean descending) {
        Iterator<Map.Entry<byte[], byte[]>> it = entries(from, to, descending);
        return new KvIterator() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public KeyValue next() {
                Map.Entry<byte[], byte[]> e = it.next();
                return new KeyValue(e.getKey().clone(), e.getValue().clone());
            }

            @Override
            public void close() {
            }
        };
    }

    /** The entries with {@code from <= key < to} (null: open) in key order or its reverse. */
    private Iterator<Map.Entry<byte[], byte[]>> entries(byte[] from, byte[] to, boolean descending) {
        checkOpen();
        NavigableMap<byte[], byte[]> view = map;
        if (from != null && to != null && Arrays.compareUnsigned(from, to) >= 0) {
            view = map.subMap(from, true, from, false);
        } else if (from != null && to != null) {
            view = map.subMap(from, true, to, false);
        } else if (from != null) {
            view = map.tailMap(from, true);
        } else if (to != null) {
            view = map.headMap(to, false);
        }
        return (descending ? view.descendingMap() : view).entrySet().iterator();
    }

    /** A cursor over map entries whose arrays are the views; it checks the store is open at each step. */
    private final class EntryCursor implements KvCursor {
        private final Iterator<Map.Entry<byte[], byte[]>> entries;
        private byte[] key;
        private byte[] value;
        private boolean closed;

        EntryCursor(Iterator<Map.Entry<byte[], byte[]>> entries) {
            this.entries = entries;
        }

        @Override
        public boolean next() {
            key = null;
            value = null;
            if (closed) {
                return false;
            }
            checkOpen();
            if (!entries.hasNext()) {
                return false;
            }
            Map.Entry<byte[], byte[]> e = entries.next();
            key = e.getKey();
            value = e.getValue();
            return true;
        }

        private void requirePositioned() {
            if (key == null) {
                throw new IllegalStateException("no current pair: next() returned false or was not called");
            }
        }

        @Override
        public byte[] keyArray() {
            requirePositioned();
            return key;
        }

        @Override
        public int keyOffset() {
            requirePositioned();
            return 0;
        }

        @Override
        public int keyLength() {
            requirePositioned();
            return key.length;
        }

        @Override
        public byte[] valueArray() {
            requirePositioned();
            return value;
        }

        @Override
        public int valueOffset() {
            requirePositioned();
            return 0;
        }

        @Override
        public int valueLength() {
            requirePositioned();
            return value.length;
        }

        @Override
        public void close() {
            closed = true;
            key = null;
            value = null;
        }
    }

    @Override
    public void flush() {
        checkOpen();
    }

    @Override
    public StoreStats stats() {
        long bytes = 0;
        for (Map.Entry<byte[], byte[]> e : map.entrySet()) {
            bytes += e.getKey().length + e.getValue().length;
        }
        return new Stats(map.size(), bytes);
    }

    /** The in-memory store's counters: {@code liveBytes} are the keys' and values' lengths. */
    private record Stats(long keys, long liveBytes) implements StoreStats {
    }

    @Override
    public void close() {
        closed = true;
        map.clear();
    }

    private void checkOpen() {
        if (closed) {
            throw new StoreClosedException("store is closed");
        }
    }
}
