package io.kegdb.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/**
 * The store's write path: the active segment and everything that appends to it. Puts, deletes and batches
 * take one path ({@link #commit}): under the write lock each is appended, published and applied to the
 * keydir; a SYNC write then waits, outside the lock, for an fsync it shares with concurrent writers
 * ({@link GroupCommit}). It rolls to a new segment when the active one is full, and after a failed fsync or
 * staged write refuses every write until the store is reopened.
 *
 * <p>Merge and backup, which must see the active segment stand still for a moment, use the few methods
 * below the writes ({@link #sealedSegments}, {@link #newSegmentId}, {@link #moveMerged}, {@link #syncPoint},
 * {@link #pausingWrites}) instead of the lock itself.
 */
final class WritePath {

    private static final System.Logger LOG = System.getLogger(WritePath.class.getName());

    /**
     * Batches of at least this many operations prefetch their keydir slots and, when SYNC, sync while their
     * keydir updates run (0.2 to 0.4 µs each, timed inside the JDBC benchmark's batched inserts,
     * {@code io.kegdb.bench.jdbc.JdbcBenchmark}): below it neither pays for itself.
     */
    private static final int LARGE_BATCH = 128;
    /** Keydir entries a merge moves per hold of the write lock, so that writers wait little. */
    private static final int MOVE_CHUNK = 4096;

    private final Path dir;
    /** Where every byte written goes ({@link FileLayer#DISK} outside tests). */
    private final FileLayer files;
    private final BitcaskOptions options;
    private final SegmentTable table;
    private final KeyDir keyDir;
    private final ReentrantLock writeLock = new ReentrantLock();
    private final GroupCommit groupCommit;
    private final StoreCounters counters;
    private final StagedWrite staging = new StagedWrite();
    /** Where the active segment's next window of disk space is allocated ({@link SegmentWriter#allocateAheadOn}). */
    private final ExecutorService background;
    /** Runs the fsync of a large SYNC batch while its writer updates the keydir ({@link #appendBatch}). */
    private final SyncThread syncThread;
    /** Told of each segment sealed by a roll (to give it a hint file). */
    private final Consumer<Segment> onSealed;
    private final WriteGate gate;

    private volatile SegmentWriter active;
    /** Bytes appended since open: the position group commit waits on. */
    private volatile long appended;
    private int nextId;
    private volatile boolean closed;
    /**
     * The first failed fsync or failed write of a staged record; from then on the store refuses writes until
     * it is reopened (see {@link #forceActive} and {@link #appendOneWrite}).
     */
    private volatile IOException syncFailure;
    /**
     * The active segment is the newest one reopened with a hint that checks out: while nothing is appended
     * to it, close leaves the file and the hint as they are (see {@link SegmentWriter#reopen}).
     */
    private final boolean reopenedWithHint;

    /**
     * The write path of a store recovered into {@code table}: it appends to the newest segment if that has
     * room, else to a new one. In a read-only store ({@code background} null) it refuses every write.
     */
    WritePath(Path dir, FileLayer files, BitcaskOptions options, SegmentTable table, KeyDir keyDir,
              Recovery.Result recovered, ExecutorService background, Consumer<Segment> onSealed, WriteGate gate,
              StoreCounters counters) throws IOException {
        this.dir = dir;
        this.counters = counters;
        this.groupCommit = new GroupCommit(counters.groupCommit);
        this.files = files;
        this.gate = gate;
        this.options = options;
        this.table = table;
        this.keyDir = keyDir;
        this.nextId = recovered.maxId() + 1;
        this.background = background;
        this.onSealed = onSealed;
        if (options.readOnly()) {
            this.syncThread = null;
            this.reopenedWithHint = false;
            return;
        }
        Segment last = recovered.last();
        // A version 1 segment has no durable mark, which appending needs (see SegmentHeader): it stays sealed.
        boolean reopen = last != null && last.length() < options.segmentSize() && last.header().hasMark();
        this.reopenedWithHint = reopen && recovered.lastHinted();
        if (reopen) {
            if (!reopenedWithHint) {
                HintFile.delete(files, last); // one that no longer checks out (the tail was cut) is of no use
            }
            active = SegmentWriter.reopen(files, last, options.segmentSize());
        } else {
            active = SegmentWriter.create(files, dir, allocateId(), options.segmentSize());
            table.add(active.segment());
        }
        active.allocateAheadOn(background);
        this.syncThread = new SyncThread("kegdb-sync-" + dir.getFileName());
    }

