package io.kegdb.engine;

import java.io.IOException;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * One compaction of every sealed segment, while reads and writes go on.
 *
 * <ol>
 * <li>Sealed segments with no live record, oldest first, are deleted whole: being the oldest data, their
 *     tombstones shadow nothing.</li>
 * <li>The live records of the remaining sealed segments are copied, in replay order, into new segments
 *     flagged as merged, whose order is the highest input order (they replay after their inputs and before
 *     every newer segment). Each output is synced, given a hint file and renamed from its temporary name;
 *     only then does the keydir move to it, key by key, and only where the key still points at the copied
 *     record. Tombstones are dropped: every older record they could shadow is in an input too.</li>
 * <li>The inputs are deleted oldest first, so a crash in between never leaves a put whose tombstone is
 *     gone.</li>
 * </ol>
 * At every crash point the directory holds the inputs, or the inputs and some outputs, or the outputs and
 * the newer part of the inputs: each replays to exactly the data the store had.
 *
 * <p>A record merge leaves behind (in step 1 or 2) is dead because of a newer write, which may still sit
 * unsynced in the active segment (a NO_SYNC write, or a SYNC one whose fsync is still under way). So before
 * the first input is deleted, every write so far is made durable: otherwise a power cut would take the
 * newer write with it while the deleted input could no longer bring back the older one.
 */
final class Merge {

    private static final System.Logger LOG = System.getLogger(Merge.class.getName());

    private final WritePath writes;
    private final Path dir;
    private final FileLayer files;
    private final BitcaskOptions options;
    private final SegmentTable table;
    private final KeyDir keyDir;
    private final MaintenanceListener listener;
    private long bytesTotal;
    private long bytesDone;
    private int segmentsTotal;
    private int segmentsDone;

    Merge(Path dir, FileLayer files, BitcaskOptions options, SegmentTable table, KeyDir keyDir, WritePath writes,
          MaintenanceListener listener) {
        this.dir = dir;
        this.files = files;
        this.options = options;
        this.table = table;
        this.keyDir = keyDir;
        this.writes = writes;
        this.listener = listener;
    }

    /** Runs the merge; returns whether anything changed. {@code always} ignores the garbage thresholds. */
    boolean run(boolean always) throws IOException {
        List<Segment> inputs = writes.sealedSegments();
        for (Segment s : inputs) {
            bytesTotal += s.length();
        }
        segmentsTotal = inputs.size();
        listener.progress(0, bytesTotal, 0, segmentsTotal);
        boolean changed = dropDeadPrefix(inputs);
        if (inputs.isEmpty()) {
            return changed;
        }
        long total = 0;
        long dead = 0;
        for (Segment s : inputs) {
            total += s.length() - SegmentHeader.SIZE;
            dead += s.deadBytes();
        }
        boolean worthIt = always
                ? dead > 0
                : inputs.size() >= options.mergeMinFiles() && total > 0
                        && (double) dead / total >= options.mergeGarbageRatio();
        if (!worthIt) {
            listener.progress(bytesTotal, bytesTotal, segmentsTotal, segmentsTotal);
            return changed;
        }
        long started = System.nanoTime();
        rewrite(inputs);
        LOG.log(Level.INFO, "{0}: merged {1} segments ({2} dead bytes) in {3} ms", dir, inputs.size(), dead,
                (System.nanoTime() - started) / 1_000_000);
        return true;
    }

    private boolean dropDeadPrefix(List<Segment> inputs) throws IOException {
        boolean dropped = false;
        while (!inputs.isEmpty() && inputs.get(0).liveBytes() == 0) {
            if (!dropped) {
                writes.flush(); // the writes that killed its records must outlive it
            }
            Segment dead = inputs.remove(0);
            delete(dead);
            bytesDone += dead.length();
            listener.progress(bytesDone, bytesTotal, ++segmentsDone, segmentsTotal);
            dropped = true;
        }
        return dropped;
    }

