package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A read-only check of a closed store directory ({@link Bitcask#check}): what open would find and do, and
 * every damaged byte range, without changing anything. {@link DirectoryRepair} acts on its findings.
 */
final class DirectoryCheck {

    /** A segment file whose header cannot be read. */
    record BadHeader(Path file, int id, ByteBuffer bytes, String reason) {
    }

    final Path dir;
    final CheckReport.Builder report = new CheckReport.Builder();
    /** {@code *.tmp} files an interrupted merge or hint write left. */
    final List<Path> orphanTemps = new ArrayList<>();
    /** Hint files without their data file. */
    final List<Path> orphanHints = new ArrayList<>();
    /** The newest segment file, if a crash left its header unwritten (open deletes it). */
    Path unwrittenNewest;
    final List<BadHeader> badHeaders = new ArrayList<>();
    /** Segments with a readable header, in replay order, and what scanning each found. */
    List<StoreAudit.SegmentResult> segments = List.of();
    /** The segment whose end may be a torn write. */
    Segment newestPlain;

    private DirectoryCheck(Path dir) {
        this.dir = dir;
    }

    /**
     * Checks {@code dir}; the caller holds its lock (or found it free and unlocked). Findings go to
     * {@link #report} and the fields.
     */
    static DirectoryCheck run(Path dir, MaintenanceListener listener) throws IOException {
        DirectoryCheck c = new DirectoryCheck(dir);
        c.scanFiles();
        c.scanSegments(listener);
        return c;
    }

    private void scanFiles() throws IOException {
        List<Path> all = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            files.forEach(all::add);
        }
        all.sort(null);
        for (Path f : all) {
            String name = f.getFileName().toString();
            if (name.endsWith(".tmp")) {
                orphanTemps.add(f);
                report.problem(f + ": temporary file left by an interrupted merge or hint write (open deletes it)");
            } else if (name.endsWith(HintFile.SUFFIX)
                    && !Files.exists(f.resolveSibling(name.replace(HintFile.SUFFIX, ".data")))) {
                orphanHints.add(f);
                report.problem(f + ": hint file without its data segment (open deletes it)");
            }
        }
    }

    private void scanSegments(MaintenanceListener listener) throws IOException {
        List<Path> paths = SegmentFiles.list(dir);
        List<Segment> readable = new ArrayList<>();
        for (int i = 0; i < paths.size(); i++) {
            Path f = paths.get(i);
            long size;
            try {
                Location.checkSegmentId(SegmentFiles.id(f), f);
                size = SegmentFiles.size(f);
            } catch (IOException e) {
                report.problem(e.getMessage());
                continue;
            }
            ByteBuffer head = SegmentFiles.headerBytes(f);
            try {
                SegmentHeader header = SegmentHeader.decode(head.duplicate(), f);
                readable.add(new Segment(SegmentFiles.id(f), f, header, size, null));
            } catch (IOException e) {
                if (i == paths.size() - 1 && SegmentFiles.isBlank(head)) {
                    unwrittenNewest = f;
                    report.note(f + ": header never written (created just before a crash; open deletes it)");
                } else {
                    badHeaders.add(new BadHeader(f, SegmentFiles.id(f), head, e.getMessage()));
                    report.problem(e.getMessage() + " (the whole segment is unreadable until its header is rebuilt)");
                }
            }
        }
        readable.sort(SegmentTable.REPLAY_ORDER);
        for (Segment s : readable) {
            if (!s.header().merged() && (newestPlain == null || s.id() > newestPlain.id())) {
                newestPlain = s;
            }
        }
        segments = new StoreAudit(report, listener).scanSegments(readable, newestPlain, null);
    }
}
