package io.kegdb.bench;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;

import java.io.IOException;
import java.nio.file.Path;

/** KegDB's Bitcask with {@link Durability#NO_SYNC} writes and otherwise default options. */
final class KegDbStore implements StoreUnderTest {

    private final Bitcask db;

    private KegDbStore(Bitcask db) {
        this.db = db;
    }

    static KegDbStore open(Path dir) throws IOException {
        return new KegDbStore(Bitcask.open(dir, options()));
    }

    /** A view of an open store; closing the view closes the store. */
    static KegDbStore over(Bitcask db) {
        return new KegDbStore(db);
    }

    static BitcaskOptions options() {
        return BitcaskOptions.builder().durability(Durability.NO_SYNC).build();
    }

    @Override
    public void put(byte[] key, byte[] value) {
        db.put(key, value, Durability.NO_SYNC);
    }

    @Override
    public byte[] get(byte[] key) {
        return db.get(key);
    }

    @Override
    public long reportedMemoryBytes() {
        return db.stats().keydirBytes();
    }

    @Override
    public void close() {
        db.close();
    }
}
