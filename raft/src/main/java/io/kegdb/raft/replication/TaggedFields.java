package io.kegdb.raft.replication;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The compact form {@link KvWireSerializer} puts requests and answers in: a sequence of fields, each a tag
 * byte ({@code number << 2 | kind}) and a value, ended by a zero byte. Only fields that differ from their
 * default (0, false, null) are written, so a GET is a few bytes of tags around its key.
 *
 * <p>The kind says how long the value is, so a reader skips a field number it does not know: a node
 * ignores a field a newer client added, as it would a new field under Java serialization.
 */
final class TaggedFields {

    /** A zig-zag varint: byte, boolean, int and long fields. */
    static final int VARINT = 0;
    /** A varint length and that many bytes: byte arrays and UTF-8 strings (an empty one stays empty, not null). */
    static final int BYTES = 1;
    /** Eight bytes, big-endian: random 64-bit numbers, which a varint would make longer. */
    static final int FIXED64 = 2;
    /** A varint count and that many zig-zag varints: long arrays. */
    static final int LONGS = 3;

    private TaggedFields() {
    }

    /** Appends fields to a growing buffer. */
    static final class Writer {
        private byte[] buf = new byte[64];
        private int size;

        Writer(int magic, int format) {
            put(magic);
            put(format);
        }

        Writer varint(int number, long value) {
            if (value != 0) {
                tag(number, VARINT);
                unsigned((value << 1) ^ (value >> 63));
            }
            return this;
        }

        Writer flag(int number, boolean value) {
            return varint(number, value ? 1 : 0);
        }

        Writer fixed64(int number, long value) {
            if (value != 0) {
                tag(number, FIXED64);
                room(8);
                for (int shift = 56; shift >= 0; shift -= 8) {
                    buf[size++] = (byte) (value >>> shift);
                }
            }
            return this;
        }

        Writer bytes(int number, byte[] value) {
            if (value != null) {
                tag(number, BYTES);
                unsigned(value.length);
                room(value.length);
                System.arraycopy(value, 0, buf, size, value.length);
                size += value.length;
            }
            return this;
        }

        Writer string(int number, String value) {
            return bytes(number, value == null ? null : value.getBytes(StandardCharsets.UTF_8));
        }

        Writer longs(int number, long[] value) {
            if (value != null) {
                tag(number, LONGS);
                unsigned(value.length);
                for (long v : value) {
                    unsigned((v << 1) ^ (v >> 63));
                }
            }
            return this;
        }

        byte[] end() {
            put(0);
            return Arrays.copyOf(buf, size);
        }

        private void tag(int number, int kind) {
            put(number << 2 | kind);
        }

        private void unsigned(long v) {
            room(10);
            while ((v & ~0x7FL) != 0) {
                buf[size++] = (byte) ((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            buf[size++] = (byte) v;
        }

        private void put(int b) {
            room(1);
            buf[size++] = (byte) b;
        }

        private void room(int n) {
            if (size + n > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, size + n));
            }
        }
    }

    /** Reads fields back: {@link #next} gives each field's number, then one of the value methods reads it. */
    static final class Reader {
        private final byte[] buf;
        private int pos;
        private int kind;

        /** @throws IllegalArgumentException if {@code buf} does not start with {@code magic} and {@code format} */
        Reader(byte[] buf, int magic, int format) {
            this.buf = buf;
            if (buf.length < 3 || (buf[0] & 0xFF) != magic || (buf[1] & 0xFF) != format) {
                throw new IllegalArgumentException("not a KegDB wire form of format " + format + " ("
                        + buf.length + " bytes, starting " + (buf.length > 1 ? (buf[0] & 0xFF) + " " + (buf[1] & 0xFF) : "-") + ")");
            }
            pos = 2;
        }

        /** The next field's number, or 0 at the end. */
        int next() {
            int tag = buf[pos++] & 0xFF;
            kind = tag & 3;
            return tag >>> 2;
        }

        long varint() {
            expect(VARINT);
            long v = unsigned();
            return (v >>> 1) ^ -(v & 1);
        }

        boolean flag() {
            return varint() != 0;
        }

        long fixed64() {
            expect(FIXED64);
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v = v << 8 | (buf[pos++] & 0xFF);
            }
            return v;
        }

        byte[] bytes() {
            expect(BYTES);
            int n = length();
            byte[] v = Arrays.copyOfRange(buf, pos, pos + n);
            pos += n;
            return v;
        }

        String string() {
            expect(BYTES);
            int n = length();
            String v = new String(buf, pos, n, StandardCharsets.UTF_8);
            pos += n;
            return v;
        }

        long[] longs() {
            expect(LONGS);
            long[] v = new long[length()];
            for (int i = 0; i < v.length; i++) {
                long u = unsigned();
                v[i] = (u >>> 1) ^ -(u & 1);
            }
            return v;
        }

        /** Passes over the value of a field this reader does not know. */
        void skip() {
            switch (kind) {
                case VARINT -> unsigned();
                case FIXED64 -> pos += 8;
                case BYTES -> {
                    int n = length(); // read first: it moves pos
                    pos += n;
                }
                default -> {
                    for (int n = length(); n > 0; n--) {
                        unsigned();
                    }
                }
            }
        }

        private int length() {
            long n = unsigned();
            if (n < 0 || n > buf.length - pos) {
                throw new IllegalArgumentException("a field of " + n + " at offset " + pos + " runs past the "
                        + buf.length + " bytes");
            }
            return (int) n;
        }

        private void expect(int wanted) {
            if (kind != wanted) {
                throw new IllegalArgumentException("field of kind " + kind + " where kind " + wanted
                        + " was expected, before offset " + pos);
            }
        }

        private long unsigned() {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                byte b = buf[pos++];
                v |= (long) (b & 0x7F) << shift;
                if (b >= 0) {
                    return v;
                }
            }
            throw new IllegalArgumentException("a varint longer than 10 bytes before offset " + pos);
        }
    }
}
