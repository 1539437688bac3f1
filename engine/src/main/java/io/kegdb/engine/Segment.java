package io.kegdb.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * One data segment file, read through a memory mapping so that a get costs no system call.
 *
 * <p>The mapping is made on first use and may be dropped by {@link SegmentTable} to bound the number of
 * mapped files; a reader that still holds the old mapping keeps it alive until it is done (mappings are
 * released by the garbage collector), so dropping never pulls bytes from under a reader.
 */
final class Segment {

    private final int id;
    private volatile Path path;
    private final SegmentHeader header;
    private volatile long length;
    private volatile ByteBuffer map;
    private volatile boolean beingWritten;
    volatile boolean recentlyUsed;
    /** Bytes of records the keydir points at; changed only under the store's write lock. */
    private volatile long liveBytes;

    Segment(int id, Path path, SegmentHeader header, long length, ByteBuffer map) {
        this.id = id;
        this.path = path;
        this.header = header;
        this.length = length;
        this.map = map;
    }

    static String fileName(int id, String suffix) {
        return String.format("%09d%s", id, suffix);
    }

    int id() {
        return id;
    }

    Path path() {
        return path;
    }

    /** Follows a rename of the file (merge output moving from its temporary name). */
    void renamedTo(Path newPath) {
        this.path = newPath;
    }

    SegmentHeader header() {
        return header;
    }

    /** Bytes of valid data (header included). */
    long length() {
        return length;
    }

    void setLength(long length) {
        this.length = length;
    }

    long liveBytes() {
        return liveBytes;
    }

    /** Adds (or with a negative delta, removes) live bytes; callers hold the store's write lock. */
    void addLive(long delta) {
        liveBytes += delta;
    }

    /** Bytes of superseded records, tombstones and commit records: what merge would reclaim. */
    long deadBytes() {
        return Math.max(0, length - SegmentHeader.SIZE - liveBytes);
    }

    boolean isMapped() {
        return map != null;
    }

    /** Drops this segment's reference to its mapping; readers that hold it keep it. */
    synchronized void unmap() {
        if (!beingWritten) { // a writer's mapping stays (see useWriterMapping)
            map = null;
        }
    }

    /**
     * Reads go through the writer's mapping, which covers the segment's whole capacity, until
     * {@link #writerDone}. Meanwhile the segment grows, so the table must not drop that mapping: a mapping made
     * again for reading would cover only the length at that moment, and records appended after it would read
     * as running past the end.
     */
    synchronized void useWriterMapping(ByteBuffer mapping) {
        this.map = mapping;
        this.beingWritten = true;
    }

    /** The writer sealed or closed the segment: its length is final and the mapping may be dropped. */
    void writerDone() {
        beingWritten = false;
    }

    /** Whether a writer still appends to this segment (its mapping must stay). */
    boolean isBeingWritten() {
        return beingWritten;
    }

    /** The mapping of this segment's data, made now if needed. */
    ByteBuffer buffer() {
        ByteBuffer m = map;
        if (m == null) {
            m = mapNow();
        }
        if (!recentlyUsed) {
            recentlyUsed = true;
        }
        return m;
    }

    private synchronized ByteBuffer mapNow() {
        ByteBuffer m = map;
        if (m != null) {
            return m;
        }
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.READ)) {
            MappedByteBuffer mapped = MappingBudget.map(ch, FileChannel.MapMode.READ_ONLY, length);
            map = mapped;
            return mapped;
        } catch (IOException e) {
            throw new UncheckedIOException(path + ": cannot map segment for reading", e);
        }
    }

    /** Size in bytes of the record at {@code offset}. */
    int recordSize(int offset) {
        return RecordFormat.recordSize(buffer(), offset);
    }

    /**
     * The value of the put record at {@code offset}, after checking its CRC and that it holds {@code key}
     * ({@link #check}, in place: the value is copied out once, into an array of its own size).
     *
     * @throws UncheckedIOException with a {@link CorruptRecordException} naming the file and offset if the
     *                              record is damaged
     */
    byte[] readValue(int offset, byte[] key) {
        ByteBuffer b = buffer();
        int valueAt = check(b, offset, key, 0, key == null ? 0 : key.length, null);
        byte[] value = new byte[RecordFormat.valueLength(b, offset)];
        b.get(valueAt, value, 0, value.length);
        return value;
    }

    /**
     * Reads the put record at {@code offset} into {@code into}'s copy, checked there ({@link #check}); its value
     * is then {@code into}'s.
     *
     * @throws UncheckedIOException with a {@link CorruptRecordException} naming the file and offset if the
     *                              record is damaged
     */
    void read(int offset, byte[] key, int keyOffset, int keyLength, RecordRead into) {
        check(buffer(), offset, key, keyOffset, keyLength, into);
    }

    /**
     * The one record check every read of a value goes through, so that a read never returns unverified bytes:
     * the record at {@code offset} of {@code b} must be a put whose framing lies inside the segment's length,
     * whose CRC32C matches, and which holds the key {@code key[keyOffset, keyOffset + keyLength)} (null: any
     * key). Checked in place ({@code copy} null) or on {@code copy}'s copy of the record.
     *
     * @return where the value starts: in {@code b}, or in {@code copy}'s array
     */
    private int check(ByteBuffer b, int offset, byte[] key, int keyOffset, int keyLength, RecordRead copy) {
        int keyLen;
        try {
            keyLen = RecordFormat.keyLength(b, offset);
            int valueLen = RecordFormat.valueLength(b, offset);
            int size = RecordFormat.size(keyLen, valueLen);
            if (valueLen < 0 || offset + (long) size > length || !RecordFormat.isPut(RecordFormat.type(b, offset))
                    || !(copy == null ? RecordFormat.crcMatches(b, offset, size)
                            : copy.copyAndCheck(b, offset, size, keyLen))) {
                throw corrupt(offset, "checksum or framing mismatch");
            }
        } catch (IndexOutOfBoundsException e) {
            throw corrupt(offset, "record extends past the end of the segment");
        }
        if (key != null && (keyLen != keyLength || !(copy == null
                ? holdsKey(b, offset + RecordFormat.HEADER_SIZE, key, keyOffset, keyLength)
                : copy.holdsKey(key, keyOffset, keyLength)))) {
            throw corrupt(offset, "record holds a different key");
        }
        return copy == null ? offset + RecordFormat.HEADER_SIZE + keyLen : copy.valueOffset();
    }

    /** Whether {@code b} holds {@code key[from, from + length)} at {@code at}; read in place (no buffer views). */
    private static boolean holdsKey(ByteBuffer b, int at, byte[] key, int from, int length) {
        for (int i = 0; i < length; i++) {
            if (b.get(at + i) != key[from + i]) {
                return false;
            }
        }
        return true;
    }

    /** The key of the record at {@code offset} (framing already known to be valid). */
    byte[] readKey(int offset) {
        ByteBuffer b = buffer();
        byte[] key = new byte[RecordFormat.keyLength(b, offset)];
        b.get(offset + RecordFormat.HEADER_SIZE, key, 0, key.length);
        return key;
    }

    UncheckedIOException corrupt(int offset, String what) {
        return new UncheckedIOException(new CorruptRecordException(path, offset, what));
    }

    @Override
    public String toString() {
        return "Segment{" + path.getFileName() + ", order=" + header.order() + (header.merged() ? ", merged" : "")
                + ", length=" + length + '}';
    }
}
