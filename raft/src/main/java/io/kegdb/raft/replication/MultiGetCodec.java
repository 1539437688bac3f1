package io.kegdb.raft.replication;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * A {@link KvRequest#MULTI_GET}'s keys and its answer's values as bytes: a 4-byte count, then per array a 4-byte
 * length (-1: null, an absent key's value) and its bytes. An answer holds the values of a prefix of the keys, in
 * their order, as many as fit in {@link #ANSWER_BYTES} (at least one): the caller asks again for the rest.
 */
final class MultiGetCodec {

    /** About how many value bytes one answer carries before the rest are left for another request. */
    static final int ANSWER_BYTES = 1 << 20;

    private MultiGetCodec() {
    }

    static byte[] encode(List<byte[]> arrays) {
        return encode(arrays, arrays.size());
    }

    /**
     * The first values of {@code values} that fit in {@code budget} bytes (at least one, so an answer always
     * moves the caller on), encoded.
     */
    static byte[] encodeAnswer(List<byte[]> values, int budget) {
        int n = 0;
        long bytes = 0;
        while (n < values.size()) {
            byte[] v = values.get(n);
            bytes += v == null ? 0 : v.length;
            if (n > 0 && bytes > budget) {
                break;
            }
            n++;
        }
        return encode(values, n);
    }

    private static byte[] encode(List<byte[]> arrays, int count) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(count);
            for (int i = 0; i < count; i++) {
                byte[] a = arrays.get(i);
                out.writeInt(a == null ? -1 : a.length);
                if (a != null) {
                    out.write(a);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static List<byte[]> decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            int n = in.readInt();
            if (n < 0) {
                throw new IOException("negative count " + n);
            }
            byte[][] out = new byte[n][];
            for (int i = 0; i < n; i++) {
                int length = in.readInt();
                if (length >= 0) {
                    out[i] = new byte[length];
                    in.readFully(out[i]);
                }
            }
            return Arrays.asList(out);
        } catch (IOException e) {
            throw new IllegalArgumentException("a multi-get list of " + data.length + " bytes does not decode", e);
        }
    }

    /** Fails as the store's own multi-get does on a null key, before anything is sent. */
    static void checkKeys(List<byte[]> keys) {
        for (int i = 0; i < keys.size(); i++) {
            if (keys.get(i) == null) {
                throw new IllegalArgumentException("key " + i + " is null");
            }
        }
    }
}
