package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.zip.CRC32C;

/**
 * The index of one sealed segment, so that opening a store reads keys and locations instead of all data.
 * Entries are sorted by key and hold each key once (its last committed record in the segment). Layout,
 * big-endian:
 *
 * <pre>
 * magic "KEGDBHNT" | version u16 | reserved u16 | segment length u64 | entries u32
 * entry*: keyLen u16 | flags u8 (1 = tombstone) | offset u32 | size u32 | key
 * crc32c u32 of everything before it
 * </pre>
 *
 * A hint that fails its CRC, or describes a segment of another length, is ignored (the data is scanned).
 */
final class HintFile {

    static final String SUFFIX = ".hint";
    private static final byte[] MAGIC = {'K', 'E', 'G', 'D', 'B', 'H', 'N', 'T'};
    private static final int HEADER = 8 + 2 + 2 + 8 + 4;
    private static final int ENTRY_HEADER = 2 + 1 + 4 + 4;
    private static final int WRITE_BUFFER = 64 << 10;

    private HintFile() {
    }

    static Path pathFor(Segment segment) {
        return segment.path().resolveSibling(Segment.fileName(segment.id(), SUFFIX));
    }

    /** Builds the hint of {@code segment} from its data and writes it atomically (temp file, fsync, rename). */
    static void write(FileLayer files, Segment segment) throws IOException {
        ByteBuffer buf = segment.buffer();
        int limit = (int) segment.length();
        LastRecords last = lastRecordsByKey(segment, buf, limit);
        long bytes = HEADER + 4;
        for (int i = 0; i < last.count(); i++) {
            bytes += ENTRY_HEADER + RecordFormat.keyLength(buf, last.offset(i));
        }
        if (bytes > Integer.MAX_VALUE) {
            throw new IOException(segment.path() + ": hint would exceed 2 GiB");
        }
        Path target = pathFor(segment);
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        // Streamed through a small buffer: a hint is written after every roll, while writers keep going, and
        // holding it whole would add tens of MiB to the heap each time.
        try (FileChannel ch = files.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            CRC32C crc = new CRC32C();
            ByteBuffer out = ByteBuffer.allocate(WRITE_BUFFER);
            out.put(MAGIC).putShort((short) 1).putShort((short) 0).putLong(limit).putInt(last.count());
            for (int i = 0; i < last.count(); i++) {
                int offset = last.offset(i);
                int keyLen = RecordFormat.keyLength(buf, offset);
                if (out.remaining() < ENTRY_HEADER + keyLen) {
                    drain(out, ch, crc);
                    if (out.remaining() < ENTRY_HEADER + keyLen) {
                        out = ByteBuffer.allocate(ENTRY_HEADER + keyLen);
                    }
                }
                out.putShort((short) keyLen);
                out.put(RecordFormat.isDelete(RecordFormat.type(buf, offset)) ? (byte) 1 : (byte) 0);
                out.putInt(offset).putInt(last.size(i));
                out.put(buf.slice(offset + RecordFormat.HEADER_SIZE, keyLen));
            }
            drain(out, ch, crc);
            out.putInt((int) crc.getValue()).flip();
            while (out.hasRemaining()) {
                ch.write(out);
            }
            ch.force(true);
        } catch (IOException e) {
            // On a full disk the partial hint would only hold space the data needs; open rescans instead.
            files.deleteIfExists(tmp);
            throw DiskFullException.classify(tmp, bytes, e);
        }
        files.move(tmp, target);
        files.syncDirectory(target.getParent());
    }


    /** Writes what {@code out} holds, adds it to the checksum, and empties it. */
    private static void drain(ByteBuffer out, FileChannel ch, CRC32C crc) throws IOException {
        crc.update(out.array(), 0, out.position());
        out.flip();
        while (out.hasRemaining()) {
            ch.write(out);
        }
        out.clear();
    }

    /** The last committed record of every key of a segment, in ascending key order. */
    record LastRecords(int[] offsets, int[] sizes) {
        int count() {
            return offsets.length;
        }

        int offset(int i) {
            return offsets[i];
        }

        int size(int i) {
            return sizes[i];
        }
    }

