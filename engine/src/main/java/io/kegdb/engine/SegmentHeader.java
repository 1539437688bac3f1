package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The 24-byte header at the start of every data segment:
 *
 * <pre>
 * version 2: magic "KEGDBSEG" | version u16 | flags u16 | order u32 | durable mark u32 | crc32c u32 (of the 20 bytes before it)
 * version 1: magic "KEGDBSEG" | version u16 | flags u16 | order u64 |                    crc32c u32
 * </pre>
 *
 * {@code order} places the segment in replay order. A segment written by the write path has
 * {@code order == id}. A segment written by merge carries the highest order among the segments it was
 * merged from and the {@link #MERGED} flag; it replays after them and before every newer segment, so a
 * crash that leaves both the merge inputs and outputs on disk still yields the same data.
 *
 * <p>The durable mark (version 2) is an offset below which the segment's bytes were fsynced: after each
 * completed fsync of the active segment the writer rewrites the header with the length that fsync covered,
 * without syncing it (the next fsync carries it). So whatever value a power cut leaves is at most what
 * really was fsynced, and recovery treats damage at or above it as a torn tail, damage below it as
 * corruption. The whole header is rewritten in one write within the first 512-byte sector, which disks
 * write atomically (the assumption PostgreSQL makes for its control file). Version 1 segments (no mark)
 * still open; the write path never appends to one.
 */
record SegmentHeader(int version, int flags, long order, int mark) {

    static final int SIZE = 24;
    /** The version new segments get. */
    static final int VERSION = 2;
    private static final int FIRST_VERSION = 1;
    static final int MERGED = 1;
    private static final byte[] MAGIC = {'K', 'E', 'G', 'D', 'B', 'S', 'E', 'G'};

    /** A header of the current version with no durable mark yet. */
    SegmentHeader(int flags, long order) {
        this(VERSION, flags, order, 0);
    }

    boolean merged() {
        return (flags & MERGED) != 0;
    }

    /** Whether the header holds a durable mark (version 2 and later). */
    boolean hasMark() {
        return version >= 2;
    }

    /** This header with durable mark {@code durable}. */
    SegmentHeader withMark(int durable) {
        return new SegmentHeader(version, flags, order, durable);
    }

    /**
     * Where damage in the newest segment stops being a possible torn tail: the durable mark, or for a
     * version 1 segment, which has none, the end of the file (damage followed by valid records is then
     * corruption anywhere, as before the mark existed).
     */
    long tornFrom() {
        return hasMark() ? mark : Long.MAX_VALUE;
    }

    ByteBuffer encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE);
        b.put(MAGIC).putShort((short) version).putShort((short) flags);
        if (hasMark()) {
            b.putInt((int) order).putInt(mark);
        } else {
            b.putLong(order);
        }
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, 20);
        b.putInt((int) crc.getValue());
        return b.flip();
    }

    /** Parses a header; {@code file} only names the file in the error. */
    static SegmentHeader decode(ByteBuffer b, Path file) throws IOException {
        if (b.remaining() < SIZE) {
            throw new IOException(file + ": segment header truncated at offset 0 (" + b.remaining() + " of " + SIZE + " bytes)");
        }
        int p = b.position();
        for (int i = 0; i < MAGIC.length; i++) {
            if (b.get(p + i) != MAGIC[i]) {
                throw new IOException(file + ": not a KegDB segment (bad magic at offset " + i + ")");
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(b.slice(p, 20));
        if ((int) crc.getValue() != b.getInt(p + 20)) {
            throw new IOException(file + ": segment header checksum mismatch at offset 0");
        }
        int version = b.getShort(p + 8) & 0xFFFF;
        if (version < FIRST_VERSION || version > VERSION) {
            throw new IOException(file + ": unsupported segment version " + version + " at offset 8");
        }
        return parse(b, p, version);
    }

    private static SegmentHeader parse(ByteBuffer b, int p, int version) {
        int flags = b.getShort(p + 10) & 0xFFFF;
        return version == FIRST_VERSION ? new SegmentHeader(version, flags, b.getLong(p + 12), 0)
                : new SegmentHeader(version, flags, Integer.toUnsignedLong(b.getInt(p + 12)), b.getInt(p + 16));
    }

    /**
     * The header of segment {@code id} from damaged header bytes, if the damage can be undone for certain: the
     * magic and version are constants, and at most one other byte may be wrong; the checksum must then
     * match exactly one candidate that is a header segment {@code id} could have (plain with order = id, or
     * merged with a lower order). The version is taken as written if it is a known one, else the current one.
     * Returns null when no single candidate fits.
     */
    static SegmentHeader recover(ByteBuffer damaged, int id) {
        if (damaged.remaining() < SIZE) {
            return null;
        }
        byte[] h = new byte[SIZE];
        damaged.duplicate().get(h);
        ByteBuffer b = ByteBuffer.wrap(h);
        int written = b.getShort(8) & 0xFFFF;
        int version = written >= FIRST_VERSION && written <= VERSION ? written : VERSION;
        b.put(0, MAGIC).putShort(8, (short) version);
        SegmentHeader found = candidate(b, id, version);
        if (found != null) {
            return found;
        }
        for (int i = 10; i < SIZE; i++) {
            byte original = h[i];
            for (int v = 0; v < 256; v++) {
                if ((byte) v == original) {
                    continue;
                }
                h[i] = (byte) v;
                SegmentHeader c = candidate(b, id, version);
                if (c != null) {
                    if (found != null) {
                        return null; // ambiguous
                    }
                    found = c;
                }
            }
            h[i] = original;
        }
        return found;
    }

    private static SegmentHeader candidate(ByteBuffer b, int id, int version) {
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, 20);
        if ((int) crc.getValue() != b.getInt(20)) {
            return null;
        }
        SegmentHeader h = parse(b, 0, version);
        boolean plausible = h.flags == 0 ? h.order == id : h.flags == MERGED && h.order > 0 && h.order < id;
        return plausible ? h : null;
    }
}
