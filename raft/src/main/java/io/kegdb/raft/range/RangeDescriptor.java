package io.kegdb.raft.range;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;

/**
 * What the cluster knows of one range (docs/SCALE.md, "Descriptors and where they live"): its id, its bounds
 * {@code [start, end)} in unsigned-byte key order (an empty start: from the first key; a null end: to the
 * last), its generation (bumped by a split), its replica version (bumped by a move) and its replicas as
 * {@code host:port}. Immutable; the byte arrays are copied in and out.
 *
 * <p>Stored form ({@link #encode}): a format byte ({@value #FORMAT}), the id (8 bytes), the start (4-byte
 * length and bytes), the end (4-byte length and bytes, -1 for none), the generation and the replica version
 * (8 bytes each), the number of replicas (4 bytes) and each as a UTF-8 string (2-byte length and bytes); all
 * big-endian.
 */
public final class RangeDescriptor {

    static final byte FORMAT = 1;
    /** The meta range's id: range 1 is the Raft group {@code NAME} itself. */
    public static final long META_RANGE_ID = 1;

    private final long id;
    private final byte[] start;
    private final byte[] end;
    private final long generation;
    private final long replicaVersion;
    private final List<String> replicas;

    /**
     * @param start the first key of the range (empty: from the first key of the key space)
     * @param end   the first key after the range, or null for the last range
     * @throws IllegalArgumentException if the id is not positive, a version is negative, the bounds are out of
     *                                  order or empty, or a replica is not {@code host:port}
     */
    public RangeDescriptor(long id, byte[] start, byte[] end, long generation, long replicaVersion,
                           List<String> replicas) {
        if (id <= 0) {
            throw new IllegalArgumentException("a range id is positive, not " + id);
        }
        if (generation < 0 || replicaVersion < 0) {
            throw new IllegalArgumentException("generation and replica version are not negative: " + generation
                    + ", " + replicaVersion);
        }
        Objects.requireNonNull(start, "start");
        if (end != null && Arrays.compareUnsigned(start, end) >= 0) {
            throw new IllegalArgumentException("range " + id + " is empty: start " + hex(start) + " is not below end "
                    + hex(end));
        }
        for (String r : Objects.requireNonNull(replicas, "replicas")) {
            int colon = r == null ? -1 : r.lastIndexOf(':');
            if (colon <= 0 || colon == r.length() - 1) {
                throw new IllegalArgumentException("a replica is host:port, not " + r);
            }
        }
        this.id = id;
        this.start = start.clone();
        this.end = end == null ? null : end.clone();
        this.generation = generation;
        this.replicaVersion = replicaVersion;
        this.replicas = List.copyOf(replicas);
    }

    public long id() {
        return id;
    }

    /** The first key of the range; empty for the first range. */
    public byte[] start() {
        return start.clone();
    }

    /** The first key after the range; null for the last range. */
    public byte[] end() {
        return end == null ? null : end.clone();
    }

    public long generation() {
        return generation;
    }

    public long replicaVersion() {
        return replicaVersion;
    }

    /** The replicas, {@code host:port} each. */
    public List<String> replicas() {
        return replicas;
    }

    /** Whether {@code key} lies within {@code [start, end)}. */
    public boolean contains(byte[] key) {
        return Arrays.compareUnsigned(key, start) >= 0 && (end == null || Arrays.compareUnsigned(key, end) < 0);
    }

    /**
     * Whether {@code [from, to)} lies within the range; a null bound is open (from the first key, to the
     * last), so it lies within only a range open on that side.
     */
    public boolean containsSpan(byte[] from, byte[] to) {
        boolean startInside = from == null ? start.length == 0 : Arrays.compareUnsigned(from, start) >= 0;
        boolean endInside = to == null ? end == null : end == null || Arrays.compareUnsigned(to, end) <= 0;
        return startInside && endInside;
    }

    /**
     * The descriptor every cluster begins with: the meta range (range 1, the group {@code NAME} itself) over
     * the whole key space, generation 1, replica version 1.
     */
    public static RangeDescriptor initial(List<String> replicas) {
        return new RangeDescriptor(META_RANGE_ID, new byte[0], null, 1, 1, replicas);
    }

    /**
     * A bound as people read it: printable ASCII as is (a backslash doubled), any other byte as {@code \xNN};
     * the empty key as the empty string.
     */
    public static String printable(byte[] key) {
        StringBuilder out = new StringBuilder(key.length * 2);
        for (byte b : key) {
            int c = b & 0xff;
            if (c == '\\') {
                out.append("\\\\");
            } else if (c >= 0x20 && c < 0x7f) {
                out.append((char) c);
            } else {
                out.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            }
        }
        return out.toString();
    }