    /**
     * The last committed record of every key in the segment's data up to {@code limit}, in ascending key
     * order: what the hint lists.
     *
     * @throws IOException naming the file and offset if the data is damaged: a hint of the records before the
     *                     damage would let a later open skip the rest of the segment silently
     */
    static LastRecords lastRecordsByKey(Segment segment, ByteBuffer buf, int limit) throws IOException {
        int[][] found = {new int[1024], new int[1024]};
        int[] n = {0};
        SegmentScanner.Result scanned = SegmentScanner.scan(buf, limit, false, (type, offset, size) -> {
            if (n[0] == found[0].length) {
                found[0] = Arrays.copyOf(found[0], n[0] * 2);
                found[1] = Arrays.copyOf(found[1], n[0] * 2);
            }
            found[0][n[0]] = offset;
            found[1][n[0]++] = size;
        });
        if (!scanned.clean()) {
            throw new IOException(segment.path() + ": corrupt record at offset " + scanned.invalidAt()
                    + "; no hint written for a damaged segment");
        }
        int[] offsets = found[0];
        int[] sizes = found[1];
        int count = n[0];
        // Sort record indexes by key, then file position; an 8-byte key prefix settles most comparisons.
        long[] prefix = new long[count];
        int[] order = new int[count];
        for (int i = 0; i < count; i++) {
            prefix[i] = keyPrefix(buf, offsets[i]);
            order[i] = i;
        }
        IndexSort.sort(order, count, (x, y) -> {
            int c = Long.compareUnsigned(prefix[x], prefix[y]);
            if (c == 0) {
                c = compareKeys(buf, offsets[x], offsets[y]);
            }
            return c != 0 ? c : Integer.compare(offsets[x], offsets[y]);
        });
        // Keep the last record of each run of equal keys; the kept ones are compacted into order's prefix.
        int kept = 0;
        for (int i = 0; i < count; i++) {
            int x = order[i];
            if (i + 1 < count && prefix[x] == prefix[order[i + 1]]
                    && compareKeys(buf, offsets[x], offsets[order[i + 1]]) == 0) {
                continue; // a newer record of the same key follows
            }
            order[kept++] = x;
        }
        int[] lastOffsets = new int[kept];
        int[] lastSizes = new int[kept];
        for (int i = 0; i < kept; i++) {
            lastOffsets[i] = offsets[order[i]];
            lastSizes[i] = sizes[order[i]];
        }
        return new LastRecords(lastOffsets, lastSizes);
    }

    /**
     * What is wrong with {@code segment}'s hint file, or null if it has none or it lists exactly the segment's
     * last record per key. Used by consistency checks; open simply ignores a hint that fails its checks.
     */
    static String problem(Segment segment) throws IOException {
        Path path = pathFor(segment);
        if (!Files.exists(path)) {
            return null;
        }
        Cursor c = open(segment);
        if (c == null) {
            return path + ": fails its checksum, framing or length check (ignored on open)";
        }
        ByteBuffer buf = segment.buffer();
        SegmentScanner.Result scanned = SegmentScanner.scan(buf, (int) segment.length(), false, (t, o, n) -> { });
        if (!scanned.clean()) {
            return path + ": indexes a damaged segment (first damaged record at offset " + scanned.invalidAt()
                    + "); reads through it reach the damaged records";
        }
        LastRecords expected = lastRecordsByKey(segment, buf, (int) segment.length());
        if (c.count() != expected.count()) {
            return path + ": lists " + c.count() + " keys, the segment holds " + expected.count();
        }
        for (int i = 0; i < expected.count(); i++) {
            c.next();
            int offset = expected.offset(i);
            int keyLen = RecordFormat.keyLength(buf, offset);
            boolean tombstone = RecordFormat.isDelete(RecordFormat.type(buf, offset));
            byte[] key = c.key();
            if (c.offset() != offset || c.size() != expected.size(i) || c.tombstone() != tombstone
                    || key.length != keyLen
                    || !buf.slice(offset + RecordFormat.HEADER_SIZE, keyLen).equals(ByteBuffer.wrap(key))) {
                return path + ": entry at segment offset " + c.offset() + " disagrees with the segment's record at offset "
                        + offset;
            }
        }
        return null;
    }

