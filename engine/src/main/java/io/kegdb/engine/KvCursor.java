package io.kegdb.engine;

import java.util.Arrays;

/**
 * Live pairs in key order, stepped through in place: no object per pair. After {@link #next()} returned true,
 * the current key and value are views, {@code (array, offset, length)}, valid until the next call of
 * {@link #next()} or {@link #close()}; the arrays may be shared with the store or reused for the next pair, so
 * a caller must not change them and copies ({@link #key()}, {@link #value()}) what it keeps. Weakly consistent,
 * as {@link KvStore#scan} is: a key written or deleted while the cursor runs is seen or not, never torn. Not
 * thread-safe. Close it when done.
 */
public interface KvCursor extends AutoCloseable {

    /** Moves to the next pair; false after the last (and after {@link #close()}). */
    boolean next();

    /** The array holding the current key, from {@link #keyOffset()} for {@link #keyLength()} bytes. */
    byte[] keyArray();

    int keyOffset();

    int keyLength();

    /** The array holding the current value, from {@link #valueOffset()} for {@link #valueLength()} bytes. */
    byte[] valueArray();

    int valueOffset();

    int valueLength();

    /** A copy of the current key, the caller's to keep. */
    default byte[] key() {
        return Arrays.copyOfRange(keyArray(), keyOffset(), keyOffset() + keyLength());
    }

    /** A copy of the current value, the caller's to keep. */
    default byte[] value() {
        return Arrays.copyOfRange(valueArray(), valueOffset(), valueOffset() + valueLength());
    }

    @Override
    void close();

    /** The pairs of {@code pairs} as a cursor: for stores whose scans make a {@link KeyValue} anyway. */
    static KvCursor of(KvIterator pairs) {
        return new IteratorCursor(pairs);
    }
}
