package io.kegdb.engine;

import java.util.Iterator;

/**
 * Live pairs in key order (unsigned lexicographic bytes, or its reverse for a descending scan).
 * Close it when done: an open iterator pins the files it reads from.
 */
public interface KvIterator extends Iterator<KeyValue>, AutoCloseable {
    @Override
    void close();
}
