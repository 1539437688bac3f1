package io.kegdb.raft.replication;

import io.kegdb.engine.WriteBatch;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The bytes of one Raft log entry: a {@link WriteBatch} in operation order. Format: a version byte, then per
 * operation a kind byte (0 put, 1 delete, 2 put-if-absent), the key and, except for delete, the value, each
 * as a 4-byte big-endian length and the bytes.
 */
final class BatchCodec {

    private static final byte VERSION = 1;
    private static final byte PUT = 0;
    private static final byte DELETE = 1;
    private static final byte PUT_IF_ABSENT = 2;

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

    static WriteBatch decode(byte[] data) {
        WriteBatch batch = new WriteBatch();
        try (DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(data))) {
            int version = in.readByte();
            if (version != VERSION) {
                throw new IllegalArgumentException("write batch entry has version " + version + ", expected " + VERSION);
            }
            while (in.available() > 0) {
                byte kind = in.readByte();
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

    private static byte[] readBytes(DataInputStream in, int limit) throws IOException {
        int length = in.readInt();
        if (length < 0 || length > limit) {
            throw new IllegalArgumentException("write batch entry field length " + length + " outside 0.." + limit);
        }
        byte[] b = new byte[length];
        in.readFully(b);
        return b;
    }

    /** True if replaying {@code batch} twice leaves what replaying it once does: it has no put-if-absent. */
    static boolean isRepeatable(WriteBatch batch) {
        boolean[] conditional = new boolean[1];
        batch.replay(new WriteBatch.Handler() {
            @Override
            public void put(byte[] key, byte[] value) {
            }

            @Override
            public void delete(byte[] key) {
            }

            @Override
            public void putIfAbsent(byte[] key, byte[] value) {
                conditional[0] = true;
            }
        });
        return !conditional[0];
    }

    /** The key of a batch that is exactly one delete, else null: its result reports whether the key existed. */
    static byte[] singleDeleteKey(WriteBatch batch) {
        if (batch.size() != 1) {
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
