package io.kegdb.raft.range;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * {@code SPLIT(at, newId, generation)} in a range's own log (docs/SCALE.md, "Splits"): the range at
 * {@code generation} splits at {@code at}; the keys from {@code at} on become range {@code newId}, replicated by
 * the Raft group {@code group} (named by the proposing leader, {@code NAME_r<newId>}, so that every replica
 * makes the same). A replica whose range is no longer at {@code generation} (a replay after the split, a
 * second proposal) applies it as a no-op.
 *
 * <p>Stored form: a format byte ({@value #FORMAT}), the new id and the generation (8 bytes each), the split key
 * (4-byte length and bytes) and the group (2-byte length and UTF-8 bytes).
 */
public record SplitCommand(byte[] at, long newId, long generation, String group) {

    private static final byte FORMAT = 1;

    public SplitCommand {
        at = at.clone();
    }

    @Override
    public byte[] at() {
        return at.clone();
    }

    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeLong(newId);
            out.writeLong(generation);
            out.writeInt(at.length);
            out.write(at);
            byte[] g = group.getBytes(StandardCharsets.UTF_8);
            out.writeShort(g.length);
            out.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** @throws IllegalArgumentException if the bytes are not a split command of a known format */
    public static SplitCommand decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            byte format = in.readByte();
            if (format != FORMAT) {
                throw new IllegalArgumentException("split command has format " + format);
            }
            long newId = in.readLong();
            long generation = in.readLong();
            int length = in.readInt();
            if (length < 0 || length > data.length) {
                throw new IllegalArgumentException("split key length " + length);
            }
            byte[] at = new byte[length];
            in.readFully(at);
            byte[] g = new byte[in.readUnsignedShort()];
            in.readFully(g);
            if (in.available() > 0) {
                throw new IllegalArgumentException("split command has " + in.available() + " bytes left over");
            }
            return new SplitCommand(at, newId, generation, new String(g, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated split command of " + data.length + " bytes", e);
        }
    }

    /** The group id of range {@code id} in the cluster whose meta range is group {@code name}. */
    public static String groupOf(String name, long id) {
        return id == RangeDescriptor.META_RANGE_ID ? name : name + "_r" + id;
    }
}
