package io.kegdb.engine;

import java.util.Iterator;

/**
 * Live keys in key order (unsigned lexicographic bytes, or its reverse for a descending scan), without their
 * values. Close it when done.
 */
public interface KeyIterator extends Iterator<byte[]>, AutoCloseable {
    @Override
    void close();

    /** The keys of {@code pairs}, which still reads each value: for stores that cannot avoid it. */
    static KeyIterator of(KvIterator pairs) {
        return new KeyIterator() {
            @Override
            public boolean hasNext() {
                return pairs.hasNext();
            }

            @Override
            public byte[] next() {
                return pairs.next().key();
            }

            @Override
            public void close() {
                pairs.close();
            }
        };
    }
}
