package io.kegdb.raft.storage;

/**
 * The key layout of a log store. A log entry lives under its index as 8 big-endian bytes; indexes are
 * non-negative, so every entry key starts with a byte below 0x80 and sorts in index order. Bookkeeping keys
 * start with 0xFF and can never collide with, or sort among, entry keys.
 */
final class LogKeys {

    /** Exclusive upper bound of every entry key. */
    static final byte[] ENTRIES_END = {(byte) 0x80};
    /** The persisted first log index (8 big-endian bytes). */
    static final byte[] FIRST_INDEX = {(byte) 0xFF, 'f'};

    private static final byte CONF_TAG = 'c';
    /** Exclusive upper bound of every configuration marker key. */
    static final byte[] CONF_END = {(byte) 0xFF, CONF_TAG + 1};

    private LogKeys() {
    }

    /** The key of the entry at {@code index}. */
    static byte[] entry(long index) {
        byte[] key = new byte[8];
        putLong(key, 0, index);
        return key;
    }

    /**
     * The marker saying the entry at {@code index} was appended as a configuration entry; {@code init} reads
     * these instead of decoding the whole log.
     */
    static byte[] conf(long index) {
        byte[] key = new byte[10];
        key[0] = (byte) 0xFF;
        key[1] = CONF_TAG;
        putLong(key, 2, index);
        return key;
    }

    static long entryIndex(byte[] entryKey) {
        return getLong(entryKey, 0);
    }

    static long confIndex(byte[] confKey) {
        return getLong(confKey, 2);
    }

    static byte[] encodeLong(long v) {
        byte[] b = new byte[8];
        putLong(b, 0, v);
        return b;
    }

    static long decodeLong(byte[] b) {
        if (b.length != 8) {
            throw new IllegalArgumentException("expected an 8-byte value, got " + b.length + " bytes");
        }
        return getLong(b, 0);
    }

    private static void putLong(byte[] b, int off, long v) {
        for (int i = 7; i >= 0; i--) {
            b[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    private static long getLong(byte[] b, int off) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[off + i] & 0xFF);
        }
        return v;
    }
}
