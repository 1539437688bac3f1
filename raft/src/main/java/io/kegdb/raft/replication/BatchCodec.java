package io.kegdb.raft.replication;

import io.kegdb.engine.WriteBatch;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The bytes of one Raft log entry: a {@link WriteBatch}, its preconditions first, then its operations in
 * order. Format: a version byte, then per item a kind byte and its fields; a byte string is a 4-byte
 * big-endian length and the bytes, length -1 standing for null where a field may be null.
 * <ul>
 *   <li>0 put: key, value; 1 delete: key; 2 put-if-absent: key, value;</li>
 *   <li>3 expect: key, value or null (absent); 4 expect-range: from or null, to or null, 8-byte digest;</li>
 *   <li>5 expect-present: key.</li>
 * </ul>
 * Entries written before preconditions existed hold kinds 0 to 2 only and read the same; kind 5 is newer than
 * 3 and 4, so nodes must be upgraded before the clients that send it.
 */
final class BatchCodec {

    private static final byte VERSION = 1;
    private static final byte PUT = 0;
    private static final byte DELETE = 1;
    private static final byte PUT_IF_ABSENT = 2;
    private static final byte EXPECT = 3;
    private static final byte EXPECT_RANGE = 4;
    private static final byte EXPECT_PRESENT = 5;

    private BatchCodec() {
    }

    static byte[] encode(WriteBatch batch) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream((int) Math.min(Integer.MAX_VALUE - 64,
                batch.byteSize() + 9L * batch.size() + 1));
        DataOutputStream out = new DataOutputStream(bytes);
        try {
            out.writeByte(VERSION);
            batch.replay(new WriteBatch.Handler() {
                @Override
                public void put(byte[] key, byte[] value) {
                    write(out, PUT, key, value);
                }

                @Override
                public void delete(byte[] key) {
                    write(out, DELETE, key, null);
                }

                @Override
                public void putIfAbsent(byte[] key, byte[] value) {
                    write(out, PUT_IF_ABSENT, key, value);
                }

                @Override
                public void expect(byte[] key, byte[] value) {
                    try {
                        out.writeByte(EXPECT);
                        writeNullable(out, key);
                        writeNullable(out, value);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public void expectPresent(byte[] key) {
                    try {
                        out.writeByte(EXPECT_PRESENT);
                        writeNullable(out, key);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }

                @Override
                public void expectRange(byte[] from, byte[] to, long digest) {
                    try {
                        out.writeByte(EXPECT_RANGE);
                        writeNullable(out, from);
                        writeNullable(out, to);
                        out.writeLong(digest);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            });
            out.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    private static void write(DataOutputStream out, byte kind, byte[] key, byte[] value) {
        try {
            out.writeByte(kind);
            out.writeInt(key.length);
            out.write(key);
            if (value != null) {
                out.writeInt(value.length);
                out.write(value);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void writeNullable(DataOutputStream out, byte[] b) throws IOException {
        if (b == null) {
            out.writeInt(-1);
        } else {
            out.writeInt(b.length);
            out.write(b);
        }
    }

    static WriteBatch decode(byte[] data) {
        WriteBatch batch = new WriteBatch();
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(data))) {
            int version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("write batch entry has version " + version + ", expected " + VERSION);
            }
            while (in.available() > 0) {
                byte kind = in.readByte();
                if (kind == EXPECT) {
                    byte[] key = readNullable(in, data.length);
                    if (key == null) {
                        throw new IllegalArgumentException("write batch entry has a precondition without a key");
                    }
                    batch.expect(key, readNullable(in, data.length));
                    continue;
                }
                if (kind == EXPECT_PRESENT) {
                    batch.expectPresent(readBytes(in, data.length));
                    continue;
                }
                if (kind == EXPECT_RANGE) {
                    batch.expectRange(readNullable(in, data.length), readNullable(in, data.length), in.readLong());
                    continue;
                }
                byte[] key = readBytes(in, data.length);
                switch (kind) {
                    case PUT -> batch.put(key, readBytes(in, data.length));
                    case DELETE -> batch.delete(key);
                    case PUT_IF_ABSENT -> batch.putIfAbsent(key, readBytes(in, data.length));
                    default -> throw new IllegalArgumentException("write batch entry has unknown operation " + kind);
                }
            }
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated write batch entry of " + data.length + " bytes", e);
        }
        return batch;
    }

    private static byte[] readNullable(DataInputStream in, int limit) throws IOException {
        in.mark(4);
        if (in.readInt() == -1) {
            return null;
        }
        in.reset();
        return readBytes(in, limit);
    }

    private static byte[] readBytes(DataInputStream in, int limit) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > limit) {
            throw new IllegalArgumentException("write batch entry field length " + length + " outside 0.." + limit);
        }
        byte[] b = new byte[length];
        in.readFully(b);
        return b;
    }

    /** The key of a batch that is exactly one delete, else null: its result reports whether the key existed. */
    static byte[] singleDeleteKey(WriteBatch batch) {
        if (batch.size() != 1 || batch.hasExpectations()) {
            return null;
        }
        byte[][] key = new byte[1][];
        batch.replay(new WriteBatch.Handler() {
            @Override
            public void put(byte[] k, byte[] value) {
            }

            @Override
            public void delete(byte[] k) {
                key[0] = k;
            }

            @Override
            public void putIfAbsent(byte[] k, byte[] value) {
            }
        });
        return key[0];
    }
}
