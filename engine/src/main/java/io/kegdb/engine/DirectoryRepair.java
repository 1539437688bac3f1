package io.kegdb.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * Fixes what {@link DirectoryCheck} found in a closed store ({@link Bitcask#repair}), keeping every intact
 * committed record: removes leftovers, rebuilds unreadable segment headers, truncates a torn tail, rewrites a
 * damaged segment without its damaged regions, and deletes hints that do not match their segment (open
 * rebuilds them). Every change is made crash-safely (a rewritten segment replaces the old one by an atomic
 * rename) and listed in the report.
 */
final class DirectoryRepair {

    private final Path dir;
    private final MaintenanceListener listener;
    private final List<String> changes = new ArrayList<>();
    private final List<String> found = new ArrayList<>();

    private DirectoryRepair(Path dir, MaintenanceListener listener) {
        this.dir = dir;
        this.listener = listener;
    }

    /** Repairs {@code dir}, whose lock the caller holds exclusively; the report's problems are those left. */
    static CheckReport run(Path dir, MaintenanceListener listener) throws IOException {
        return new DirectoryRepair(dir, listener).run();
    }

    private CheckReport run() throws IOException {
        DirectoryCheck first = DirectoryCheck.run(dir, MaintenanceListener.NONE);
        found.addAll(first.report.problems());
        for (Path f : first.orphanTemps) {
            delete(f, "temporary file left by an interrupted merge or hint write");
        }
        for (Path f : first.orphanHints) {
            delete(f, "hint file without its data segment");
        }
        if (first.unwrittenNewest != null) {
            delete(first.unwrittenNewest, "segment whose header was never written");
        }
        for (DirectoryCheck.BadHeader h : first.badHeaders) {
            rebuildHeader(h);
        }
        // Headers rebuilt: look again, so those segments are scanned too.
        DirectoryCheck second = first.badHeaders.isEmpty() ? first : DirectoryCheck.run(dir, MaintenanceListener.NONE);
        long total = 0;
        for (StoreAudit.SegmentResult r : second.segments) {
            total += r.segment().length();
        }
        long done = 0;
        int n = 0;
        for (StoreAudit.SegmentResult r : second.segments) {
            listener.progress(done, total, n++, second.segments.size());
            fixSegment(r, r.segment() == second.newestPlain);
            done += r.segment().length();
        }
        listener.progress(total, total, n, n);
        if (!changes.isEmpty()) {
            Directories.sync(dir);
        }
        DirectoryCheck after = DirectoryCheck.run(dir, MaintenanceListener.NONE);
        CheckReport.Builder report = after.report;
        for (String c : changes) {
            report.change(c);
        }
        for (String f : found) {
            report.note("found: " + f);
        }
        return report.build();
    }

    private void fixSegment(StoreAudit.SegmentResult r, boolean newestPlain) throws IOException {
        Segment s = r.segment();
        List<StoreAudit.Region> dropped = r.dropped();
        int tail = newestPlain ? StoreAudit.tornTail(s, dropped) : -1;
        if (tail >= 0 && tail == dropped.get(0).from()) {
            // Every damaged region is in the torn tail: cut it all, never keep a later record without the earlier ones.
            truncate(s, tail);
        } else if (!dropped.isEmpty()) {
            rewrite(s, dropped, r.records());
        } else if (r.hintProblem() != null) {
            delete(HintFile.pathFor(s), "hint that does not match its segment (" + r.hintProblem() + "); open rebuilds it");
        }
    }

    private void truncate(Segment s, int at) throws IOException {
        long cut = s.length() - at;
        Recovery.cutTail(FileLayer.DISK, s, at);
        changes.add(s.path() + ": truncated the torn tail at offset " + at + " (" + cut + " bytes)");
        dropHint(s);
    }

    /**
     * Copies the committed records of {@code s} into a new file with the same header and renames it over
     * {@code s}: the damaged regions are left behind. Batch members whose batch committed are copied as plain
     * records (the whole file replaces the old one atomically, so they stay all-or-nothing).
     */
    private void rewrite(Segment s, List<StoreAudit.Region> dropped, long records) throws IOException {
        Path tmp = s.path().resolveSibling(s.path().getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        ByteBuffer buf = s.buffer();
        SegmentWriter out = SegmentWriter.create(FileLayer.DISK, dir, s.id(), s.header(), tmp, Math.max(s.length(), SegmentHeader.SIZE));
        boolean done = false;
        try {
            SegmentScanner.scan(buf, (int) s.length(), true, (type, offset, size) -> {
                if (RecordFormat.isBatchMember(type)) {
                    byte[] key = s.readKey(offset);
                    byte[] value = type == RecordFormat.BATCH_PUT ? s.readValue(offset, key) : null;
                    try {
                        out.append(type == RecordFormat.BATCH_PUT ? RecordFormat.PUT : RecordFormat.DELETE, key, value);
                    } catch (IOException e) {
                        throw new UncheckedIOException(e); // not staged: a memory copy, which does not throw this
                    }
                } else {
                    out.appendRaw(buf, offset, size);
                }
            });
            out.publish();
            out.seal();
            dropHint(s);
            Files.move(tmp, s.path(), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            Directories.sync(dir);
            done = true;
        } finally {
            if (!done) {
                out.closeQuietly();
                Files.deleteIfExists(tmp);
            }
        }
        StringBuilder regions = new StringBuilder();
        long bytes = 0;
        for (StoreAudit.Region d : dropped) {
            regions.append(regions.length() == 0 ? "" : ", ").append(d.from()).append("..").append(d.to());
            bytes += d.to() - d.from();
        }
        changes.add(s.path() + ": rewrote the segment without " + dropped.size() + " damaged region(s) at offset "
                + regions + " (" + bytes + " bytes), keeping its " + records + " intact committed record(s)");
    }

    /**
     * Rebuilds an unreadable header: exactly, when the damage is limited to the constant fields and one other
     * byte; otherwise as the write path writes it (plain, order = id), which is right for every segment but a
     * merge output.
     */
    private void rebuildHeader(DirectoryCheck.BadHeader h) throws IOException {
        SegmentHeader header = SegmentHeader.recover(h.bytes(), h.id());
        String how = "restored from the damaged bytes";
        if (header == null) {
            header = new SegmentHeader(0, h.id());
            how = "rebuilt as a plain segment with order " + h.id()
                    + " (if it was a merge output, a newer value written during that merge may be shadowed)";
        }
        try (FileChannel ch = FileChannel.open(h.file(), StandardOpenOption.WRITE)) {
            ByteBuffer b = header.encode();
            while (b.hasRemaining()) {
                ch.write(b, b.position());
            }
            ch.force(true);
        }
        changes.add(h.file() + ": segment header (" + h.reason() + ") " + how);
        Files.deleteIfExists(h.file().resolveSibling(Segment.fileName(h.id(), HintFile.SUFFIX)));
    }

    private void dropHint(Segment s) throws IOException {
        if (Files.deleteIfExists(HintFile.pathFor(s))) {
            changes.add(HintFile.pathFor(s) + ": deleted the hint of a changed segment; open rebuilds it");
        }
    }

    private void delete(Path f, String what) throws IOException {
        if (Files.deleteIfExists(f)) {
            changes.add(f + ": deleted " + what);
        }
    }
}
