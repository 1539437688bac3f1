package io.kegdb.raft.range;

import java.util.Arrays;

/**
 * Where range descriptors live in the meta range (docs/SCALE.md): under {@code 00 00 00 00 FF 'r' ⟨end⟩},
 * where {@code ⟨end⟩} is {@code 01} and the range's end key, or {@code 02} for the last range (no end). Keyed
 * by the end, so "which range holds key k" is one bounded scan: the first descriptor key at or above
 * {@link #lookupFrom lookupFrom(k)} (limit 1). The sixth byte {@code FF} keeps these keys apart from the
 * catalog's ({@code 'T'}, {@code 'M'}, {@code 'V'}) inside keyspace 0, which is the system span
 * {@code [∅, 00 00 00 01)} that never splits.
 */
public final class MetaKeys {

    /** The first key of every descriptor key. */
    static final byte[] PREFIX = {0, 0, 0, 0, (byte) 0xFF, 'r'};
    private static final byte BOUNDED = 1;
    private static final byte LAST = 2;
    /** The end of the system span: keyspace 0 (the catalog, the users, the descriptors) is below it. */
    public static final byte[] SYSTEM_SPAN_END = {0, 0, 0, 1};
    /**
     * The ranges' span {@code [00 00 00 00 FF, 00 00 00 01)}: the descriptors and each replica's own state.
     * Only nodes write it; a client never does (see {@link #isRangeKey}).
     */
    public static final byte[] RANGES_SPAN_START = {0, 0, 0, 0, (byte) 0xFF};
    /**
     * Where a replica keeps the descriptor of its own range, in its data store ({@code 00 00 00 00 FF 'l' 'd'}):
     * written by a command in the range's own log, so it is in every snapshot and replayed after a crash. In
     * the meta range's data store it sits beside the descriptors; in another range's it is outside the range's
     * bounds, so no scan of the range's keys meets it.
     */
    public static final byte[] LOCAL_DESCRIPTOR = {0, 0, 0, 0, (byte) 0xFF, 'l', 'd'};
    /**
     * Where a replica of a range without the catalog keeps its catalog fence ({@code 00 00 00 00 FF 'l' 'f'}):
     * the catalog version entry's value as of the last fence command its log applied ({@link CatalogFence}).
     */
    public static final byte[] LOCAL_FENCE = {0, 0, 0, 0, (byte) 0xFF, 'l', 'f'};
    /**
     * Where a replica records each range split off its range ({@code 00 00 00 00 FF 'l' 's' ⟨id⟩}, the id 8
     * bytes big-endian): a replica that catches up by a snapshot taken after a split learns from it which new
     * ranges to host.
     */
    private static final byte[] LOCAL_SPLIT = {0, 0, 0, 0, (byte) 0xFF, 'l', 's'};
    /** The meta range's next range id ({@code 00 00 00 00 FF 'n'}, 8 bytes big-endian), see {@link RangeIds}. */
    public static final byte[] NEXT_RANGE_ID = {0, 0, 0, 0, (byte) 0xFF, 'n'};

    private MetaKeys() {
    }

    /** The key of the descriptor of a range ending at {@code end} (null: the last range). */
    public static byte[] descriptorKey(byte[] end) {
        if (end == null) {
            byte[] key = Arrays.copyOf(PREFIX, PREFIX.length + 1);
            key[PREFIX.length] = LAST;
            return key;
        }
        byte[] key = new byte[PREFIX.length + 1 + end.length];
        System.arraycopy(PREFIX, 0, key, 0, PREFIX.length);
        key[PREFIX.length] = BOUNDED;
        System.arraycopy(end, 0, key, PREFIX.length + 1, end.length);
        return key;
    }

    /**
     * Where the lookup of the range holding {@code key} starts: {@code 00 00 00 00 FF 'r' 01 key 00}, the least
     * descriptor key of a range whose end is above {@code key}. The first descriptor key at or after it
     * (ascending) belongs to that range, or, past every bounded range, is the last range's.
     */
    public static byte[] lookupFrom(byte[] key) {
        byte[] from = new byte[PREFIX.length + 1 + key.length + 1];
        System.arraycopy(PREFIX, 0, from, 0, PREFIX.length);
        from[PREFIX.length] = BOUNDED;
        System.arraycopy(key, 0, from, PREFIX.length + 1, key.length);
        return from; // the trailing byte stays 00
    }

    /** The first key after every descriptor key: the exclusive end of a scan of all descriptors. */
    public static byte[] descriptorsEnd() {
        byte[] end = PREFIX.clone();
        end[PREFIX.length - 1]++;
        return end;
    }

    /** The key of the record of range {@code id}, split off the range holding it (see {@link #LOCAL_SPLIT}). */
    public static byte[] splitKey(long id) {
        return java.nio.ByteBuffer.allocate(LOCAL_SPLIT.length + Long.BYTES).put(LOCAL_SPLIT).putLong(id).array();
    }

    /** The first key of every split record, and the first after them. */
    public static byte[] splitsStart() {
        return LOCAL_SPLIT.clone();
    }

    public static byte[] splitsEnd() {
        byte[] end = LOCAL_SPLIT.clone();
        end[end.length - 1]++;
        return end;
    }

    /** Whether {@code key} lies in the ranges' span (a descriptor, or a replica's own state). */
    public static boolean isRangeKey(byte[] key) {
        return key.length >= RANGES_SPAN_START.length
                && Arrays.equals(key, 0, RANGES_SPAN_START.length, RANGES_SPAN_START, 0, RANGES_SPAN_START.length);
    }

    /** Whether {@code [from, to)} (null bounds open) overlaps the ranges' span. */
    public static boolean touchesRanges(byte[] from, byte[] to) {
        return (from == null || Arrays.compareUnsigned(from, SYSTEM_SPAN_END) < 0)
                && (to == null || Arrays.compareUnsigned(to, RANGES_SPAN_START) > 0);
    }

    /** Whether {@code key} is a descriptor key. */
    public static boolean isDescriptorKey(byte[] key) {
        return key.length > PREFIX.length && Arrays.equals(key, 0, PREFIX.length, PREFIX, 0, PREFIX.length)
                && (key[PREFIX.length] == BOUNDED || (key[PREFIX.length] == LAST && key.length == PREFIX.length + 1));
    }
}