    /** Bytes appended since open: every write that changes the store appends. */
    long appended() {
        return appended;
    }

    /** The segment being written, or null in a read-only store; may change at any moment. */
    Segment activeSegment() {
        SegmentWriter w = active;
        return w == null ? null : w.segment();
    }

    /** The active segment's writer (tests inject faults into it). */
    SegmentWriter activeWriter() {
        return active;
    }

    /** Whether {@link #close} ran. */
    boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- writes

    /** Sets {@code key} (checked by the caller) to {@code value}. */
    void put(byte[] key, byte[] value, Durability durability) {
        commit(key, value, null, 0, durability);
    }

    /** Removes {@code key} (checked by the caller); whether it was present. */
    boolean delete(byte[] key, Durability durability) {
        return commit(key, null, null, 0, durability) >= 0;
    }

    /** Applies {@code batch}, whose keys and values the caller checked and which encodes to {@code total} bytes. */
    void write(WriteBatch batch, long total, Durability durability) {
        commit(null, null, batch, total, durability);
    }

    /** Checks the preconditions of {@code batch}, which has no operation, under the write lock. */
    void check(WriteBatch batch) {
        writeLock.lock();
        try {
            checkWritable();
            gate.beforeWrite(null, batch, appended);
        } finally {
            writeLock.unlock();
        }
    }

