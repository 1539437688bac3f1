package io.kegdb.bench;

/**
 * One store opened for a workload, seen through the two operations the seed table times. Each put is its own
 * write (its own transaction where the store has them) with the store's no-sync durability; each get returns a
 * copy of the value on the Java heap, or null.
 */
interface StoreUnderTest extends AutoCloseable {

    void put(byte[] key, byte[] value) throws Exception;

    byte[] get(byte[] key) throws Exception;

    /** Memory the store says its index holds (KegDB's keydir estimate), or -1 when it reports none. */
    long reportedIndexBytes();

    @Override
    void close() throws Exception;
}
