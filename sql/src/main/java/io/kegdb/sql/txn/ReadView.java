package io.kegdb.sql.txn;

import io.kegdb.engine.KeyIterator;
import io.kegdb.engine.KvIterator;

import java.util.Arrays;
import java.util.List;

/** What a statement reads: the store, or the store seen through uncommitted writes. */
public interface ReadView {

    /** The value of {@code key}, or null when absent. */
    byte[] get(byte[] key);

    /**
     * The values of {@code keys} in their order (null: absent), as {@link #get} would return each: one
     * multi-get of the store ({@link io.kegdb.engine.KvStore#getAll}) where the view can pass it on.
     */
    default List<byte[]> getAll(List<byte[]> keys) {
        byte[][] values = new byte[keys.size()][];
        for (int i = 0; i < values.length; i++) {
            values[i] = get(keys.get(i));
        }
        return Arrays.asList(values);
    }

    /** Whether {@code key} is present; reads no value where the store can avoid it. */
    default boolean contains(byte[] key) {
        return get(key) != null;
    }

    /** Pairs with {@code from <= key < to} in ascending order, or descending when asked. */
    KvIterator scan(byte[] from, byte[] to, boolean descending);

    /** The keys {@link #scan} would return; reads no value where the store can avoid it. */
    default KeyIterator scanKeys(byte[] from, byte[] to, boolean descending) {
        return KeyIterator.of(scan(from, to, descending));
    }
}
