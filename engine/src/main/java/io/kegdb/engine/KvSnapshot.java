package io.kegdb.engine;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The store as it was at one moment ({@link KvStore#snapshot()}), read while writes go on: a reader that
 * needs one consistent state across several reads (an audit summing accounts) reads it here. Close it when
 * done: while it is open every write to the store keeps the values it replaces for it.
 *
 * @see SnapshotTooOldException
 */
public interface KvSnapshot extends AutoCloseable {

    /** The value {@code key} had at the snapshot's moment, or null when it was absent. */
    byte[] get(byte[] key);

    /**
     * The values {@code keys} had at the snapshot's moment, in the caller's order (null: absent), as
     * {@link KvStore#getAll} reads them from the store; by default one {@link #get} per key.
     */
    default List<byte[]> getAll(List<byte[]> keys) {
        Objects.requireNonNull(keys, "keys");
        byte[][] values = new byte[keys.size()][];
        for (int i = 0; i < values.length; i++) {
            values[i] = get(keys.get(i));
        }
        return Arrays.asList(values);
    }

    /** Pairs with {@code fromInclusive <= key < toExclusive} as of the snapshot, ascending or descending. */
    KvIterator scan(byte[] fromInclusive, byte[] toExclusive, boolean descending);

    /** The store's {@link KvStore#writeVersion()} at the snapshot's moment. */
    long version();

    @Override
    void close();
}
