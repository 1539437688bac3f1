package io.kegdb.raft.replication;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskStats;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyExistsException;
import io.kegdb.engine.KeyIterator;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvSnapshot;
import io.kegdb.engine.WriteBatch;
import io.kegdb.engine.WriteConflictException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.stream.Stream;

/**
 * A node's replicated data: a {@link Bitcask} that only the state machine writes. A snapshot install swaps
 * the whole store, so every access holds the read side of a lock whose write side the swap takes.
 *
 * <p>The store is state derived from the Raft log: a node starts with it empty and rebuilds it from the
 * latest snapshot plus the log after it. Writes therefore skip the fsync; the log is the durable record.
 */
public final class DataStore implements AutoCloseable {

    private final Path dir;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private Bitcask db;

    private DataStore(Path dir, Bitcask db) {
        this.dir = dir;
        this.db = db;
    }

    /** Opens an empty store in {@code dir}, removing what an earlier run left there. */
    public static DataStore openEmpty(Path dir) throws IOException {
        deleteTree(dir);
        Files.createDirectories(dir);
        return new DataStore(dir, Bitcask.open(dir));
    }

    /** The outcome of applying one log entry. */
    record Outcome(byte status, byte[] existingKey, boolean existed) {
    }

    Outcome apply(WriteBatch batch) {
        lock.readLock().lock();
        try {
            byte[] deleted = BatchCodec.singleDeleteKey(batch);
            if (deleted != null) {
                return new Outcome(KvResponse.OK, null, db.delete(deleted, Durability.NO_SYNC));
            }
            db.write(batch, Durability.NO_SYNC);
            return new Outcome(KvResponse.OK, null, false);
        } catch (KeyExistsException e) {
            return new Outcome(KvResponse.KEY_EXISTS, e.key(), false);
        } catch (WriteConflictException e) {
            // Decided against this replica's values, which every replica holds alike at this log index.
            return new Outcome(KvResponse.WRITE_CONFLICT, e.key(), false);
        } finally {
            lock.readLock().unlock();
        }
    }

    byte[] get(byte[] key) {
        lock.readLock().lock();
        try {
            return db.get(key);
        } finally {
            lock.readLock().unlock();
        }
    }

    List<byte[]> getAll(List<byte[]> keys) {
        lock.readLock().lock();
        try {
            return db.getAll(keys);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Up to {@code limit} pairs in {@code [from, to)}, ascending or descending. */
    List<KeyValue> page(byte[] from, byte[] to, int limit, boolean descending) {
        lock.readLock().lock();
        try {
            return page(descending ? db.scanDescending(from, to) : db.scan(from, to), limit);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Up to {@code limit} pairs of {@code pairs}, which it closes. */
    static List<KeyValue> page(KvIterator pairs, int limit) {
        try (pairs) {
            List<KeyValue> page = new ArrayList<>(Math.min(limit, 1024));
            while (page.size() < limit && pairs.hasNext()) {
                page.add(pairs.next());
            }
            return page;
        }
    }

    /**
     * The key in the middle, by count, of {@code [from, to)} (a null end: to the last key), or null when the span
     * holds fewer than two keys. Reads the keys twice without their values.
     */
    byte[] middleKey(byte[] from, byte[] to) {
        lock.readLock().lock();
        try {
            long count = 0;
            try (KeyIterator keys = db.scanKeys(from, to, false)) {
                while (keys.hasNext()) {
                    keys.next();
                    count++;
                }
            }
            if (count < 2) {
                return null;
            }
            try (KeyIterator keys = db.scanKeys(from, to, false)) {
                for (long i = 0; i < count / 2 && keys.hasNext(); i++) {
                    keys.next();
                }
                return keys.hasNext() ? keys.next() : null;
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /**
     * The data as it is now, readable while the state machine applies later entries. A snapshot install
     * closes the store it was taken of: its reads then fail with {@link io.kegdb.engine.StoreClosedException}.
     */
    KvSnapshot snapshot() {
        lock.readLock().lock();
        try {
            return db.snapshot();
        } finally {
            lock.readLock().unlock();
        }
    }

    BitcaskStats stats() {
        lock.readLock().lock();
        try {
            return db.stats();
        } finally {
            lock.readLock().unlock();
        }
    }

    void flush() {
        lock.readLock().lock();
        try {
            db.flush();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Writes a consistent copy into {@code target}, which must not exist or be empty. */
    void backupTo(Path target) throws IOException {
        lock.readLock().lock();
        try {
            db.backup(target);
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Replaces the whole store with a copy of the store in {@code source} (a snapshot's backup). */
    void restoreFrom(Path source) throws IOException {
        lock.writeLock().lock();
        try {
            db.close();
            deleteTree(dir);
            Files.createDirectories(dir);
            try (Stream<Path> files = Files.list(source)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    if (Files.isRegularFile(f) && !f.getFileName().toString().equals("LOCK")) {
                        Files.copy(f, dir.resolve(f.getFileName()));
                    }
                }
            }
            db = Bitcask.open(dir);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public void close() {
        lock.writeLock().lock();
        try {
            db.close();
        } finally {
            lock.writeLock().unlock();
        }
    }

    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : (Iterable<Path>) walk.sorted(Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
