package io.kegdb.sql.txn;

import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvSnapshot;

import java.util.List;

/** Reads the store as it was when a transaction began (REPEATABLE READ and SERIALIZABLE). */
public record SnapshotView(KvSnapshot snapshot) implements ReadView {

    @Override
    public byte[] get(byte[] key) {
        return snapshot.get(key);
    }

    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        return snapshot.getAll(keys);
    }

    @Override
    public KvIterator scan(byte[] from, byte[] to, boolean descending) {
        return snapshot.scan(from, to, descending);
    }
}
