package io.kegdb.engine;

import java.io.IOException;

/** Receives every live pair of a store from {@link Bitcask#fold(KeyValueVisitor)}. */
@FunctionalInterface
public interface KeyValueVisitor {
    /** Called once per live key; throwing stops the fold and the exception reaches the caller. */
    void visit(byte[] key, byte[] value) throws IOException;
}
