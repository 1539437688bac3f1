package io.kegdb.engine;

/** Packs a record's place, segment id and byte offset, into the keydir's {@code long}. */
final class Location {

    private Location() {
    }

    static long of(int segmentId, int offset) {
        return ((long) segmentId << 32) | (offset & 0xFFFFFFFFL);
    }

    static int segment(long location) {
        return (int) (location >>> 32);
    }

    static int offset(long location) {
        return (int) location;
    }
}