    private void rewrite(List<Segment> inputs) throws IOException {
        long order = 0;
        for (Segment s : inputs) {
            order = Math.max(order, s.header().order());
        }
        Output out = null;
        try {
            for (Segment in : inputs) {
                if (writes.isClosed()) {
                    throw new IOException(dir + ": store closed during merge");
                }
                ByteBuffer buf = in.buffer();
                List<int[]> live = new ArrayList<>();
                SegmentScanner.scan(buf, (int) in.length(), options.repair(), (type, offset, size) -> {
                    if (RecordFormat.isPut(type)) {
                        live.add(new int[] {offset, size});
                    }
                });
                for (int[] r : live) {
                    byte[] key = in.readKey(r[0]);
                    long loc = Location.of(in.id(), r[0]);
                    if (keyDir.get(key) != loc) {
                        continue;
                    }
                    if (out == null || !out.writer.fits(r[1])) {
                        if (out != null) {
                            out.finish();
                        }
                        out = new Output(order, r[1]);
                    }
                    out.copy(in, buf, r[0], r[1]);
                }
                bytesDone += in.length();
                listener.progress(bytesDone, bytesTotal, segmentsDone, segmentsTotal);
            }
            if (out != null) {
                out.finish();
                out = null;
            }
        } finally {
            if (out != null) {
                out.abandon();
            }
        }
        writes.flush(); // the writes that killed the records left behind must outlive the inputs
        for (Segment in : inputs) {
            delete(in);
            listener.progress(bytesDone, bytesTotal, ++segmentsDone, segmentsTotal);
        }
    }

    private void delete(Segment s) throws IOException {
        table.remove(s);
        HintFile.delete(files, s);
        files.deleteIfExists(s.path());
        files.syncDirectory(dir);
        listener.mergeStep(MaintenanceListener.MergeStep.INPUT_DELETED, s.path().getFileName().toString());
    }

    /** One merge output segment being filled. */
    private final class Output {
        final SegmentWriter writer;
        final Path finalPath;
        final List<long[]> moves = new ArrayList<>();
        boolean published;

        Output(long order, int firstRecord) throws IOException {
            int id = writes.newSegmentId();
            finalPath = dir.resolve(Segment.fileName(id, ".data"));
            Path tmp = dir.resolve(Segment.fileName(id, ".data.tmp"));
            long capacity = Math.max(options.segmentSize(), SegmentHeader.SIZE + (long) firstRecord);
            writer = SegmentWriter.create(files, dir, id, new SegmentHeader(SegmentHeader.MERGED, order), tmp,
                    capacity);
        }

        void copy(Segment from, ByteBuffer buf, int offset, int size) throws IOException {
            // A re-framed batch member has the same size as the original record.
            writer.reserve(size);
            int at;
            if (RecordFormat.type(buf, offset) == RecordFormat.BATCH_PUT) {
                // A committed batch member stands alone once copied: re-frame it as a plain put.
                byte[] key = from.readKey(offset);
                at = writer.append(RecordFormat.PUT, key, from.readValue(offset, key));
            } else {
                at = writer.appendRaw(buf, offset, size);
            }
            moves.add(new long[] {Location.of(from.id(), offset), at, size});
        }

        /** Syncs, hints and renames the output, then moves the keydir entries that still point at the inputs. */
        void finish() throws IOException {
            writer.publish();
            writer.seal();
            Segment seg = writer.segment();
            listener.mergeStep(MaintenanceListener.MergeStep.OUTPUT_WRITTEN, seg.path().getFileName().toString());
            HintFile.write(files, seg);
            listener.mergeStep(MaintenanceListener.MergeStep.HINT_WRITTEN,
                    HintFile.pathFor(seg).getFileName().toString());
            files.move(seg.path(), finalPath);
            seg.renamedTo(finalPath);
            published = true;
            files.syncDirectory(dir);
            listener.mergeStep(MaintenanceListener.MergeStep.OUTPUT_INSTALLED, finalPath.getFileName().toString());
            table.add(seg);
            writes.moveMerged(seg, moves);
            listener.mergeStep(MaintenanceListener.MergeStep.KEYDIR_MOVED, finalPath.getFileName().toString());
        }

        void abandon() {
            writer.closeQuietly();
            if (published) {
                // A complete merged segment replays correctly beside its inputs; keep it.
                return;
            }
            try {
                files.deleteIfExists(writer.segment().path());
            } catch (IOException e) {
                LOG.log(Level.WARNING, "cannot remove unfinished merge output " + writer.segment().path(), e);
            }
        }
    }
}