    /**
     * A cursor over {@code segment}'s hint, whose checksum and every entry's bounds were verified up front,
     * or null if there is no usable hint.
     */
    static Cursor open(Segment segment) throws IOException {
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(pathFor(segment));
        } catch (NoSuchFileException e) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes);
        if (bytes.length < HEADER + 4 || !Arrays.equals(bytes, 0, 8, MAGIC, 0, 8)) {
            return null;
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        if ((int) crc.getValue() != b.getInt(bytes.length - 4) || b.getShort(8) != 1
                || b.getLong(12) != segment.length()) {
            return null;
        }
        int n = b.getInt(20);
        int p = HEADER;
        int end = bytes.length - 4;
        for (int i = 0; i < n; i++) {
            if (p + ENTRY_HEADER > end) {
                return null;
            }
            int keyLen = b.getShort(p) & 0xFFFF;
            int offset = b.getInt(p + 3);
            int size = b.getInt(p + 7);
            if (p + ENTRY_HEADER + keyLen > end || offset < SegmentHeader.SIZE || size < RecordFormat.HEADER_SIZE
                    || (long) offset + size > segment.length()) {
                return null;
            }
            p += ENTRY_HEADER + keyLen;
        }
        return p == end ? new Cursor(bytes, n) : null;
    }

    /** Walks a verified hint's entries in key order without copying keys until asked. */
    static final class Cursor {
        private final byte[] bytes;
        private final int count;
        private int next = HEADER;
        private int at = -1;
        private long prefix;

        private Cursor(byte[] bytes, int count) {
            this.bytes = bytes;
            this.count = count;
        }

        int count() {
            return count;
        }

        boolean next() {
            if (next >= bytes.length - 4) {
                at = -1;
                return false;
            }
            at = next;
            int len = keyLength();
            next += ENTRY_HEADER + len;
            // The first 8 key bytes as an unsigned number settle most comparisons of a k-way merge.
            long p = 0;
            int from = at + ENTRY_HEADER;
            for (int i = 0; i < 8; i++) {
                p = (p << 8) | (i < len ? bytes[from + i] & 0xFF : 0);
            }
            prefix = p;
            return true;
        }

        private int keyLength() {
            return ((bytes[at] & 0xFF) << 8) | (bytes[at + 1] & 0xFF);
        }

        boolean tombstone() {
            return bytes[at + 2] == 1;
        }

        int offset() {
            return ByteBuffer.wrap(bytes).getInt(at + 3);
        }

        int size() {
            return ByteBuffer.wrap(bytes).getInt(at + 7);
        }

        byte[] key() {
            return Arrays.copyOfRange(bytes, at + ENTRY_HEADER, at + ENTRY_HEADER + keyLength());
        }

        /** Compares the current keys of two cursors as unsigned bytes. */
        static int compareKeys(Cursor a, Cursor b) {
            int c = Long.compareUnsigned(a.prefix, b.prefix);
            if (c != 0) {
                return c;
            }
            int fa = a.at + ENTRY_HEADER;
            int fb = b.at + ENTRY_HEADER;
            return Arrays.compareUnsigned(a.bytes, fa, fa + a.keyLength(), b.bytes, fb, fb + b.keyLength());
        }
    }

    static void delete(FileLayer files, Segment segment) throws IOException {
        files.deleteIfExists(pathFor(segment));
    }

    /** The first 8 key bytes as an unsigned-comparable long, zero-padded; key length breaks ties later. */
    private static long keyPrefix(ByteBuffer buf, int offset) {
        int len = RecordFormat.keyLength(buf, offset);
        long p = 0;
        for (int i = 0; i < 8; i++) {
            p = (p << 8) | (i < len ? buf.get(offset + RecordFormat.HEADER_SIZE + i) & 0xFF : 0);
        }
        return p;
    }

    /**
     * Compares two records' keys as unsigned bytes, eight at a time, without a slice per call: the sort runs
     * it for every pair whose 8-byte prefixes tie, which is most pairs of a table with BIGINT keys (keyspace
     * id and the key's high bytes). With a slice per call it was about 5% of the Java samples of
     * {@code TlsClusterBench}'s process.
     */
    private static int compareKeys(ByteBuffer buf, int a, int b) {
        int la = RecordFormat.keyLength(buf, a);
        int lb = RecordFormat.keyLength(buf, b);
        int n = Math.min(la, lb);
        int pa = a + RecordFormat.HEADER_SIZE;
        int pb = b + RecordFormat.HEADER_SIZE;
        boolean bigEndian = buf.order() == ByteOrder.BIG_ENDIAN;
        int i = 0;
        for (; i + Long.BYTES <= n; i += Long.BYTES) {
            long x = buf.getLong(pa + i);
            long y = buf.getLong(pb + i);
            if (x != y) {
                return bigEndian ? Long.compareUnsigned(x, y) : Long.compareUnsigned(Long.reverseBytes(x), Long.reverseBytes(y));
            }
        }
        for (; i < n; i++) {
            int c = Byte.toUnsignedInt(buf.get(pa + i)) - Byte.toUnsignedInt(buf.get(pb + i));
            if (c != 0) {
                return c;
            }
        }
        return la - lb;
    }
}
