package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * The 24-byte header at the start of every data segment:
 *
 * <pre>
 * magic "KEGDBSEG" | version u16 | flags u16 | order u64 | crc32c u32 (of the 20 bytes before it)
 * </pre>
 *
 * {@code order} places the segment in replay order. A segment written by the write path has
 * {@code order == id}. A segment written by merge carries the highest order among the segments it was
 * merged from and the {@link #MERGED} flag; it replays after them and before every newer segment, so a
 * crash that leaves both the merge inputs and outputs on disk still yields the same data.
 */
record SegmentHeader(int flags, long order) {

    static final int SIZE = 24;
    static final int VERSION = 1;
    static final int MERGED = 1;
    private static final byte[] MAGIC = {'K', 'E', 'G', 'D', 'B', 'S', 'E', 'G'};

    boolean merged() {
        return (flags & MERGED) != 0;
    }

    ByteBuffer encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE);
        b.put(MAGIC).putShort((short) VERSION).putShort((short) flags).putLong(order);
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
        if (version != VERSION) {
            throw new IOException(file + ": unsupported segment version " + version + " at offset 8");
        }
        return new SegmentHeader(b.getShort(p + 10) & 0xFFFF, b.getLong(p + 12));
    }

    /**
     * The header of segment {@code id} from damaged header bytes, if the damage can be undone for certain: the
     * magic and version are constants, and at most one other byte may be wrong; the checksum must then
     * match exactly one candidate that is a header segment {@code id} could have (plain with order = id, or
     * merged with a lower order). Returns null when no single candidate fits.
     */
    static SegmentHeader recover(ByteBuffer damaged, int id) {
        if (damaged.remaining() < SIZE) {
            return null;
        }
        byte[] h = new byte[SIZE];
        damaged.duplicate().get(h);
        ByteBuffer b = ByteBuffer.wrap(h);
        b.put(0, MAGIC).putShort(8, (short) VERSION);
        SegmentHeader found = candidate(b, id);
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
                SegmentHeader c = candidate(b, id);
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

    private static SegmentHeader candidate(ByteBuffer b, int id) {
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, 20);
        if ((int) crc.getValue() != b.getInt(20)) {
            return null;
        }
        int flags = b.getShort(10) & 0xFFFF;
        long order = b.getLong(12);
        boolean plausible = flags == 0 ? order == id : flags == MERGED && order > 0 && order < id;
        return plausible ? new SegmentHeader(flags, order) : null;
    }
}
