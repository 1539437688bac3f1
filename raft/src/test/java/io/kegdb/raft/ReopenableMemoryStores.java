package io.kegdb.raft;

import io.kegdb.engine.BitcaskStats;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;

import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Test double for the storages' store seam: in-memory stores that outlive a close, keyed by directory, so
 * reopen tests run without the engine. Opening a directory that is open already fails, like the engine's lock.
 */
final class ReopenableMemoryStores implements StoreOpener {

    private final Map<Path, KvStore> stores = new ConcurrentHashMap<>();
    private final Map<Path, Boolean> open = new ConcurrentHashMap<>();

    @Override
    public KvStore open(Path dir) {
        Path key = dir.toAbsolutePath().normalize();
        if (open.putIfAbsent(key, Boolean.TRUE) != null) {
            throw new IllegalStateException(dir + " is already open");
        }
        KvStore backing = stores.computeIfAbsent(key, k -> KvStore.inMemory());
        return new KvStore() {
            private volatile boolean closed;

            private KvStore live() {
                if (closed) {
                    throw new IllegalStateException("closed");
                }
                return backing;
            }

            @Override
            public byte[] get(byte[] k) {
                return live().get(k);
            }

            @Override
            public void put(byte[] k, byte[] v, Durability d) {
                live().put(k, v, d);
            }

            @Override
            public boolean delete(byte[] k, Durability d) {
                return live().delete(k, d);
            }

            @Override
            public void write(WriteBatch batch, Durability d) {
                live().write(batch, d);
            }

            @Override
            public KvIterator scan(byte[] from, byte[] to) {
                return live().scan(from, to);
            }

            @Override
            public KvIterator scanDescending(byte[] from, byte[] to) {
                return live().scanDescending(from, to);
            }

            @Override
            public void flush() {
                live().flush();
            }

            @Override
            public BitcaskStats stats() {
                return live().stats();
            }

            @Override
            public void close() {
                if (!closed) {
                    closed = true;
                    open.remove(key);
                }
            }
        };
    }
}
