package io.kegdb.sql.txn;

import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvSnapshot;

/** Reads the store as it was when a transaction began (REPEATABLE READ and SERIALIZABLE). */
public record SnapshotView(KvSnapshot snapshot) implements ReadView {

    @Override
    public byte[] get(byte[] key) {
        return snapshot.get(key);
    }

    @Override
    public KvIterator scan(byte[] from, byte[] to, boolean descending) {
        return snapshot.scan(from, to, descending);
    }
}
