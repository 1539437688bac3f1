package io.kegdb.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Rebuilds the keydir when a store opens: segments replay oldest data first (see {@link SegmentHeader});
 * sealed segments through their hint files where those check out, otherwise by scanning records. The
 * newest plain segment may end in a torn write, which is cut off; damage anywhere else fails the open
 * with the file and offset, unless the options ask for repair.
 *
 * <p>How much of the newest segment may be torn: a power cut keeps what was fsynced and, of what was written
 * after, any pages in any order, so a hole may be followed by valid records. At or above the segment's
 * durable mark ({@link SegmentHeader}) that is a torn tail, cut at the first damage (so a crash never keeps a
 * newer write without the older ones); below it, fsynced data is damaged only by the disk, and damage
 * followed by valid records fails the open as for a sealed segment.
 */
final class Recovery {

    private static final System.Logger LOG = System.getLogger(Recovery.class.getName());

    /**
     * What open needs from recovery; {@code lastHinted}: the newest plain segment has a hint that checks out
     * against it as recovery left it (a clean close wrote it, and nothing was cut off since).
     */
    record Result(KeyDir keyDir, SegmentTable table, Segment last, int maxId, boolean lastHinted) {
    }

    private final Path dir;
    private final FileLayer files;
    private final BitcaskOptions options;
    private final SegmentTable table;
    private KeyDir keyDir;

    private Recovery(Path dir, FileLayer files, BitcaskOptions options) {
        this.dir = dir;
        this.files = files;
        this.options = options;
        this.table = new SegmentTable(options.maxOpenFiles());
    }

    static Result run(Path dir, FileLayer files, BitcaskOptions options) throws IOException {
        return new Recovery(dir, files, options).run();
    }

    private Result run() throws IOException {
        if (!options.readOnly()) {
            removeLeftovers();
        }
        List<Segment> segments = openSegments();
        segments.sort(SegmentTable.REPLAY_ORDER);
        Segment last = null;
        int maxId = 0;
        for (Segment s : segments) {
            maxId = Math.max(maxId, s.id());
            if (!s.header().merged() && (last == null || s.id() > last.id())) {
                last = s;
            }
            table.add(s);
        }
        // The longest run of segments, oldest first, whose hints check out is bulk-loaded; a clean close
        // leaves a hint for the newest segment too, so usually that is all of them.
        List<HintFile.Cursor> hints = readHints(segments);
        int prefix = 0;
        long hinted = 0;
        while (prefix < hints.size() && hints.get(prefix) != null) {
            hinted += hints.get(prefix++).count();
        }
        long lastLength = last == null ? -1 : last.length();
        boolean lastHinted = last != null && hints.get(segments.indexOf(last)) != null;
        CompactKeyDir.Loader loader = CompactKeyDir.loader(hinted);
        HintMerge.merge(segments.subList(0, prefix), hints.subList(0, prefix), loader::add);
        keyDir = loader.build();
        for (int i = prefix; i < segments.size(); i++) {
            Segment s = segments.get(i);
            if (s == last) {
                recoverTail(s);
            } else {
                recoverSealed(s, hints.get(i));
            }
        }
        table.enforceBound();
        return new Result(keyDir, table, last, maxId, lastHinted && last.length() == lastLength);
    }

