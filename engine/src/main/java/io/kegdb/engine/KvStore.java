package io.kegdb.engine;

import io.kegdb.engine.meter.Meter;
import io.kegdb.engine.meter.MeterUnit;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The seam between KegDB's SQL layer and its storage: a local {@link Bitcask}, an in-memory store, or a
 * replicated store all implement it. Keys are ordered as unsigned bytes. Implementations are thread-safe.
 *
 * <p>I/O failures surface as {@link java.io.UncheckedIOException}; bad arguments as
 * {@link IllegalArgumentException} ({@link LimitExceededException} for a size limit) naming the limit; use after
 * {@link #close()} as {@link StoreClosedException}.
 */
public interface KvStore extends AutoCloseable {

    /** The value of {@code key}, or null when absent. */
    byte[] get(byte[] key);

    /**
     * The values of {@code keys}, in the caller's order: element {@code i} is what {@code get(keys.get(i))}
     * would return (null when absent), and a key given twice gets its value twice. One call instead of one per
     * key: a store that can, reads the values in the order they lie on disk ({@link Bitcask} goes forward
     * through each segment). Each value is one its key had at some moment during the call; the call is not a
     * snapshot across the keys (read a {@link KvSnapshot} for that). By default one {@link #get} per key.
     *
     * @throws IllegalArgumentException if a key is null, or ({@link LimitExceededException}) longer than a
     *                                  store with a key limit ({@link Bitcask}'s maxKeySize) can hold; nothing
     *                                  is read then
     */
    default List<byte[]> getAll(List<byte[]> keys) {
        Objects.requireNonNull(keys, "keys");
        byte[][] values = new byte[keys.size()][];
        for (int i = 0; i < values.length; i++) {
            byte[] key = keys.get(i);
            if (key == null) {
                throw new IllegalArgumentException("key " + i + " is null");
            }
        }
        for (int i = 0; i < values.length; i++) {
            values[i] = get(keys.get(i));
        }
        return Arrays.asList(values);
    }

    /**
     * Whether {@code key} is present, as {@code get(key) != null} would say. Stores that can answer from
     * their index alone override it to skip reading the value (a duplicate-key check needs no value).
     */
    default boolean contains(byte[] key) {
        return get(key) != null;
    }

    /**
     * Whether each read of this store is a round trip to another process, while its writes' conditions are
     * checked where the writes are applied (a replicated store's client: every replica checks a batch's
     * {@code putIfAbsent} keys and preconditions in its state machine). A caller that would read a key only to
     * learn what a {@code putIfAbsent} of the same batch decides anyway (an INSERT's duplicate check) should then
     * leave the question to the write. False (the default) for stores in this process, whose reads are cheap
     * enough to answer at once.
     */
    default boolean readsAreRoundTrips() {
        return false;
    }

    /**
     * Asks the store to read {@code key} along with every later read it serves, just after that read's own
     * data and, where reads are round trips, in the same request: {@link #watched} then answers without another
     * one. For a key whose value only moves forward (a version), the value read along says what it was, at
     * most, when the data was read. A SQL layer watches its catalog's version so that the reads a statement
     * makes anyway tell it whether the catalog changed. One key per store, the last one asked for; by default
     * nothing is read ahead.
     */
    default void watch(byte[] key) {
    }

    /**
     * The value of {@code key}, which {@link #watch} named, as read along with this thread's latest read of the
     * store (null: absent); by default, or before any such read, a {@link #get} now, which comes after the
     * caller's reads as well.
     */
    default byte[] watched(byte[] key) {
        return get(key);
    }

    /**
     * A number that changes whenever a write changes what the store holds, so that a caller can tell that
     * nothing was written between two moments (see {@link WriteBatch#absentSince(long)}); -1 when the store
     * keeps no such number. Only meaningful while the store stays open.
     */
    default long writeVersion() {
        return -1;
    }

    /**
     * The store as it is now, readable while writes go on; close it when done. Null when this kind of store
     * cannot take snapshots (a replicated store's client), so that a caller can fall back.
     */
    default KvSnapshot snapshot() {
        return null;
    }

    /** Sets {@code key} to {@code value}. */
    void put(byte[] key, byte[] value, Durability durability);

    /** Removes {@code key}; true if it was present. */
    boolean delete(byte[] key, Durability durability);

    /**
     * Applies every operation of {@code batch} atomically, also across a crash.
     *
     * @throws KeyExistsException if a {@code putIfAbsent} finds its key; nothing is written then
     * @throws WriteConflictException if a precondition ({@link WriteBatch#expect}) fails; nothing is written then
     */
    void write(WriteBatch batch, Durability durability);

    /** Live pairs with {@code fromInclusive <= key < toExclusive} in ascending order; a null bound is open. */
    KvIterator scan(byte[] fromInclusive, byte[] toExclusive);

    /** Like {@link #scan(byte[], byte[])}, in descending key order. */
    KvIterator scanDescending(byte[] fromInclusive, byte[] toExclusive);

    /**
     * The live pairs of {@link #scan(byte[], byte[])}, stepped through in place: no {@link KeyValue} per pair,
     * the key and value views valid until the next step ({@link KvCursor}). Stores that read their records
     * into place override it ({@link Bitcask}, the in-memory store); by default the pairs of a scan.
     */
    default KvCursor cursor(byte[] fromInclusive, byte[] toExclusive) {
        return KvCursor.of(scan(fromInclusive, toExclusive));
    }

    /** Like {@link #cursor(byte[], byte[])}, in descending key order; by default the pairs of a descending scan. */
    default KvCursor cursorDescending(byte[] fromInclusive, byte[] toExclusive) {
        return KvCursor.of(scanDescending(fromInclusive, toExclusive));
    }

    /**
     * The live keys with {@code fromInclusive <= key < toExclusive} (a null bound is open), ascending or
     * descending, without their values where the store can avoid reading them; by default the keys of a scan.
     */
    default KeyIterator scanKeys(byte[] fromInclusive, byte[] toExclusive, boolean descending) {
        return KeyIterator.of(descending ? scanDescending(fromInclusive, toExclusive)
                : scan(fromInclusive, toExclusive));
    }

    /**
     * The number of live keys with {@code fromInclusive <= key < toExclusive} (a null bound is open). Reads
     * no values where the store can avoid it; by default it walks {@link #scan(byte[], byte[])}.
     */
    default long countKeys(byte[] fromInclusive, byte[] toExclusive) {
        long n = 0;
        try (KvIterator it = scan(fromInclusive, toExclusive)) {
            while (it.hasNext()) {
                it.next();
                n++;
            }
        }
        return n;
    }

    /**
     * What {@link #countKeys} would return, when the store can answer from an index that keeps sizes, without
     * visiting each key (Bitcask's keydir adds up leaf sizes); -1 when it would have to walk the keys or ask
     * over a network. Cheap enough for a query planner to ask about each table it plans.
     */
    default long countKeysFromIndex(byte[] fromInclusive, byte[] toExclusive) {
        return -1;
    }

    /** Makes every write so far durable. */
    void flush();

    /**
     * Writes a consistent copy of the store to {@code target} (created if missing; it must not hold a store)
     * while the store stays open for reads and writes: the hot backup a process holding the store offers.
     *
     * @throws UnsupportedStoreOperationException when the store has no files of its own to copy (the default)
     * @throws IOException if the copy cannot be written; the target is then left without a partial store
     */
    default void backup(Path target) throws IOException {
        throw new UnsupportedStoreOperationException(UnsupportedStoreOperationException.BACKUP, this);
    }

    /** Counters describing the store; each kind of store returns its own subtype with more. */
    StoreStats stats();

    /**
     * The store's meters (names {@code kegdb.engine.*}, see docs/OPERATIONS.md), read when exported. By default
     * the keys and live bytes of {@link #stats()}; a {@link Bitcask} adds its segments, merges, fsyncs, reads
     * and writes. A value that cannot be read at the moment reads as NaN.
     */
    default List<Meter> meters() {
        return List.of(
                Meter.gauge("kegdb.engine.keys", MeterUnit.NONE, "Live keys in the store.", () -> stats().keys()),
                Meter.gauge("kegdb.engine.live.bytes", MeterUnit.BYTES,
                        "Bytes the live keys and values take in the store.", () -> stats().liveBytes()));
    }

    /** Flushes and releases the store. Further calls fail with {@link IllegalStateException}. */
    @Override
    void close();

    /** A new, empty store held in memory only; its data is gone when it is closed. */
    static KvStore inMemory() {
        return new MemoryStore();
    }
}
