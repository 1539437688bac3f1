package io.kegdb.sql.txn;

import io.kegdb.engine.KeyIterator;
import io.kegdb.engine.KvCursor;
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

    /**
     * Whether this view's reads, for keys it does not answer itself, go to a store whose reads are round trips
     * and whose writes decide duplicates when applied ({@link io.kegdb.engine.KvStore#readsAreRoundTrips}).
     */
    default boolean readsAreRoundTrips() {
        return false;
    }

    /**
     * Whether {@code key} is present as far as this view can tell without a round trip to such a store:
     * {@link Presence#UNKNOWN} when only that store could tell. An INSERT asks this, and leaves an unknown key
     * to its put-if-absent, checked when the batch is applied. By default {@link #contains}.
     */
    default Presence presence(byte[] key) {
        return readsAreRoundTrips() ? Presence.UNKNOWN : Presence.of(contains(key));
    }

    /** Pairs with {@code from <= key < to} in ascending order, or descending when asked. */
    KvIterator scan(byte[] from, byte[] to, boolean descending);

    /**
     * The pairs {@link #scan} would return, stepped through in place ({@link KvCursor}: key and value views valid
     * until the next step): the store's own cursor where the view can pass it on; by default the pairs of a scan.
     */
    default KvCursor cursor(byte[] from, byte[] to, boolean descending) {
        return KvCursor.of(scan(from, to, descending));
    }

    /** The keys {@link #scan} would return; reads no value where the store can avoid it. */
    default KeyIterator scanKeys(byte[] from, byte[] to, boolean descending) {
        return KeyIterator.of(scan(from, to, descending));
    }
}
