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
}
