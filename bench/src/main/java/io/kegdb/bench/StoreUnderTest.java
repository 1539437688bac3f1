package io.kegdb.bench;

/**
 * One store opened for a workload, seen through the two operations the seed table times. Each put is its own
 * write (its own transaction where the store has them) with the store's no-sync durability; each get returns a
 * copy of the value on the Java heap, or null.
 */
interface StoreUnderTest extends AutoCloseable {

    void put(byte[] key, byte[] value) throws Exception;

    byte[] get(byte[] key) throws Exception;

    /**
     * Memory the store itself reports holding for its index and caches, or -1 when it reports none: KegDB's
     * keydir estimate (whether on or off the heap), RocksDB's memtables, block cache and table readers
     * (native memory, invisible to the heap measurement).
     */
    long reportedMemoryBytes();

    /** Releases the store; none of the three stores fails on close. */
    @Override
    void close();
}