    /** Every segment's verified hint (null where there is none), read and checked in parallel. */
    private static List<HintFile.Cursor> readHints(List<Segment> segments) throws IOException {
        try {
            return segments.parallelStream().map(s -> {
                try {
                    return HintFile.open(s);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }).toList();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** Removes what an interrupted merge or hint write left: temp files, hints without data. */
    private void removeLeftovers() throws IOException {
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
            for (Path f : entries) {
                String name = f.getFileName().toString();
                if (name.endsWith(".tmp")) {
                    LOG.log(Level.INFO, "removing unfinished file {0}", f);
                    files.deleteIfExists(f);
                } else if (name.endsWith(HintFile.SUFFIX)
                        && !Files.exists(f.resolveSibling(name.replace(HintFile.SUFFIX, ".data")))) {
                    files.deleteIfExists(f);
                }
            }
        }
    }

    private List<Segment> openSegments() throws IOException {
        List<Path> paths = SegmentFiles.list(dir);
        List<Segment> segments = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            Path f = paths.get(i);
            long size = SegmentFiles.size(f);
            ByteBuffer head = SegmentFiles.headerBytes(f);
            SegmentHeader header;
            try {
                header = SegmentHeader.decode(head, f);
            } catch (IOException e) {
                boolean newest = i == paths.size() - 1;
                if (newest && !options.readOnly() && SegmentFiles.isBlank(head)) {
                    // Created but never written before a crash: nothing in it was ever acknowledged.
                    LOG.log(Level.WARNING, "removing segment with an unwritten header {0}", f);
                    files.deleteIfExists(f);
                    continue;
                }
                throw e;
            }
            segments.add(new Segment(Location.checkSegmentId(SegmentFiles.id(f), f), f, header, size, null));
        }
        return segments;
    }

    /** Replays a sealed segment after the bulk-loaded run: through its hint if it has one, else its records. */
    private void recoverSealed(Segment s, HintFile.Cursor hint) throws IOException {
        if (hint != null) {
            while (hint.next()) {
                apply(s, hint.key(), hint.tombstone(), hint.offset(), hint.size());
            }
            return;
        }
        SegmentScanner.Result r = scan(s);
        if (!r.clean()) {
            if (!options.repair()) {
                throw new IOException(s.path() + ": corrupt record at offset " + r.invalidAt()
                        + " in a sealed segment (open with repair to skip damaged records)");
            }
            LOG.log(Level.WARNING, "{0}: skipped {1} damaged region(s), first at offset {2}",
                    s.path(), r.skipped(), r.invalidAt());
        }
    }

    private void recoverTail(Segment s) throws IOException {
        SegmentScanner.Result r = scan(s);
        if (r.clean()) {
            return;
        }
        ByteBuffer buf = s.buffer();
        if (!options.repair() && r.badAt() < s.length() && r.badAt() < s.header().tornFrom()) {
            int beyond = SegmentScanner.nextValidRecord(buf, r.badAt() + 1, (int) s.length());
            if (beyond >= 0) {
                throw new IOException(s.path() + ": corrupt record at offset " + r.badAt()
                        + " followed by valid records at offset " + beyond
                        + " (open with repair to skip damaged records)");
            }
        }
        if (options.readOnly()) {
            s.setLength(r.validEnd());
            return;
        }
        LOG.log(Level.WARNING, "{0}: truncating torn tail at offset {1} ({2} bytes)",
                s.path(), r.validEnd(), s.length() - r.validEnd());
        cutTail(files, s, r.validEnd());
        s.setLength(r.validEnd());
    }

    /**
     * Truncates segment {@code s} (unmapped first) at {@code at}, durably. A mark left above the cut is
     * lowered before the write path's first append to the segment ({@link SegmentWriter#reopen}); a hint,
     * which now describes a longer segment, is deleted by the write path.
     */
    static void cutTail(FileLayer files, Segment s, int at) throws IOException {
        s.unmap();
        try (FileChannel ch = files.open(s.path(), StandardOpenOption.WRITE)) {
            ch.truncate(at);
            ch.force(true);
        }
    }

    private SegmentScanner.Result scan(Segment s) {
        ByteBuffer buf = s.buffer();
        return SegmentScanner.scan(buf, (int) s.length(), options.repair(), (type, offset, size) -> {
            byte[] key = new byte[RecordFormat.keyLength(buf, offset)];
            buf.get(offset + RecordFormat.HEADER_SIZE, key, 0, key.length);
            apply(s, key, RecordFormat.isDelete(type), offset, size);
        });
    }

    private void apply(Segment s, byte[] key, boolean tombstone, int offset, int size) {
        long prev = tombstone ? keyDir.remove(key) : keyDir.put(key, Location.of(s.id(), offset));
        if (!tombstone) {
            s.addLive(size);
        }
        if (prev != KeyDir.NONE) {
            Segment old = table.get(Location.segment(prev));
            old.addLive(-old.recordSize(Location.offset(prev)));
        }
    }
}
