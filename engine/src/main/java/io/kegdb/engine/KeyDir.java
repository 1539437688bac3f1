package io.kegdb.engine;

import java.util.List;

/**
 * The in-memory index of a store: every live key mapped to the location of its newest record.
 *
 * <p>A location is an opaque {@code long} in {@code [0, 2^56)} chosen by the store ({@link Location}). Writes ({@link #put},
 * {@link #remove}, {@link #replace}) are serialized by the caller; {@link #get} and cursors may run
 * concurrently with them from any thread and see, per key, either the value before or after a write in
 * progress. Cursors are weakly consistent, like those of {@link java.util.concurrent.ConcurrentSkipListMap}.
 */
interface KeyDir {

    /** Returned when a key is absent. */
    long NONE = -1L;

    /**
     * A hint before a run of puts or removals of {@code keys}: an implementation may bring what they will
     * touch into the CPU cache ahead of them. Changes nothing; writer thread only.
     */
    default void prefetch(List<byte[]> keys) {
    }

    /** The location of {@code key}, or {@link #NONE}. */
    long get(byte[] key);

    /** Maps {@code key} to {@code location}; returns the previous location or {@link #NONE}. */
    long put(byte[] key, long location);

    /** Removes {@code key}; returns the previous location or {@link #NONE}. */
    long remove(byte[] key);

    /** Sets {@code key} to {@code update} only if it currently maps to {@code expected}. */
    boolean replace(byte[] key, long expected, long update);

    /** Number of keys. */
    long size();

    /** Memory held (heap and off-heap), estimated in bytes. */
    long memoryBytes();

    /**
     * Keys with {@code fromInclusive <= key < toExclusive} (unsigned byte order; a null bound is open),
     * ascending or descending. Reaching the first key costs O(log n).
     */
    Cursor cursor(byte[] fromInclusive, byte[] toExclusive, boolean descending);

    /** The number of keys {@link #cursor} would walk for these bounds; by default, a walk of one. */
    default long count(byte[] fromInclusive, byte[] toExclusive) {
        Cursor c = cursor(fromInclusive, toExclusive, false);
        long n = 0;
        while (c.next()) {
            n++;
        }
        return n;
    }

    /** Walks keys in order. Call {@link #next()} before reading the first entry. */
    interface Cursor {
        boolean next();

        /** The current key; a fresh array the caller may keep. */
        byte[] key();

        /**
         * The array holding the current key from {@link #keyOffset()} for {@link #keyLength()} bytes: a view
         * valid until the next step, which the caller must not change.
         */
        byte[] keyArray();

        int keyOffset();

        int keyLength();

        long location();
    }
}
