package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Appends records to the active segment. The file is mapped read-write at its full capacity up front, so an
 * append is a copy into memory (no system call) and reads of fresh records go through the same mapping.
 * A write that will be synced, or is large, is instead staged ({@link #stageThrough}) and reaches the file
 * with positional writes when it is published, which keeps the fsync that follows cheap (see
 * {@link StagedWrite}); the page cache is shared, so readers see it through the mapping all the same.
 * {@link #force()} (fdatasync) makes everything appended so far durable. Before records are written,
 * {@link #reserve} makes their bytes real on disk (see {@link SegmentSpace}), so a full disk fails the
 * write with an {@link IOException} instead of a fault inside the mapping. Sealing truncates the file to
 * its data and closes the channel. Only the store's single writer calls the mutating methods.
 *
 * <p>Every byte reaches the file through the {@link FileLayer} the writer was created with: positional
 * writes through the channel it opened, copies into the mapping reported to it range by range. After each
 * completed fsync the writer rewrites the header's durable mark ({@link SegmentHeader}) with the length
 * that fsync covered.
 */
final class SegmentWriter {

    private final Segment segment;
    private final FileLayer files;
    private final FileChannel channel;
    /** Null until the first append of a reopened segment (see {@link #reopen}). */
    private MappedByteBuffer map;
    private final long capacity;
    /** False from {@link #reopen} until the first append begins; a created segment starts touched. */
    private boolean touched;
    private int position;
    /** Bytes below this offset are backed by allocated disk space; appends stay below it. */
    private volatile long allocated;
    /** Runs the allocation of the next window before appends reach it; null: writes allocate when they need to. */
    private Executor allocator;
    /** The allocation handed to {@link #allocator}, or null. Only the writer touches this field. */
    private WindowAhead allocating;
    private boolean sealed;
    /** The write being staged, or null while appends are copied into the mapping. */
    private StagedWrite staged;
    /** Set by tests to make fsyncs of this segment fail, as a failing disk would. */
    private volatile IOException injectedSyncFailure;
    private volatile boolean injectOnce;
    /** Set by tests to cut the next staged write short, as an I/O error part-way through it would. */
    private volatile IOException injectedWriteFailure;
    /** The durable mark last written into the header; guarded by {@code this}. */
    private int markWritten;

    private SegmentWriter(Segment segment, FileLayer files, FileChannel channel, MappedByteBuffer map, long capacity,
                          int position) {
        this.segment = segment;
        this.files = files;
        this.channel = channel;
        this.markWritten = Math.min(segment.header().mark(), position);
        this.map = map;
        this.capacity = capacity;
        this.position = position;
        this.allocated = position;
        this.touched = map != null;
        if (map != null) {
            segment.useWriterMapping(map);
        }
        segment.setLength(position);
    }

    /** Creates segment {@code id} (order = id) able to hold {@code capacity} bytes, durably named in {@code dir}. */
    static SegmentWriter create(FileLayer files, Path dir, int id, long capacity) throws IOException {
        return create(files, dir, id, new SegmentHeader(0, id), dir.resolve(Segment.fileName(id, ".data")), capacity);
    }

    /** Creates a segment with {@code header} at {@code path} (merge writes to a temporary name first). */
    static SegmentWriter create(FileLayer files, Path dir, int id, SegmentHeader header, Path path, long capacity)
            throws IOException {
        FileChannel ch;
        try {
            ch = files.open(path, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw DiskFullException.classify(path, SegmentHeader.SIZE, e);
        }
        try {
            // The header goes through the channel, so a full disk fails here and not inside the mapping.
            ByteBuffer head = header.encode();
            while (head.hasRemaining()) {
                ch.write(head, head.position());
            }
            MappedByteBuffer map = MappingBudget.map(ch, FileChannel.MapMode.READ_WRITE, capacity);
            ch.force(true);
            files.syncDirectory(dir);
            return new SegmentWriter(new Segment(id, path, header, SegmentHeader.SIZE, null), files, ch, map, capacity,
                    SegmentHeader.SIZE);
        } catch (IOException e) {
            ch.close();
            // Leave no headerless file behind: it would read as damage once a newer segment exists.
            deleteQuietly(files, path, e);
            throw DiskFullException.classify(path, SegmentHeader.SIZE, e);
        } catch (RuntimeException e) {
            ch.close();
            deleteQuietly(files, path, e);
            throw e;
        }
    }

    private static void deleteQuietly(FileLayer files, Path path, Exception failure) {
        try {
            files.deleteIfExists(path);
        } catch (IOException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * Continues appending to an existing, recovered segment after its last valid byte. Nothing is written
     * until the first append ({@link #reserve}): a store opened and closed without a write leaves the file,
     * and its hint, as they were.
     */
    static SegmentWriter reopen(FileLayer files, Segment segment, long capacity) throws IOException {
        FileChannel ch = files.open(segment.path(), StandardOpenOption.READ, StandardOpenOption.WRITE);
        return new SegmentWriter(segment, files, ch, null, capacity, (int) segment.length());
    }

    /**
     * Before the first append to a reopened segment: its hint goes, durably, before the file grows (the
     * mapping at full capacity lengthens it), so no crash leaves a hint beside a segment longer than the hint
     * says; then the segment is mapped for appends.
     */
    private void mapForAppends() throws IOException {
        touched = true; // from here on the file may change: close seals it and writes a new hint
        HintFile.delete(files, segment);
        files.syncDirectory(segment.path().getParent());
        MappedByteBuffer m = MappingBudget.map(channel, FileChannel.MapMode.READ_WRITE, capacity);
        map = m;
        segment.useWriterMapping(m);
        if (segment.header().mark() > segment.length()) {
            // The file ends below its mark (cut short, or a backup copied while the mark moved on): lower it,
            // or what is appended next would count as fsynced. The fsync that makes appends durable carries it.
            putMark((int) segment.length());
        }
    }

    /** Whether nothing was appended since a {@link #reopen}: the file is as it was found. */
    boolean untouched() {
        return !touched;
    }

    Segment segment() {
        return segment;
    }

    int id() {
        return segment.id();
    }

    int position() {
        return position;
    }

    boolean isEmpty() {
        return position == SegmentHeader.SIZE;
    }

    boolean isSealed() {
        return sealed;
    }

    /** Whether {@code bytes} more fit in the mapping; never for a sealed writer, whose file was truncated. */
    boolean fits(long bytes) {
        return !sealed && position + bytes <= capacity;
    }

    /**
     * From now on, allocates the next window on {@code executor} while appends still have room before it.
     * Writing a window of zeros costs the writer 0.03 to 2 ms each MiB on the development machine (seed
     * workloads' puts, {@code kegdb-bench.jar seed --parts seed}; the
     * kernel allocates and clears the pages and reserves their blocks); ahead of time, on another thread,
     * writes do not wait for it.
     */
    void allocateAheadOn(Executor executor) {
        this.allocator = executor;
    }

    /**
     * Makes sure the next {@code bytes} after the position are backed by disk space, allocating a window
     * ahead (or, when the disk has less room than a window, just what is needed). Throws, with nothing
     * appended, if the filesystem cannot provide them. The caller checked {@link #fits}.
     */
    void reserve(long bytes) throws IOException {
        if (map == null) {
            mapForAppends();
        }
        long needed = position + bytes;
        if (needed > allocated) {
            awaitAllocationAhead();
            if (needed > allocated) {
                allocate(needed);
            }
        }
        if (allocator != null && (allocating == null || allocating.isFinished())
                && allocated - needed < SegmentSpace.WINDOW && allocated < capacity) {
            allocateNextWindowAhead();
        }
    }

    private void allocateNextWindowAhead() {
        WindowAhead window = new WindowAhead(allocated, Math.min(capacity, allocated + SegmentSpace.WINDOW));
        try {
            allocator.execute(window);
            allocating = window;
        } catch (RejectedExecutionException closing) {
            allocating = null;
        }
    }

    /** Takes back the allocation handed over if it has not started, else waits for it to finish. */
    private void awaitAllocationAhead() {
        WindowAhead window = allocating;
        if (window != null) {
            allocating = null;
            window.withdrawOrAwait();
        }
    }

    /**
     * One window of zeros written by the allocator thread. The writer may take it back until it starts: the
     * allocator also writes hint files, and a writer must not wait behind one.
     */
    private final class WindowAhead implements Runnable {
        private static final int QUEUED = 0;
        private static final int RUNNING = 1;
        private static final int FINISHED = 2;

        private final long from;
        private final long to;
        private final AtomicInteger state = new AtomicInteger(QUEUED);
        private final CompletableFuture<Void> finished = new CompletableFuture<>();

        WindowAhead(long from, long to) {
            this.from = from;
            this.to = to;
        }

        @Override
        public void run() {
            if (!state.compareAndSet(QUEUED, RUNNING)) {
                return; // withdrawn
            }
            try {
                SegmentSpace.allocate(channel, segment.path(), from, to);
                allocated = to;
            } catch (IOException e) {
                // The write that needs these bytes allocates them itself and reports the failure.
            } finally {
                state.set(FINISHED);
                finished.complete(null);
            }
        }

        boolean isFinished() {
            return state.get() == FINISHED;
        }

        void withdrawOrAwait() {
            if (!state.compareAndSet(QUEUED, FINISHED)) {
                finished.join(); // not interruptible: the zeros must be written before the writer goes on
            }
        }
    }

    /** Allocates up to a window ahead of the append position, or exactly {@code needed} when the disk is short. */
    private void allocate(long needed) throws IOException {
        long window = Math.min(capacity, Math.max(needed, allocated + SegmentSpace.WINDOW));
        try {
            SegmentSpace.allocate(channel, segment.path(), allocated, window);
            allocated = window;
        } catch (DiskFullException full) {
            if (window == needed) {
                throw full;
            }
            SegmentSpace.allocate(channel, segment.path(), allocated, needed);
            allocated = needed;
        }
    }

    /**
     * Stages the appends until the next {@link #publish} or {@link #rewind} in {@code staging}, to be written
     * through the channel.
     */
    void stageThrough(StagedWrite staging) {
        staging.start(position);
        staged = staging;
    }

    /** Appends one record; returns its offset. The caller checked {@link #fits}. */
    int append(byte type, byte[] key, byte[] value) throws IOException {
        int offset = position;
        int size = RecordFormat.size(key.length, value == null ? 0 : value.length);
        ByteBuffer target = bufferFor(size);
        RecordFormat.encode(target, type, key, value);
        reportIfMapped(target, offset, size);
        position += size;
        return offset;
    }

    /** Copies a record verbatim from another segment, as merge and repair do; returns its offset. Never staged. */
    int appendRaw(ByteBuffer source, int sourceOffset, int size) {
        assert staged == null;
        int offset = position;
        map.put(offset, source, sourceOffset, size);
        files.stored(channel, map, offset, size);
        position += size;
        return offset;
    }

    /** Appends a batch's commit record. */
    int appendCommit(int count) throws IOException {
        int offset = position;
        int size = RecordFormat.size(0, 4);
        ByteBuffer target = bufferFor(size);
        RecordFormat.encodeCommit(target, count);
        reportIfMapped(target, offset, size);
        position += size;
        return offset;
    }

    /** Tells the file layer of bytes just encoded into the mapping (staged bytes reach it as channel writes). */
    private void reportIfMapped(ByteBuffer target, int offset, int size) {
        if (staged == null || !staged.holds(target)) {
            files.stored(channel, map, offset, size);
        }
    }

    /**
     * Where the next {@code size} bytes are encoded: the staging buffer while a write is staged and they fit
     * in it, else the mapping at the append position (a record too large for the staging buffer is copied
     * into the mapping, and staging goes on after it).
     */
    private ByteBuffer bufferFor(int size) throws IOException {
        if (staged != null) {
            ByteBuffer staging = staged.room(channel, segment.path(), size);
            if (staging != null) {
                return staging;
            }
            staged.start(position + size);
        }
        return map.duplicate().position(position);
    }

    /**
     * Forgets everything appended after {@code mark} (a write that failed part-way): its bytes, if any
     * reached the file, lie beyond the published length and the next append overwrites them.
     */
    void rewind(int mark) {
        if (staged != null) {
            staged.finish();
            staged = null;
        }
        position = mark;
    }

    /** Writes out staged records and makes appended records readable: readers check offsets against the published length. */
    void publish() throws IOException {
        if (staged != null) {
            StagedWrite s = staged;
            staged = null;
            try {
                IOException injected = injectedWriteFailure;
                if (injected != null) {
                    injectedWriteFailure = null;
                    s.flushFirstHalf(channel);
                    throw injected;
                }
                s.flush(channel, segment.path());
            } finally {
                s.finish();
            }
        }
        segment.setLength(position);
    }

    /** fdatasync: everything appended so far is durable. A sealed or closed writer was already synced. */
    void force() throws IOException {
        // Published before the fsync starts, so the fsync covers it: the durable mark may move up to it.
        int durable = (int) segment.length();
        try {
            sync(false);
            writeMark(durable);
        } catch (ClosedChannelException alreadySealed) {
            // seal() and close() force before closing the channel
        }
    }

    /** Syncs, truncates the file to its data and closes the channel; the mapping stays readable. Idempotent. */
    void seal() throws IOException {
        if (sealed) {
            return;
        }
        awaitAllocationAhead(); // its zeros must not land past the truncation
        sync(false);
        writeMark(position);
        channel.truncate(position);
        sync(true); // also makes the mark durable
        channel.close();
        sealed = true;
        segment.writerDone();
    }

    /**
     * Rewrites the header with durable mark {@code durable} (bytes below it were just fsynced), unless a mark
     * as high is already written; not synced: the next fsync carries it, and until then the mark on disk is
     * an older, lower one. Version 1 segments have no mark.
     */
    private synchronized void writeMark(int durable) throws IOException {
        if (durable > markWritten && segment.header().hasMark()) {
            putMark(durable);
        }
    }

    /** Rewrites the header with durable mark {@code mark}. */
    private synchronized void putMark(int mark) throws IOException {
        ByteBuffer header = segment.header().withMark(mark).encode();
        while (header.hasRemaining()) {
            channel.write(header, header.position());
        }
        markWritten = mark;
    }

    private void sync(boolean metadata) throws IOException {
        IOException injected = injectedSyncFailure;
        if (injected != null) {
            if (injectOnce) {
                injectedSyncFailure = null;
            }
            throw injected;
        }
        channel.force(metadata);
    }

    /**
     * Test hook: the next fsync of this segment throws {@code failure}, and with {@code once} false every
     * later one too ({@code once} true is the kernel that reports the next fsync as a success).
     */
    void failSyncsWith(IOException failure, boolean once) {
        injectOnce = once;
        injectedSyncFailure = failure;
    }

    /** Test hook: the next staged write reaches the file only half-way, then fails with {@code failure}. */
    void failNextStagedWriteWith(IOException failure) {
        injectedWriteFailure = failure;
    }

    /** Closes without truncating (read-only use or failure paths). */
    void closeQuietly() {
        awaitAllocationAhead();
        segment.writerDone();
        try {
            channel.close();
        } catch (IOException ignored) {
            // nothing useful to do: the store is being abandoned
        }
    }
}
