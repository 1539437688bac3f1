package io.kegdb.sql.txn;

import io.kegdb.engine.KeyIterator;
import io.kegdb.engine.KvCursor;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;

import java.util.List;

/** Reads straight from the store. */
public record StoreView(KvStore store) implements ReadView {

    @Override
    public byte[] get(byte[] key) {
        return store.get(key);
    }

    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        return store.getAll(keys);
    }

    @Override
    public boolean contains(byte[] key) {
        return store.contains(key);
    }

    @Override
    public boolean readsAreRoundTrips() {
        return store.readsAreRoundTrips();
    }

    @Override
    public KvIterator scan(byte[] from, byte[] to, boolean descending) {
        return descending ? store.scanDescending(from, to) : store.scan(from, to);
    }

    @Override
    public KvCursor cursor(byte[] from, byte[] to, boolean descending) {
        return descending ? store.cursorDescending(from, to) : store.cursor(from, to);
    }

    @Override
    public KeyIterator scanKeys(byte[] from, byte[] to, boolean descending) {
        return store.scanKeys(from, to, descending);
    }
}