    /**
     * The two ranges a split at {@code at} makes (docs/SCALE.md, "Splits"): this range narrowed to
     * {@code [start, at)} and range {@code newId} over {@code [at, end)}, both at the next generation, with this
     * range's replicas.
     *
     * @throws IllegalArgumentException if {@code at} is not strictly inside the range, lies in the system span
     *                                  (which never splits), or {@code newId} is this range's id
     */
    public RangeDescriptor[] split(byte[] at, long newId) {
        checkSplit(at);
        if (newId == id) {
            throw new IllegalArgumentException("range " + id + " cannot split into itself");
        }
        return new RangeDescriptor[]{
            new RangeDescriptor(id, start, at, generation + 1, replicaVersion, replicas),
            new RangeDescriptor(newId, at, end, generation + 1, replicaVersion, replicas)};
    }

    /**
     * Checks that the range can split at {@code at}.
     *
     * @throws IllegalArgumentException if {@code at} is not strictly inside the range or lies in the system span
     */
    public void checkSplit(byte[] at) {
        if (Arrays.compareUnsigned(at, MetaKeys.SYSTEM_SPAN_END) < 0) {
            throw new IllegalArgumentException("the system span never splits: " + hex(at) + " is inside it");
        }
        if (!contains(at) || Arrays.equals(at, start)) {
            throw new IllegalArgumentException(hex(at) + " is not strictly inside " + this);
        }
    }

    /** The key this descriptor is stored under in the meta range ({@link MetaKeys#descriptorKey}). */
    public byte[] metaKey() {
        return MetaKeys.descriptorKey(end);
    }

    /** The stored form (see the class comment). */
    public byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + start.length + (end == null ? 0 : end.length));
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(FORMAT);
            out.writeLong(id);
            out.writeInt(start.length);
            out.write(start);
            if (end == null) {
                out.writeInt(-1);
            } else {
                out.writeInt(end.length);
                out.write(end);
            }
            out.writeLong(generation);
            out.writeLong(replicaVersion);
            out.writeInt(replicas.size());
            for (String r : replicas) {
                byte[] b = r.getBytes(StandardCharsets.UTF_8);
                out.writeShort(b.length);
                out.write(b);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /**
     * A descriptor from its stored form.
     *
     * @throws IllegalArgumentException if the bytes are not a descriptor of a known format (truncated, a
     *                                  length out of bounds, bytes left over) or describe an invalid range
     */
    public static RangeDescriptor decode(byte[] data) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            byte format = in.readByte();
            if (format != FORMAT) {
                throw new IllegalArgumentException("range descriptor has format " + format + ", expected " + FORMAT);
            }
            long id = in.readLong();
            byte[] start = bytes(in, in.readInt(), data.length);
            int endLength = in.readInt();
            byte[] end = endLength == -1 ? null : bytes(in, endLength, data.length);
            long generation = in.readLong();
            long replicaVersion = in.readLong();
            int count = in.readInt();
            if (count < 0 || count > data.length) {
                throw new IllegalArgumentException("range descriptor names " + count + " replicas");
            }
            List<String> replicas = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                replicas.add(new String(bytes(in, in.readUnsignedShort(), data.length), StandardCharsets.UTF_8));
            }
            if (in.available() > 0) {
                throw new IllegalArgumentException("range descriptor has " + in.available() + " bytes left over");
            }
            return new RangeDescriptor(id, start, end, generation, replicaVersion, replicas);
        } catch (IOException e) {
            throw new IllegalArgumentException("truncated range descriptor of " + data.length + " bytes", e);
        }
    }

    private static byte[] bytes(DataInputStream in, int length, int limit) throws IOException {
        if (length < 0 || length > limit) {
            throw new IllegalArgumentException("range descriptor field length " + length + " outside 0.." + limit);
        }
        byte[] b = new byte[length];
        in.readFully(b);
        return b;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RangeDescriptor d && id == d.id && generation == d.generation
                && replicaVersion == d.replicaVersion && Arrays.equals(start, d.start) && Arrays.equals(end, d.end)
                && replicas.equals(d.replicas);
    }

    @Override
    public int hashCode() {
        return Long.hashCode(id) * 31 + Long.hashCode(generation);
    }

    @Override
    public String toString() {
        return "range " + id + " [" + hex(start) + ", " + (end == null ? "end" : hex(end)) + ") generation "
                + generation + " replicas v" + replicaVersion + " " + replicas;
    }

    private static String hex(byte[] b) {
        return b.length == 0 ? "start" : "0x" + HexFormat.of().formatHex(b);
    }
}
