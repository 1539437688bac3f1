package io.kegdb.engine;

import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * The record layout of data segments (see docs/FORMAT.md). Big-endian:
 *
 * <pre>
 * crc32c u32 | type u8 | keyLen u16 | valueLen u32 | key | value
 * </pre>
 *
 * The CRC covers every byte after itself: type, lengths, key and value.
 */
final class RecordFormat {

    static final int HEADER_SIZE = 11;

    static final byte PUT = 1;
    static final byte DELETE = 2;
    static final byte BATCH_PUT = 3;
    static final byte BATCH_DELETE = 4;
    /** Ends a batch; its value is the u32 count of records in the batch. */
    static final byte BATCH_COMMIT = 5;

    private RecordFormat() {
    }

    static int size(int keyLen, int valueLen) {
        return HEADER_SIZE + keyLen + valueLen;
    }

    /** Size of the record whose header starts at {@code offset}. */
    static int recordSize(ByteBuffer buf, int offset) {
        return size(keyLength(buf, offset), valueLength(buf, offset));
    }

    static boolean isValidType(byte type) {
        return type >= PUT && type <= BATCH_COMMIT;
    }

    static boolean isPut(byte type) {
        return type == PUT || type == BATCH_PUT;
    }

    static boolean isDelete(byte type) {
        return type == DELETE || type == BATCH_DELETE;
    }

    static boolean isBatchMember(byte type) {
        return type == BATCH_PUT || type == BATCH_DELETE;
    }

    /**
     * Writes one record at {@code buf}'s position (big-endian) and advances it. The CRC is computed from the
     * arrays, before anything is written, so no view of the (possibly memory-mapped) buffer is needed.
     */
    static void encode(ByteBuffer buf, byte type, byte[] key, byte[] value) {
        int valueLen = value == null ? 0 : value.length;
        byte[] header = {type, (byte) (key.length >>> 8), (byte) key.length,
            (byte) (valueLen >>> 24), (byte) (valueLen >>> 16), (byte) (valueLen >>> 8), (byte) valueLen};
        CRC32C crc = new CRC32C();
        crc.update(header);
        crc.update(key);
        if (valueLen > 0) {
            crc.update(value);
        }
        buf.putInt((int) crc.getValue());
        buf.put(header);
        buf.put(key);
        if (valueLen > 0) {
            buf.put(value);
        }
    }

    /** Writes a batch's commit record for {@code count} members. */
    static void encodeCommit(ByteBuffer buf, int count) {
        byte[] v = {(byte) (count >>> 24), (byte) (count >>> 16), (byte) (count >>> 8), (byte) count};
        encode(buf, BATCH_COMMIT, new byte[0], v);
    }

    static byte type(ByteBuffer buf, int offset) {
        return buf.get(offset + 4);
    }

    static int keyLength(ByteBuffer buf, int offset) {
        return buf.getShort(offset + 5) & 0xFFFF;
    }

    static int valueLength(ByteBuffer buf, int offset) {
        return buf.getInt(offset + 7);
    }

    /** True if the record at {@code offset}, whose header is plausible, has a matching CRC. */
    static boolean crcMatches(ByteBuffer buf, int offset, int recordSize) {
        CRC32C crc = new CRC32C();
        crc.update(buf.slice(offset + 4, recordSize - 4));
        return (int) crc.getValue() == buf.getInt(offset);
    }
}
