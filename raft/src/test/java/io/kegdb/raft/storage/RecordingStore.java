package io.kegdb.raft.storage;

import io.kegdb.engine.Durability;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.StoreStats;
import io.kegdb.engine.WriteBatch;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/** A store that records the durability of every write it passes on to the store it wraps. */
final class RecordingStore implements KvStore {

    final List<Durability> writes = new CopyOnWriteArrayList<>();
    private final KvStore delegate;

    RecordingStore(KvStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public byte[] get(byte[] key) {
        return delegate.get(key);
    }

    @Override
    public void put(byte[] key, byte[] value, Durability durability) {
        writes.add(durability);
        delegate.put(key, value, durability);
    }

    @Override
    public boolean delete(byte[] key, Durability durability) {
        writes.add(durability);
        return delegate.delete(key, durability);
    }

    @Override
    public void write(WriteBatch batch, Durability durability) {
        writes.add(durability);
        delegate.write(batch, durability);
    }

    @Override
    public KvIterator scan(byte[] fromInclusive, byte[] toExclusive) {
        return delegate.scan(fromInclusive, toExclusive);
    }

    @Override
    public KvIterator scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        return delegate.scanDescending(fromInclusive, toExclusive);
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
