package io.kegdb.engine;

import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.Map;

/**
 * Every key's newest committed record, found by replaying segments the way open does (replay order, a
 * tombstone removes): what a store would hold after a restart. Checks compare it with the live keydir.
 */
final class ReplayedKeys {

    /** A live key's record. */
    record Entry(long location, int size) {
    }

    private final Map<ByteBuffer, Entry> live = new HashMap<>();

    void apply(byte[] key, boolean tombstone, long location, int size) {
        if (tombstone) {
            live.remove(ByteBuffer.wrap(key));
        } else {
            live.put(ByteBuffer.wrap(key), new Entry(location, size));
        }
    }

    /** The live record of {@code key}, or null. */
    Entry get(byte[] key) {
        return live.get(ByteBuffer.wrap(key));
    }

    int size() {
        return live.size();
    }

    Map<ByteBuffer, Entry> entries() {
        return live;
    }
}
