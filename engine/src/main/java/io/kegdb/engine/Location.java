package io.kegdb.engine;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Packs a record's place, segment id and byte offset, into the keydir's {@code long}: 26 bits of segment id
 * above 30 bits of offset, so a location fits in 7 bytes and the keydir stores it with the key's length in
 * one 8-byte word. Offsets stay below 2^30 because segments and batches are at most 1 GiB; ids are checked
 * where segments are created ({@link #checkSegmentId}).
 */
final class Location {

    static final int OFFSET_BITS = 30;
    static final int SEGMENT_BITS = 26;
    /** Locations are below {@code 1 << BITS}. */
    static final int BITS = OFFSET_BITS + SEGMENT_BITS;
    static final int MAX_SEGMENT_ID = (1 << SEGMENT_BITS) - 1;
    private static final long OFFSET_MASK = (1L << OFFSET_BITS) - 1;

    private Location() {
    }

    static long of(int segmentId, int offset) {
        return ((long) segmentId << OFFSET_BITS) | offset;
    }

    static int segment(long location) {
        return (int) (location >>> OFFSET_BITS);
    }

    static int offset(long location) {
        return (int) (location & OFFSET_MASK);
    }

    /** Throws when {@code id} is past what a location can name (after 67 million segments). */
    static int checkSegmentId(int id, Path dir) throws IOException {
        if (id < 0 || id > MAX_SEGMENT_ID) {
            throw new IOException(dir + ": segment id " + id + " exceeds the limit of " + MAX_SEGMENT_ID
                    + " segment ids in a store's lifetime");
        }
        return id;
    }
}
