package io.kegdb.engine;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * Where {@link Segment#read} leaves a verified put record: the mapping it lies in and its value's place there.
 * A reader that reads many records (a cursor) keeps one, so that the CRC state and the buffer view the check
 * moves over the mapping are made once per segment, not once per record. Not thread-safe.
 */
final class RecordRead {

    private final CRC32C crc = new CRC32C();
    /** The mapping {@link #view} duplicates. */
    private ByteBuffer viewOf;
    /** A duplicate of a mapping whose position and limit each check moves (the mapping itself is shared). */
    private ByteBuffer view;

    /** The mapping of the record last read. */
    ByteBuffer buffer;
    /** Where in {@link #buffer} the value of the record last read starts, and its length. */
    int valueOffset;
    int valueLength;

    /** True if the CRC stored at {@code offset} of {@code b} matches the {@code recordSize - 4} bytes after it. */
    boolean crcMatches(ByteBuffer b, int offset, int recordSize) {
        if (b != viewOf) {
            view = b.duplicate();
            viewOf = b;
        }
        view.limit(offset + recordSize).position(offset + 4);
        crc.reset();
        crc.update(view);
        return (int) crc.getValue() == b.getInt(offset);
    }

    /** Copies the value of the record last read into {@code dst} from {@code at}. */
    void copyValue(byte[] dst, int at) {
        buffer.get(valueOffset, dst, at, valueLength);
    }
}
