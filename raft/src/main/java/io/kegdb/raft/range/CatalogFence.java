package io.kegdb.raft.range;

import io.kegdb.engine.WriteBatch;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The catalog version across ranges (docs/SCALE.md, "The catalog version across ranges"). Every SQL write
 * carries {@code expect(catalog version entry, its value at the plan's version)}; the entry lives in the system
 * span, which only the meta range holds. Every other range keeps a copy, its <b>catalog fence</b>: the entry's
 * value as of the last {@link Command fence command} its log applied, stored under {@link MetaKeys#LOCAL_FENCE}
 * in its data store (so in every snapshot). There a write naming catalog version {@code v} is refused as a
 * catalog change when the fence is above {@code v}, and admitted otherwise; a read's watched version entry is
 * answered with the fence.
 *
 * <p>The catalog's keys this relies on are written by the SQL layer: the version entry {@code 0000 'M'}, whose
 * value starts with the version (8 bytes, big-endian), and the record a {@code DROP TABLE} at version {@code v}
 * leaves of the keys it deletes, {@code 0000 'D' v} holding the span {@code [from, to)} (each a 4-byte length
 * and the bytes), written in the same batch as the version entry.
 */
public final class CatalogFence {

    /** The catalog's version entry, rewritten by every DDL. */
    public static final byte[] VERSION_KEY = {0, 0, 0, 0, 'M'};
    private static final byte[] DROP_PREFIX = {0, 0, 0, 0, 'D'};
    private static final byte COMMAND_FORMAT = 1;

    private CatalogFence() {
    }

    /** The catalog version a version entry's value names; 0 for none (no DDL yet, or no fence yet). */
    public static long version(byte[] entry) {
        return entry == null || entry.length < Long.BYTES ? 0 : ByteBuffer.wrap(entry).getLong();
    }

    /** Whether a range holds the catalog itself (so checks the version entry, and needs no fence). */
    public static boolean holdsCatalog(RangeDescriptor range) {
        return range.contains(VERSION_KEY);
    }

    /** The key of the record of what the DDL that made catalog version {@code version} deleted. */
    public static byte[] dropKey(long version) {
        return ByteBuffer.allocate(DROP_PREFIX.length + Long.BYTES).put(DROP_PREFIX).putLong(version).array();
    }

    /** A drop record's value: the span {@code [from, to)} of keys the DDL deleted. */
    public static byte[] encodeSpan(byte[] from, byte[] to) {
        return ByteBuffer.allocate(2 * Integer.BYTES + from.length + to.length)
                .putInt(from.length).put(from).putInt(to.length).put(to).array();
    }

    /**
     * The span a drop record holds, {@code {from, to}}.
     *
     * @throws IllegalArgumentException if the bytes are not a span
     */
    public static byte[][] decodeSpan(byte[] value) {
        try {
            ByteBuffer in = ByteBuffer.wrap(value);
            byte[] from = new byte[in.getInt()];
            in.get(from);
            byte[] to = new byte[in.getInt()];
            in.get(to);
            if (in.hasRemaining() || Arrays.compareUnsigned(from, to) >= 0) {
                throw new IllegalArgumentException("a drop record of " + value.length + " bytes is not a span");
            }
            return new byte[][]{from, to};
        } catch (RuntimeException e) {
            if (e instanceof IllegalArgumentException iae) {
                throw iae;
            }
            throw new IllegalArgumentException("a drop record of " + value.length + " bytes is not a span", e);
        }
    }

    /**
     * A fence command, applied in one range's log: the catalog version entry's value at version {@code v}
     * ({@code entry}), and the spans every DDL above the range's fence up to {@code v} deleted. Applying it
     * where the fence is below {@code v} stores {@code entry} as the fence and deletes the range's pairs in
     * those spans, in log order; elsewhere it changes nothing, so a replay or a second proposal is harmless.
     */
    public record Command(byte[] entry, List<byte[][]> spans) {

        public Command {
            entry = entry.clone();
            spans = List.copyOf(spans);
        }

        public long version() {
            return CatalogFence.version(entry);
        }

        public byte[] encode() {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                out.writeByte(COMMAND_FORMAT);
                out.writeInt(entry.length);
                out.write(entry);
                out.writeInt(spans.size());
                for (byte[][] span : spans) {
                    for (byte[] bound : span) {
                        out.writeInt(bound.length);
                        out.write(bound);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return bytes.toByteArray();
        }

        /** @throws IllegalArgumentException if the bytes are not a fence command of a known format */
        public static Command decode(byte[] data) {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
                byte format = in.readByte();
                if (format != COMMAND_FORMAT) {
                    throw new IllegalArgumentException("fence command has format " + format);
                }
                byte[] entry = bytes(in, data.length);
                int count = in.readInt();
                if (count < 0 || count > data.length) {
                    throw new IllegalArgumentException("fence command names " + count + " spans");
                }
                List<byte[][]> spans = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    spans.add(new byte[][]{bytes(in, data.length), bytes(in, data.length)});
                }
                if (in.available() > 0) {
                    throw new IllegalArgumentException("fence command has " + in.available() + " bytes left over");
                }
                return new Command(entry, spans);
            } catch (IOException e) {
                throw new IllegalArgumentException("truncated fence command of " + data.length + " bytes", e);
            }
        }

        private static byte[] bytes(DataInputStream in, int limit) throws IOException {
            int length = in.readInt();
            if (length < 0 || length > limit) {
                throw new IllegalArgumentException("fence command field length " + length + " outside 0.." + limit);
            }
            byte[] b = new byte[length];
            in.readFully(b);
            return b;
        }
    }

    /**
     * A write as a range without the catalog sees it: the version entry value its {@code expect} on
     * {@link #VERSION_KEY} names (null: absent), and the batch without that precondition.
     *
     * @param names whether the batch expects the version entry at all
     */
    public record Named(boolean names, byte[] expected, WriteBatch rest) {
    }

    /** Splits the catalog precondition off {@code batch} (see {@link Named}); the batch itself is unchanged. */
    public static Named named(WriteBatch batch) {
        WriteBatch rest = new WriteBatch();
        boolean[] names = {false};
        byte[][] expected = {null};
        batch.replay(new WriteBatch.Handler() {
            @Override
            public void put(byte[] key, byte[] value) {
                rest.put(key, value);
            }

            @Override
            public void delete(byte[] key) {
                rest.delete(key);
            }

            @Override
            public void putIfAbsent(byte[] key, byte[] value) {
                rest.putIfAbsent(key, value);
            }

            @Override
            public void expect(byte[] key, byte[] value) {
                if (Arrays.equals(key, VERSION_KEY) && !names[0]) {
                    names[0] = true;
                    expected[0] = value;
                } else {
                    // a second expect of the entry stays: outside the range's bounds, it makes the route stale
                    rest.expect(key, value);
                }
            }

            @Override
            public void expectPresent(byte[] key) {
                rest.expectPresent(key);
            }

            @Override
            public void expectRange(byte[] from, byte[] to, long digest) {
                rest.expectRange(from, to, digest);
            }
        });
        return new Named(names[0], expected[0], names[0] ? rest : batch);
    }

    /** Whether {@code batch} writes the version entry (a DDL), not merely expects it. */
    public static boolean changesVersion(WriteBatch batch) {
        boolean[] writes = {false};
        batch.replay(new WriteBatch.Handler() {
            @Override
            public void put(byte[] key, byte[] value) {
                writes[0] |= Arrays.equals(key, VERSION_KEY);
            }

            @Override
            public void delete(byte[] key) {
                writes[0] |= Arrays.equals(key, VERSION_KEY);
            }

            @Override
            public void putIfAbsent(byte[] key, byte[] value) {
                writes[0] |= Arrays.equals(key, VERSION_KEY);
            }

            @Override
            public void expect(byte[] key, byte[] value) {
            }

            @Override
            public void expectPresent(byte[] key) {
            }

            @Override
            public void expectRange(byte[] from, byte[] to, long digest) {
            }
        });
        return writes[0];
    }
}
