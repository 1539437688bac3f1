package io.kegdb.engine;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * A reader's own copy of the record it read last, made and checked by {@link Segment#read}: a cursor keeps one
 * for all its reads. The record is first copied out of the mapping into an array reused from record to record,
 * and the CRC and key are checked on that copy, so the bytes the cursor exposes are exactly the bytes that were
 * verified; one bulk copy replaces the key's compare through the mapping (eight bytes per bounds-checked read)
 * and the value's own copy (ScanRowCost's engine cursor row). A get checks in place instead and copies its
 * value out once, into an array of its exact size. Not thread-safe.
 */
final class RecordRead {

    /** Bytes of a record's header after its CRC: type and lengths (docs/FORMAT.md). */
    private static final int FRAMING = RecordFormat.HEADER_SIZE - 4;

    private final CRC32C crc = new CRC32C();
    /** The record last read, all but its CRC. */
    private byte[] record = new byte[256];
    /** Where the value of the record last read starts in {@link #record}, and its length. */
    private int valueOffset;
    private int valueLength;

    /**
     * Copies the record of {@code recordSize} bytes at {@code offset} of {@code b} (framing already known to lie
     * inside the segment) and checks its CRC on the copy; true if it matches.
     */
    boolean copyAndCheck(ByteBuffer b, int offset, int recordSize, int keyLength) {
        int stored = b.getInt(offset);
        int n = recordSize - 4;
        if (n > record.length) {
            record = new byte[Math.max(n, record.length * 2)];
        }
        b.get(offset + 4, record, 0, n);
        crc.reset();
        crc.update(record, 0, n);
        valueOffset = FRAMING + keyLength;
        valueLength = n - FRAMING - keyLength;
        return (int) crc.getValue() == stored;
    }

    /** Whether the copy holds {@code key[from, from + length)} (its key length is known to be {@code length}). */
    boolean holdsKey(byte[] key, int from, int length) {
        return Arrays.equals(record, FRAMING, FRAMING + length, key, from, from + length);
    }

    /** The array holding the value of the record last read, from {@link #valueOffset()}. */
    byte[] valueArray() {
        return record;
    }

    int valueOffset() {
        return valueOffset;
    }

    int valueLength() {
        return valueLength;
    }
}
