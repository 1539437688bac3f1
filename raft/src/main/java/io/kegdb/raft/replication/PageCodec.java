package io.kegdb.raft.replication;

import io.kegdb.engine.KeyValue;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** A page of scanned pairs as bytes: a 4-byte count, then per pair the key and the value, each length-prefixed. */
final class PageCodec {

    private PageCodec() {
    }

    static byte[] encode(List<KeyValue> page) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(page.size());
            for (KeyValue kv : page) {
                out.writeInt(kv.key().length);
                out.write(kv.key());
                out.writeInt(kv.value().length);
                out.write(kv.value());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static List<KeyValue> decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            int n = in.readInt();
            List<KeyValue> page = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                byte[] key = new byte[in.readInt()];
                in.readFully(key);
                byte[] value = new byte[in.readInt()];
                in.readFully(value);
                page.add(new KeyValue(key, value));
            }
            return page;
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated scan page of " + data.length + " bytes", e);
        }
    }
}
