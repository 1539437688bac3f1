package io.kegdb.engine;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * A hot copy of a store. Sealed segments never change, so they are copied as they are; the active one is
 * copied up to the length it had when the backup started, which is always a record (and batch) boundary.
 * Merges wait until the copy is done, so no segment disappears under it.
 */
final class Backup {

    private final WritePath writes;
    private final FileLayer files;
    private final Path target;
    private final MaintenanceListener listener;

    Backup(WritePath writes, FileLayer files, Path target, MaintenanceListener listener) {
        this.writes = writes;
        this.files = files;
        this.target = target;
        this.listener = listener;
    }

    void run() throws IOException {
        Directories.createDurably(files, target);
        try (DirectoryStream<Path> existing = Files.newDirectoryStream(target, "*.data")) {
            if (existing.iterator().hasNext()) {
                throw new IOException(target + ": backup target already holds a store");
            }
        }
        WritePath.SyncPoint start = writes.syncPoint();
        Segment activeSegment = start.active();
        int activeLength = start.activeLength();
        List<Segment> segments = start.segments();
        long total = 0;
        for (Segment s : segments) {
            total += s == activeSegment ? activeLength : s.length();
        }
        long done = 0;
        int copied = 0;
        listener.progress(0, total, 0, segments.size());
        List<Path> written = new ArrayList<>();
        try {
            for (Segment s : segments) {
                Path to = target.resolve(s.path().getFileName());
                long length = s == activeSegment ? activeLength : Files.size(s.path());
                copy(s.path(), to, length, written);
                done += length;
                Path hint = HintFile.pathFor(s);
                if (s != activeSegment && Files.exists(hint)) {
                    Path hintTo = target.resolve(hint.getFileName());
                    try {
                        copy(hint, hintTo, Files.size(hint), written);
                    } catch (java.nio.file.NoSuchFileException raced) {
                        files.deleteIfExists(hintTo);
                    }
                }
                listener.progress(done, total, ++copied, segments.size());
            }
            files.syncDirectory(target);
        } catch (IOException | RuntimeException e) {
            // A partial copy is no backup: remove it, so the target can be used again once there is room.
            for (Path p : written) {
                try {
                    files.deleteIfExists(p);
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private void copy(Path from, Path to, long length, List<Path> written) throws IOException {
        try (FileChannel in = FileChannel.open(from, StandardOpenOption.READ);
             FileChannel out = files.open(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            written.add(to);
            long done = 0;
            while (done < length) {
                long n;
                try {
                    n = in.transferTo(done, length - done, out);
                } catch (IOException e) {
                    IOException failure = DiskFullException.classify(to, length - done, e);
                    throw failure != e ? failure
                            : new IOException(to + ": backup copy of " + from + " failed at offset " + done, e);
                }
                if (n <= 0) {
                    throw new IOException(from + ": ended at offset " + done + " while copying " + length + " bytes");
                }
                done += n;
            }
            out.force(true);
        }
    }
}