    /** Runs {@code action} between two writes, none half applied (a snapshot is taken so). */
    <T> T betweenWrites(java.util.function.Supplier<T> action) {
        writeLock.lock();
        try {
            return action.get();
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * The one path of every write: a batch, or else a put of {@code key} (a delete when {@code value} is
     * null). Returns the end position of what it appended, or -1 if it appended nothing (a delete of an
     * absent key).
     */
    private long commit(byte[] key, byte[] value, WriteBatch batch, long total, Durability durability) {
        long end;
        writeLock.lock();
        try {
            checkWritable();
            gate.beforeWrite(key, batch, appended);
            if (batch == null) {
                end = value == null ? appendDelete(key, durability) : appendPut(key, value, durability);
            } else {
                List<WriteBatch.Op> ops = batch.ops();
                checkAbsent(ops, batch.unchangedSince(appended));
                if (ops.size() == 1) {
                    // One operation needs no commit record: a single record is atomic by its CRC.
                    WriteBatch.Op op = ops.get(0);
                    end = op.value() == null ? appendDelete(op.key(), durability)
                            : appendPut(op.key(), op.value(), durability);
                } else {
                    end = appendBatch(batch, total, durability);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": write failed: " + e.getMessage(), e);
        } catch (InternalError e) {
            throw mappedWriteFailed(e);
        } finally {
            writeLock.unlock();
        }
        if (end >= 0) {
            counters.writes.increment();
            awaitDurable(end, durability);
        }
        return end;
    }

    /** Appends a put record and points the keydir at it; returns the end position. Write lock held. */
    private long appendPut(byte[] key, byte[] value, Durability durability) throws IOException {
        int size = RecordFormat.size(key.length, value.length);
        SegmentWriter w = writerFor(size);
        int offset = appendOneWrite(w, durability, size, () -> w.append(RecordFormat.PUT, key, value));
        w.segment().addLive(size);
        release(keyDir.put(key, Location.of(w.id(), offset)));
        return appended += size;
    }

    /** Appends a tombstone if the key exists; returns the end position, or -1 if it did not. Write lock held. */
    private long appendDelete(byte[] key, Durability durability) throws IOException {
        if (keyDir.get(key) == KeyDir.NONE) {
            return -1;
        }
        int size = RecordFormat.size(key.length, 0);
        SegmentWriter w = writerFor(size);
        appendOneWrite(w, durability, size, () -> w.append(RecordFormat.DELETE, key, null));
        release(keyDir.remove(key));
        return appended += size;
    }

    private static boolean hasPutIfAbsent(List<WriteBatch.Op> ops) {
        for (WriteBatch.Op op : ops) {
            if (op.kind() == WriteBatch.Kind.PUT_IF_ABSENT) {
                return true;
            }
        }
        return false;
    }

    /** Whether the operations' keys strictly ascend, so that none repeats: one comparison per key, no table. */
    private static boolean strictlyAscending(List<WriteBatch.Op> ops) {
        for (int i = 1; i < ops.size(); i++) {
            if (Arrays.compareUnsigned(ops.get(i - 1).key(), ops.get(i).key()) >= 0) {
                return false;
            }
        }
        return true;
    }

    /** Appends a batch's records and commit record, then applies it to the keydir. Write lock held. */
    private long appendBatch(WriteBatch batch, long total, Durability durability) throws IOException {
        List<WriteBatch.Op> ops = batch.ops();
        SegmentWriter w = writerFor(total);
        int[] offsets = new int[ops.size()];
        appendOneWrite(w, durability, total, () -> {
            for (int i = 0; i < offsets.length; i++) {
                WriteBatch.Op op = ops.get(i);
                offsets[i] = w.append(op.value() == null ? RecordFormat.BATCH_DELETE : RecordFormat.BATCH_PUT,
                        op.key(), op.value());
            }
            return w.appendCommit(ops.size());
        });
        long end = appended + total;
        boolean large = ops.size() >= LARGE_BATCH;
        if (large && durability == Durability.SYNC) {
            // The records are in the file: their fsync runs on another thread while this one updates the
            // keydir, which for a large batch takes about as long. The writer then waits for it as usual.
            groupCommit.syncAhead(() -> {
                forceActive();
                return end;
            }, syncThread);
        }
        if (large) {
            keyDir.prefetch(batch.keys());
        }
        for (int i = 0; i < offsets.length; i++) {
            WriteBatch.Op op = ops.get(i);
            if (op.value() == null) {
                release(keyDir.remove(op.key()));
            } else {
                w.segment().addLive(RecordFormat.size(op.key().length, op.value().length));
                release(keyDir.put(op.key(), Location.of(w.id(), offsets[i])));
            }
        }
        appended = end;
        return end;
    }

    /** The records of one write, appended to the active segment; returns the offset of the last one. */
    private interface Records {
        int append() throws IOException;
    }

    /**
     * Appends one write's records and publishes them. Synced and large writes are staged and reach the file
     * through the channel, which keeps the fsync after them cheap ({@link StagedWrite}). On failure nothing
     * of the write is published and the append position goes back. A staged write that failed part-way may
     * have left part of itself in the file past the published length; a later write landing over only its
     * start would leave records after damage, which open refuses. So, as after a failed fsync, the store
     * then takes no more writes until it is reopened; open keeps the write only if all of it reached the
     * file, else cuts it off as a torn tail (the caller's error means "maybe not written").
     */
    private int appendOneWrite(SegmentWriter w, Durability durability, long encodedBytes, Records records)
            throws IOException {
        int mark = w.position();
        try {
            if (StagedWrite.wanted(durability, encodedBytes)) {
                w.stageThrough(staging);
            }
            int offset = records.append();
            w.publish();
            return offset;
        } catch (IOException e) {
            w.rewind(mark);
            syncFailure = e;
            throw e;
        } catch (RuntimeException | Error e) {
            w.rewind(mark);
            throw e;
        }
    }

    /**
     * Fails the batch before anything is written if a putIfAbsent key exists (in the store or the batch);
     * {@code storeChecked}: the caller already found those keys absent and nothing was written since.
     */
    private void checkAbsent(List<WriteBatch.Op> ops, boolean storeChecked) {
        if (!hasPutIfAbsent(ops)) {
            return;
        }
        // Keys in strictly ascending order (a transaction's inserts in key order) cannot repeat: no table needed.
        BatchKeys seen = strictlyAscending(ops) ? null : new BatchKeys(ops);
        for (int i = 0; i < ops.size(); i++) {
            WriteBatch.Op op = ops.get(i);
            int earlier = seen == null ? -1 : seen.record(i);
            if (op.kind() == WriteBatch.Kind.PUT_IF_ABSENT) {
                boolean present = earlier >= 0 ? ops.get(earlier).value() != null
                        : !storeChecked && keyDir.get(op.key()) != KeyDir.NONE;
                if (present) {
                    throw new KeyExistsException(op.key());
                }
            }
        }
    }

    /** Makes every write so far durable; nothing to do in a read-only store. */
    void flush() {
        if (options.readOnly()) {
            return;
        }
        awaitDurable(appended, Durability.SYNC);
    }

    /**
     * The active segment with room for {@code size} more bytes backed by disk space, rolling to a new segment
     * if needed. Throws (a {@link DiskFullException} on a full disk) with nothing appended; the store stays
     * consistent and the next write tries again.
     */
    private SegmentWriter writerFor(long size) throws IOException {
        SegmentWriter w = active;
        if (!(w.fits(size) && (w.position() + size <= options.segmentSize() || w.isEmpty()))) {
            w = roll(size);
        }
        w.reserve(size);
        return w;
    }

    /** Seals the active segment (unless empty) and starts a new one; a record larger than a segment gets its own. */
    private SegmentWriter roll(long size) throws IOException {
        SegmentWriter old = active;
        if (untouchedSinceOpen(old)) {
            old.closeQuietly(); // sealed and hinted as it was found
        } else if (!old.isEmpty() && !old.isSealed()) {
            // After a failed creation below, the sealed writer stays active (fits() refuses every
            // write) until a later write manages to create its successor.
            try {
                old.seal();
            } catch (IOException e) {
                syncFailure = e;
                throw e;
            }
            groupCommit.markDurable(appended);
            onSealed.accept(old.segment());
        }
        long capacity = Math.max(options.segmentSize(), SegmentHeader.SIZE + size);
        SegmentWriter w = SegmentWriter.create(files, dir, allocateId(), capacity);
        w.allocateAheadOn(background);
        table.add(w.segment());
        active = w;
        if (old.isEmpty()) {
            old.closeQuietly();
            table.remove(old.segment());
            HintFile.delete(files, old.segment()); // a reopened empty segment may have one: no hint outlives its data
            files.deleteIfExists(old.segment().path());
        }
        return w;
    }

    /**
     * A fault while copying into the mapped segment, which is how the JVM reports a full disk under a
     * sparse mapping. The position did not advance and the keydir did not change: nothing was written.
     */
    private UncheckedIOException mappedWriteFailed(InternalError e) {
        return new UncheckedIOException(new IOException(dir + ": writing to segment "
                + active.segment().path().getFileName() + " failed (is the disk full?)", e));
    }

    /** Accounts the record a key no longer points at as dead. */
    private void release(long previous) {
        if (previous != KeyDir.NONE) {
            Segment s = table.get(Location.segment(previous));
            if (s != null) {
                s.addLive(-s.recordSize(Location.offset(previous)));
            }
        }
    }

    private void awaitDurable(long end, Durability durability) {
        if (durability != Durability.SYNC) {
            return;
        }
        try {
            groupCommit.await(end, () -> {
                long covered = appended;
                forceActive();
                return covered;
            });
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": fsync failed; the write is not durable", e);
        }
    }

    /**
     * fsync of the active segment. After one failure no later fsync of this store is trusted: the kernel
     * may have dropped the dirty pages it could not write and report the next fsync as a success, so a
     * later acknowledgement could cover lost bytes. Every later sync and write fails until the store is
     * reopened, which reads back what really is in the file.
     */
    private void forceActive() throws IOException {
        IOException failed = syncFailure;
        if (failed != null) {
            throw new IOException(dir + ": an earlier fsync or write failed; reopen the store", failed);
        }
        try {
            long started = System.nanoTime();
            active.force();
            counters.fsyncs.record(System.nanoTime() - started);
        } catch (IOException e) {
            syncFailure = e;
            throw e;
        }
    }

    /** Throws unless writes are taken: the store is open, not read-only, and no fsync or staged write failed. */
    void checkWritable() {
        if (closed) {
            throw new StoreClosedException(dir + ": store is closed");
        }
        if (options.readOnly()) {
            throw new IllegalStateException(dir + ": store is open read-only");
        }
        IOException failed = syncFailure;
        if (failed != null) {
            throw new UncheckedIOException(new IOException(dir + ": an earlier fsync or write failed ("
                    + failed.getMessage() + "); the store refuses writes until it is reopened", failed));
        }
    }

    /** A fresh segment id; write lock held (or in the constructor). */
    private int allocateId() throws IOException {
        return Location.checkSegmentId(nextId++, dir);
    }

    // ---------------------------------------------------------------- for merge, backup and verify

    /** Every sealed segment (all but the active one) in replay order, as of now. */
    List<Segment> sealedSegments() {
        writeLock.lock();
        try {
            Segment activeSegment = active.segment();
            List<Segment> sealed = table.inReplayOrder();
            sealed.removeIf(s -> s == activeSegment);
            return sealed;
        } finally {
            writeLock.unlock();
        }
    }

    /** A segment id no other segment of the store has or will get, for a merge output. */
    int newSegmentId() throws IOException {
        writeLock.lock();
        try {
            return allocateId();
        } finally {
            writeLock.unlock();
        }
    }

    /**
     * Points the keydir at the copies merge made in {@code output}, for each key still at the copied record.
     * {@code moves} holds one {@code {location copied from, offset in output, record size}} per copy; the
     * live bytes move with each key that moves. Writes wait for at most {@value #MOVE_CHUNK} keys at a time.
     */
    void moveMerged(Segment output, List<long[]> moves) {
        for (int i = 0; i < moves.size(); i += MOVE_CHUNK) {
            writeLock.lock();
            try {
                for (int j = i; j < Math.min(moves.size(), i + MOVE_CHUNK); j++) {
                    long[] m = moves.get(j);
                    byte[] key = output.readKey((int) m[1]);
                    if (keyDir.replace(key, m[0], Location.of(output.id(), (int) m[1]))) {
                        table.get(Location.segment(m[0])).addLive(-m[2]);
                        output.addLive(m[2]);
                    }
                }
            } finally {
                writeLock.unlock();
            }
        }
    }

    /**
     * The store at one durable moment: its segments, and the active one's length then (a record and batch
     * boundary). Sealed segments never change and the active one only grows, so copying each up to those
     * lengths copies that moment.
     */
    record SyncPoint(List<Segment> segments, Segment active, int activeLength) {
    }

    /** Makes every byte appended so far durable and returns the store as of then. */
    SyncPoint syncPoint() throws IOException {
        writeLock.lock();
        try {
            forceActive();
            groupCommit.markDurable(appended);
            return new SyncPoint(table.all(), active.segment(), active.position());
        } finally {
            writeLock.unlock();
        }
    }

    /** Work that needs the store to stand still; gets the active segment (null in a read-only store). */
    interface WhileWritesWait<T> {
        T run(Segment active) throws IOException;
    }

    /** Runs {@code work} while writes wait (reads go on). */
    <T> T pausingWrites(WhileWritesWait<T> work) throws IOException {
        writeLock.lock();
        try {
            return work.run(activeSegment());
        } finally {
            writeLock.unlock();
        }
    }

    // ---------------------------------------------------------------- close

    /** Whether {@code w} is the reopened, hinted newest segment and nothing was appended to it since open. */
    private boolean untouchedSinceOpen(SegmentWriter w) {
        return reopenedWithHint && w.untouched();
    }

    /**
     * Stops taking writes and makes every one durable by sealing the active segment; returns it for a hint
     * file, or null if there is none or an fsync failed, in which case nothing more is written. A segment
     * reopened with its hint and not appended to since is left as it is: it is already sealed and hinted.
     */
    Segment close() throws IOException {
        writeLock.lock();
        try {
            if (closed) {
                return null;
            }
            closed = true;
            if (active != null && syncFailure != null) {
                // What is in memory may not be on disk: write nothing more (no truncation, no hint) and let
                // the next open recover from the file as it really is.
                LOG.log(Level.WARNING, dir + ": closing without a final sync after an fsync failure", syncFailure);
                active.closeQuietly();
            } else if (active != null && untouchedSinceOpen(active)) {
                active.closeQuietly();
            } else if (active != null) {
                active.seal();
                groupCommit.markDurable(appended);
                return active.segment();
            }
            return null;
        } finally {
            writeLock.unlock();
        }
    }

    /** After {@link #close}: stops the sync thread once the task handed to it, if any, has run. */
    void stopSyncThread() throws InterruptedException {
        if (syncThread != null) {
            syncThread.close();
        }
    }
}
