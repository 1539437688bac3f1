package io.kegdb.engine;

/** One entry produced by a {@link KvIterator}. The arrays belong to the caller. */
public record KeyValue(byte[] key, byte[] value) {
}
