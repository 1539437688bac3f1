package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
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

    /** One hint entry. */
    record Entry(byte[] key, boolean tombstone, int offset, int size) {
    }

    private HintFile() {
    }

    static Path pathFor(Segment segment) {
        return segment.path().resolveSibling(Segment.fileName(segment.id(), SUFFIX));
    }

    /** Builds the hint of {@code segment} from its data and writes it atomically (temp file, fsync, rename). */
    static void write(Segment segment) throws IOException {
        ByteBuffer buf = segment.buffer();
        int limit = (int) segment.length();
        List<int[]> records = new ArrayList<>();
        SegmentScanner.scan(buf, limit, false, (type, offset, size) -> records.add(new int[] {offset, size}));
        Comparator<int[]> byKey = (a, b) -> compareKeys(buf, a[0], b[0]);
        // Stable sort keeps file order among equal keys, so the last one of a run is the newest.
        records.sort(byKey);
        List<int[]> last = new ArrayList<>();
        for (int i = 0; i < records.size(); i++) {
            if (i + 1 < records.size() && byKey.compare(records.get(i), records.get(i + 1)) == 0) {
                continue;
            }
            last.add(records.get(i));
        }
        long bytes = HEADER + 4;
        for (int[] r : last) {
            bytes += ENTRY_HEADER + RecordFormat.keyLength(buf, r[0]);
        }
        if (bytes > Integer.MAX_VALUE) {
            throw new IOException(segment.path() + ": hint would exceed 2 GiB");
        }
        ByteBuffer out = ByteBuffer.allocate((int) bytes);
        out.put(MAGIC).putShort((short) 1).putShort((short) 0).putLong(limit).putInt(last.size());
        for (int[] r : last) {
            int keyLen = RecordFormat.keyLength(buf, r[0]);
            out.putShort((short) keyLen);
            out.put(RecordFormat.isDelete(RecordFormat.type(buf, r[0])) ? (byte) 1 : (byte) 0);
            out.putInt(r[0]).putInt(r[1]);
            out.put(buf.slice(r[0] + RecordFormat.HEADER_SIZE, keyLen));
        }
        CRC32C crc = new CRC32C();
        crc.update(out.array(), 0, out.position());
        out.putInt((int) crc.getValue());
        out.flip();
        Path target = pathFor(segment);
        Path tmp = target.resolveSibling(target.getFileName() + ".tmp");
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                StandardOpenOption.WRITE)) {
            while (out.hasRemaining()) {
                ch.write(out);
            }
            ch.force(true);
        }
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        Directories.sync(target.getParent());
    }

    /** The entries of {@code segment}'s hint, or null if there is no usable hint. */
    static List<Entry> read(Segment segment) throws IOException {
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
        List<Entry> entries = new ArrayList<>(n);
        b.position(HEADER);
        for (int i = 0; i < n; i++) {
            if (b.remaining() < ENTRY_HEADER + 4) {
                return null;
            }
            int keyLen = b.getShort() & 0xFFFF;
            boolean tombstone = b.get() == 1;
            int offset = b.getInt();
            int size = b.getInt();
            if (b.remaining() < keyLen + 4 || offset < SegmentHeader.SIZE || size < RecordFormat.HEADER_SIZE
                    || (long) offset + size > segment.length()) {
                return null;
            }
            byte[] key = new byte[keyLen];
            b.get(key);
            entries.add(new Entry(key, tombstone, offset, size));
        }
        return b.remaining() == 4 ? entries : null;
    }

    static void delete(Segment segment) throws IOException {
        Files.deleteIfExists(pathFor(segment));
    }

    private static int compareKeys(ByteBuffer buf, int a, int b) {
        int la = RecordFormat.keyLength(buf, a);
        int lb = RecordFormat.keyLength(buf, b);
        ByteBuffer x = buf.slice(a + RecordFormat.HEADER_SIZE, la);
        ByteBuffer y = buf.slice(b + RecordFormat.HEADER_SIZE, lb);
        int i = x.mismatch(y);
        if (i < 0) {
            return 0;
        }
        if (i >= la || i >= lb) {
            return la - lb;
        }
        // Keys order as unsigned bytes (ByteBuffer.compareTo would compare them signed).
        return Byte.toUnsignedInt(x.get(i)) - Byte.toUnsignedInt(y.get(i));
    }
}
