package io.kegdb.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * What {@link Segment#read} checks a put record with, and where it leaves the verified record. Two ways:
 * <ul>
 *   <li>{@link #inPlace()} (a get): the CRC is computed over the mapping and the key compared there; the value
 *       stays in the mapping for the caller to copy out once, into an array of its exact size;</li>
 *   <li>{@link #copying()} (a cursor, which keeps one for all its reads): the record is first copied into this
 *       reader's own array, reused from record to record, and the CRC and key are checked on that copy, so the
 *       bytes the cursor exposes are exactly the bytes that were verified. One bulk copy replaces the key's
 *       compare through the mapping (eight bytes per bounds-checked read) and the value's own copy
 *       (ScanRowCost's engine cursor row).</li>
 * </ul>
 * The CRC state and the buffer view the in-place check moves over a mapping are made once per reader. Not
 * thread-safe.
 */
final class RecordRead {

    private static final VarHandle BIG_ENDIAN_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    /** Bytes of a record's header after its CRC: type and lengths (docs/FORMAT.md). */
    private static final int FRAMING = RecordFormat.HEADER_SIZE - 4;

    private final CRC32C crc = new CRC32C();
    private final boolean copies;
    /** The mapping {@link #view} duplicates. */
    private ByteBuffer viewOf;
    /** A duplicate of a mapping whose position and limit each in-place check moves (the mapping is shared). */
    private ByteBuffer view;
    /** The copy of the record last read, all but its CRC ({@link #copying()}). */
    private byte[] record = new byte[256];

    /** The mapping of the record last read (in place). */
    private ByteBuffer buffer;
    /** Where the value of the record last read starts (in {@link #buffer} or in the copy), and its length. */
    private int valueOffset;
    private int valueLength;

    private RecordRead(boolean copies) {
        this.copies = copies;
    }

    static RecordRead inPlace() {
        return new RecordRead(false);
    }

    static RecordRead copying() {
        return new RecordRead(true);
    }

    /**
     * Checks the CRC of the record of {@code recordSize} bytes at {@code offset} of {@code b} (framing already
     * known to lie inside the segment), copying it first when this reader copies; true if it matches.
     */
    boolean crcMatches(ByteBuffer b, int offset, int recordSize, int keyLength) {
        int stored = b.getInt(offset);
        crc.reset();
        if (copies) {
            int n = recordSize - 4;
            if (n > record.length) {
                record = new byte[Math.max(n, record.length * 2)];
            }
            b.get(offset + 4, record, 0, n);
            crc.update(record, 0, n);
            valueOffset = FRAMING + keyLength;
        } else {
            if (b != viewOf) {
                view = b.duplicate();
                viewOf = b;
            }
            view.limit(offset + recordSize).position(offset + 4);
            crc.update(view);
            buffer = b;
            valueOffset = offset + RecordFormat.HEADER_SIZE + keyLength;
        }
        valueLength = recordSize - RecordFormat.HEADER_SIZE - keyLength;
        return (int) crc.getValue() == stored;
    }

    /** Whether the record last checked holds {@code key[from, from + length)} (its key length is known equal). */
    boolean holdsKey(byte[] key, int from, int length) {
        if (copies) {
            return Arrays.equals(record, FRAMING, FRAMING + length, key, from, from + length);
        }
        int at = valueOffset - length;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            if (buffer.getLong(at + i) != (long) BIG_ENDIAN_LONG.get(key, from + i)) {
                return false;
            }
        }
        for (; i < length; i++) {
            if (buffer.get(at + i) != key[from + i]) {
                return false;
            }
        }
        return true;
    }

    /** The value of the record last read: its length. */
    int valueLength() {
        return valueLength;
    }

    /** The array holding the value of the record last read ({@link #copying()} only), from {@link #valueOffset}. */
    byte[] valueArray() {
        return record;
    }

    int valueOffset() {
        return valueOffset;
    }

    /** Copies the value of the record last read into {@code dst} from {@code at}. */
    void copyValue(byte[] dst, int at) {
        if (copies) {
            System.arraycopy(record, valueOffset, dst, at, valueLength);
        } else {
            buffer.get(valueOffset, dst, at, valueLength);
        }
    }
}
