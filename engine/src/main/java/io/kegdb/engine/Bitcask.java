package io.kegdb.engine;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A Bitcask store: append-only data segments on disk and an in-memory keydir that maps every live key to
 * its newest record. A get is one keydir lookup and one read from a memory-mapped segment; a put is one
 * append. Thread-safe: writes are serialized, reads never wait for them, and concurrent {@link Durability#SYNC}
 * writers share fsyncs.
 *
 * <pre>{@code
 * try (Bitcask db = Bitcask.open(Path.of("data"))) {
 *     db.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
 *     byte[] v = db.get("k".getBytes(UTF_8));
 * }
 * }</pre>
 *
 * One process owns a directory at a time; a second opener gets an {@link IOException}. I/O failures of
 * reads and writes surface as {@link UncheckedIOException} naming the file; bad arguments as
 * {@link IllegalArgumentException} naming the limit, with nothing written.
 */
public final class Bitcask implements KvStore {

    private static final System.Logger LOG = System.getLogger(Bitcask.class.getName());

    private final Path dir;
    private final BitcaskOptions options;
    private final DirectoryLock dirLock;
    private final SegmentTable table;
    private final KeyDir keyDir;
    private final ReentrantLock writeLock = new ReentrantLock();
    /** Held by merge and backup, which must not delete or copy files under each other. */
    private final ReentrantLock maintenanceLock = new ReentrantLock();
    private final GroupCommit groupCommit = new GroupCommit();
    private final StagedWrite staging = new StagedWrite();
    /**
     * Background file work, one task at a time: hint files of sealed segments, and the active segment's next
     * window of disk space ({@link SegmentWriter#allocateAheadOn}).
     */
    private final ExecutorService background;
    /** Runs the fsync of a large SYNC batch while its writer updates the keydir ({@link #appendBatch}). */
    private final SyncThread syncThread;
    private final ScheduledExecutorService scheduler;

    private volatile SegmentWriter active;
    /** Bytes appended since open: the position group commit waits on. */
    private volatile long appended;
    private int nextId;
    private volatile long merges;
    private volatile boolean closed;
    /**
     * The first failed fsync or failed write of a staged record; from then on the store refuses writes until
     * it is reopened (see {@link #forceActive} and {@link #appendOneWrite}).
     */
    private volatile IOException syncFailure;

    private Bitcask(Path dir, BitcaskOptions options, DirectoryLock dirLock, Recovery.Result recovered)
            throws IOException {
        this.dir = dir;
        this.options = options;
        this.dirLock = dirLock;
        this.table = recovered.table();
        this.keyDir = recovered.keyDir();
        this.nextId = recovered.maxId() + 1;
        if (options.readOnly()) {
            this.background = null;
            this.syncThread = null;
            this.scheduler = null;
            return;
        }
        Segment last = recovered.last();
        if (last != null && last.length() < options.segmentSize()) {
            HintFile.delete(last);
            active = SegmentWriter.reopen(last, options.segmentSize());
        } else {
            active = SegmentWriter.create(dir, allocateId(), options.segmentSize());
            table.add(active.segment());
        }
        this.background = Executors.newSingleThreadExecutor(daemon("kegdb-background-" + dir.getFileName()));
        active.allocateAheadOn(background);
        this.syncThread = new SyncThread("kegdb-sync-" + dir.getFileName());
        for (Segment s : table.all()) {
            if (s != active.segment() && !Files.exists(HintFile.pathFor(s))) {
                scheduleHint(s);
            }
        }
        this.scheduler = Executors.newSingleThreadScheduledExecutor(daemon("kegdb-merge-" + dir.getFileName()));
        long every = options.mergeInterval().toMillis();
        if (every > 0) {
            scheduler.scheduleWithFixedDelay(this::scheduledMaintenance, every, every, TimeUnit.MILLISECONDS);
        }
    }

    /** Opens (creating if needed) the store in {@code dir} with default options. */
    public static Bitcask open(Path dir) throws IOException {
        return open(dir, BitcaskOptions.defaults());
    }

    /**
     * Opens (creating if needed) the store in {@code dir}: takes the directory lock, rebuilds the keydir from
     * hint files and segments, and cuts off a torn tail of the newest segment.
     *
     * @throws IOException if another process (or another open store in this one) owns the directory, or a
     *                     sealed segment is damaged (the message names the file and offset)
     */
    public static Bitcask open(Path dir, BitcaskOptions options) throws IOException {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        if (!options.readOnly()) {
            Files.createDirectories(dir);
        } else {
            requireStoreDirectory(dir);
        }
        DirectoryLock lock = DirectoryLock.acquire(dir, options.readOnly());
        try {
            Recovery.Result recovered = Recovery.run(dir, options);
            return new Bitcask(dir, options, lock, recovered);
        } catch (IOException | RuntimeException | Error e) {
            try {
                lock.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** The store's directory. */
    public Path directory() {
        return dir;
    }

    /** The options it was opened with. */
    public BitcaskOptions options() {
        return options;
    }

    // ---------------------------------------------------------------- reads

    @Override
    public byte[] get(byte[] key) {
        Objects.requireNonNull(key, "key");
        checkOpen();
        for (int attempt = 0; attempt < 8; attempt++) {
            long loc = keyDir.get(key);
            if (loc == KeyDir.NONE) {
                return null;
            }
            byte[] value = readUnlessMergedAway(key, loc);
            if (value != null) {
                return value;
            }
        }
        throw new IllegalStateException(dir + ": the keydir keeps pointing at merged-away segments");
    }

    /** Bytes appended since open: every write that changes the store appends. */
    @Override
    public long writeVersion() {
        return appended;
    }

    /** One keydir lookup: no segment is read. */
    @Override
    public boolean contains(byte[] key) {
        Objects.requireNonNull(key, "key");
        checkOpen();
        return keyDir.get(key) != KeyDir.NONE;
    }

    /** Every live key, in key order (go-bitcask's ListKeys). */
    public List<byte[]> listKeys() {
        checkOpen();
        List<byte[]> keys = new ArrayList<>();
        KeyDir.Cursor c = keyDir.cursor(null, null, false);
        while (c.next()) {
            keys.add(c.key());
        }
        return keys;
    }

    /** Calls {@code visitor} with every live pair, in key order; stops at the first exception it throws. */
    public void fold(KeyValueVisitor visitor) throws IOException {
        Objects.requireNonNull(visitor, "visitor");
        try (KvIterator it = scan(null, null)) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                visitor.visit(kv.key(), kv.value());
            }
        }
    }

    @Override
    public KvIterator scan(byte[] fromInclusive, byte[] toExclusive) {
        checkOpen();
        return new Scan(keyDir.cursor(fromInclusive, toExclusive, false));
    }

    @Override
    public KvIterator scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        checkOpen();
        return new Scan(keyDir.cursor(fromInclusive, toExclusive, true));
    }

    /** Reads values for a keydir cursor; a key deleted while the scan runs is skipped. */
    private final class Scan implements KvIterator {
        private final KeyDir.Cursor cursor;
        private KeyValue next;

        Scan(KeyDir.Cursor cursor) {
            this.cursor = cursor;
        }

        @Override
        public boolean hasNext() {
            while (next == null && cursor.next()) {
                byte[] key = cursor.key();
                byte[] value = readAt(key, cursor.location());
                if (value != null) {
                    next = new KeyValue(key, value);
                }
            }
            return next != null;
        }

        @Override
        public KeyValue next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            KeyValue kv = next;
            next = null;
            return kv;
        }

        @Override
        public void close() {
            next = null;
        }
    }

    /** The value at {@code loc}, or (for a scan) the key's current value if merge moved it meanwhile. */
    private byte[] readAt(byte[] key, long loc) {
        byte[] value = readUnlessMergedAway(key, loc);
        return value != null ? value : get(key);
    }

    /**
     * The value of the record at {@code loc}, or null if its segment was merged away after the keydir lookup
     * (the keydir then already points at the copy).
     */
    private byte[] readUnlessMergedAway(byte[] key, long loc) {
        Segment s = table.get(Location.segment(loc));
        if (s == null) {
            return null;
        }
        try {
            return s.readValue(Location.offset(loc), key);
        } catch (UncheckedIOException e) {
            if (table.get(Location.segment(loc)) == s) {
                throw e;
            }
            return null;
        }
    }

    // ---------------------------------------------------------------- writes

    /** {@link #put(byte[], byte[], Durability)} with the options' durability. */
    public void put(byte[] key, byte[] value) {
        put(key, value, options.durability());
    }

    @Override
    public void put(byte[] key, byte[] value, Durability durability) {
        checkKey(key);
        checkValue(value);
        Objects.requireNonNull(durability, "durability");
        long end;
        writeLock.lock();
        try {
            checkWritable();
            end = appendPut(key, value, durability);
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": write failed: " + e.getMessage(), e);
        } catch (InternalError e) {
            throw mappedWriteFailed(e);
        } finally {
            writeLock.unlock();
        }
        awaitDurable(end, durability);
    }

    /** {@link #delete(byte[], Durability)} with the options' durability. */
    public boolean delete(byte[] key) {
        return delete(key, options.durability());
    }

    @Override
    public boolean delete(byte[] key, Durability durability) {
        checkKey(key);
        Objects.requireNonNull(durability, "durability");
        long end;
        writeLock.lock();
        try {
            checkWritable();
            end = appendDelete(key, durability);
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": write failed: " + e.getMessage(), e);
        } catch (InternalError e) {
            throw mappedWriteFailed(e);
        } finally {
            writeLock.unlock();
        }
        if (end < 0) {
            return false;
        }
        awaitDurable(end, durability);
        return true;
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

    @Override
    public void write(WriteBatch batch, Durability durability) {
        Objects.requireNonNull(batch, "batch");
        Objects.requireNonNull(durability, "durability");
        List<WriteBatch.Op> ops = batch.ops();
        long total = RecordFormat.size(0, 4);
        for (WriteBatch.Op op : ops) {
            checkKey(op.key());
            if (op.value() != null) {
                checkValue(op.value());
            }
            total += RecordFormat.size(op.key().length, op.value() == null ? 0 : op.value().length);
        }
        // Every record must start below 1 GiB into its segment (see Location).
        if (total > BitcaskOptions.MAX_SEGMENT_SIZE - SegmentHeader.SIZE) {
            throw new IllegalArgumentException("batch of " + total + " encoded bytes exceeds the limit of "
                    + (BitcaskOptions.MAX_SEGMENT_SIZE - SegmentHeader.SIZE));
        }
        if (ops.isEmpty()) {
            checkOpen();
            return;
        }
        long end;
        writeLock.lock();
        try {
            checkWritable();
            checkAbsent(ops, batch.absentSince() >= 0 && batch.absentSince() == appended);
            if (ops.size() == 1) {
                // One operation needs no commit record: a single record is atomic by its CRC.
                WriteBatch.Op op = ops.get(0);
                end = op.value() == null ? appendDelete(op.key(), durability) : appendPut(op.key(), op.value(), durability);
            } else {
                end = appendBatch(batch, total, durability);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": write failed: " + e.getMessage(), e);
        } catch (InternalError e) {
            throw mappedWriteFailed(e);
        } finally {
            writeLock.unlock();
        }
        if (end >= 0) {
            awaitDurable(end, durability);
        }
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

    /**
     * Batches of at least this many operations prefetch their keydir slots and, when SYNC, sync while their
     * keydir updates run (0.2 to 0.4 µs each): below it neither pays for itself.
     */
    private static final int LARGE_BATCH = 128;

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

    @Override
    public void flush() {
        checkOpen();
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
        if (!old.isEmpty() && !old.isSealed()) {
            // After a failed creation below, the sealed writer stays active (fits() refuses every
            // write) until a later write manages to create its successor.
            try {
                old.seal();
            } catch (IOException e) {
                syncFailure = e;
                throw e;
            }
            groupCommit.markDurable(appended);
            scheduleHint(old.segment());
        }
        long capacity = Math.max(options.segmentSize(), SegmentHeader.SIZE + size);
        SegmentWriter w = SegmentWriter.create(dir, allocateId(), capacity);
        w.allocateAheadOn(background);
        table.add(w.segment());
        active = w;
        if (old.isEmpty()) {
            old.closeQuietly();
            table.remove(old.segment());
            Files.deleteIfExists(old.segment().path());
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
            active.force();
        } catch (IOException e) {
            syncFailure = e;
            throw e;
        }
    }

    private void checkKey(byte[] key) {
        if (key == null) {
            throw new IllegalArgumentException("key is null");
        }
        if (key.length > options.maxKeySize()) {
            throw new IllegalArgumentException("key of " + key.length + " bytes exceeds maxKeySize "
                    + options.maxKeySize());
        }
    }

    private void checkValue(byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("value is null");
        }
        if (value.length > options.maxValueSize()) {
            throw new IllegalArgumentException("value of " + value.length + " bytes exceeds maxValueSize "
                    + options.maxValueSize());
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(dir + ": store is closed");
        }
    }

    private void checkWritable() {
        checkOpen();
        if (options.readOnly()) {
            throw new IllegalStateException(dir + ": store is open read-only");
        }
        IOException failed = syncFailure;
        if (failed != null) {
            throw new UncheckedIOException(new IOException(dir + ": an earlier fsync or write failed ("
                    + failed.getMessage() + "); the store refuses writes until it is reopened", failed));
        }
    }

    // ---------------------------------------------------------------- maintenance

    /**
     * Compacts now: sealed segments that hold no live record are deleted outright (oldest first), the live
     * records of the other sealed segments are rewritten into new segments, and the old ones deleted.
     * Reads and writes continue meanwhile. A crash at any point leaves a store that opens with exactly the
     * data it had.
     */
    public void merge() throws IOException {
        merge(MaintenanceListener.NONE);
    }

    /**
     * {@link #merge()}, reporting bytes and segments done and each durable step (output written, hint written,
     * output installed, keydir moved, input deleted) to {@code listener} on the merging thread.
     */
    public void merge(MaintenanceListener listener) throws IOException {
        Objects.requireNonNull(listener, "listener");
        checkWritable();
        maintenanceLock.lock();
        try {
            checkOpen();
            if (new Merge(this, listener).run(true)) {
                merges++;
            }
        } finally {
            maintenanceLock.unlock();
        }
    }

    private void scheduledMaintenance() {
        if (closed || !maintenanceLock.tryLock()) {
            return;
        }
        try {
            if (!closed && new Merge(this, MaintenanceListener.NONE).run(false)) {
                merges++;
            }
            table.enforceBound();
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, dir + ": scheduled merge failed", e);
        } finally {
            maintenanceLock.unlock();
        }
    }

    /**
     * Writes a consistent copy of the store, as of the moment this call starts, into {@code target} (created
     * if needed, and which must not hold a store). {@code Bitcask.open(target)} opens the copy. Reads and
     * writes continue while the copy is made.
     */
    public void backup(Path target) throws IOException {
        backup(target, MaintenanceListener.NONE);
    }

    /** {@link #backup(Path)}, reporting bytes and segments copied to {@code listener}. */
    public void backup(Path target, MaintenanceListener listener) throws IOException {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(listener, "listener");
        checkOpen();
        maintenanceLock.lock();
        try {
            checkOpen();
            new Backup(this, target, listener).run();
        } finally {
            maintenanceLock.unlock();
        }
    }

    /**
     * Checks the open store from end to end: every segment's header, records (CRC and framing) and hint file;
     * every keydir entry's record (valid CRC, a put of that very key, and the record that replaying the
     * segments on restart would end at, so no key would come back or vanish); and every segment's live and
     * dead byte accounting (what {@link #stats()} reports and merge decides by) against the records the keydir
     * points at.
     *
     * <p>It holds the write lock (and excludes merge and backup) for its whole run, so it sees one consistent
     * state: reads go on, writes wait. It reads every byte of data, so on a large store it takes as long as
     * reading the store from disk. The store itself is not changed.
     *
     * @return the findings; {@link CheckReport#ok()} when the store is consistent
     * @throws IOException if a file cannot be read
     */
    public CheckReport verify() throws IOException {
        checkOpen();
        maintenanceLock.lock();
        try {
            writeLock.lock();
            try {
                checkOpen();
                CheckReport.Builder report = new CheckReport.Builder();
                StoreAudit audit = new StoreAudit(report, MaintenanceListener.NONE);
                // Published lengths end at a record boundary: nothing in an open store may be a torn tail.
                audit.scanSegments(table.inReplayOrder(), null, active == null ? null : active.segment());
                audit.compareWithKeyDir(keyDir, table);
                return report.build();
            } finally {
                writeLock.unlock();
            }
        } finally {
            maintenanceLock.unlock();
        }
    }

    private static void requireStoreDirectory(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IOException(dir + ": no such store directory");
        }
    }

    /** {@link #check(Path, MaintenanceListener)} without progress reports. */
    public static CheckReport check(Path dir) throws IOException {
        return check(dir, MaintenanceListener.NONE);
    }

    /**
     * Checks the closed store in {@code dir} without changing it: every data segment's header and records
     * (each damaged region with its file and offsets, a torn tail of the newest segment), every hint file
     * against its segment, temporary files an interrupted merge left, and the directory lock. It holds a
     * shared lock while it runs, so no writer can open the store meanwhile.
     *
     * @return the findings; if another process (or an open store in this one) holds the directory, the report
     *         says so and nothing else is checked
     * @throws IOException if {@code dir} is not a directory or a file cannot be read
     */
    public static CheckReport check(Path dir, MaintenanceListener listener) throws IOException {
        Objects.requireNonNull(listener, "listener");
        requireStoreDirectory(dir);
        DirectoryLock lock = null;
        String lockState = "no LOCK file: the store was never opened for writing";
        if (Files.exists(dir.resolve(DirectoryLock.FILE_NAME))) {
            try {
                lock = DirectoryLock.acquire(dir, true);
                lockState = "LOCK is free: no process has the store open";
            } catch (IOException held) {
                CheckReport.Builder report = new CheckReport.Builder();
                report.problem(held.getMessage() + "; a store is checked while closed (an open store: verify())");
                return report.build();
            }
        }
        try {
            DirectoryCheck c = DirectoryCheck.run(dir, listener);
            c.report.note(lockState);
            return c.report.build();
        } finally {
            if (lock != null) {
                lock.close();
            }
        }
    }

    /** {@link #repair(Path, MaintenanceListener)} without progress reports. */
    public static CheckReport repair(Path dir) throws IOException {
        return repair(dir, MaintenanceListener.NONE);
    }

    /**
     * Repairs the closed store in {@code dir}, keeping every intact committed record: deletes temporary files
     * and hints without data, truncates a torn tail, rewrites a damaged segment without its damaged regions
     * (records there are lost; an older record of the same key, or a key a lost tombstone deleted, may then
     * be visible again), restores an unreadable segment header, and deletes hint files that do not match
     * their segment so that open rebuilds them. Each change is crash-safe. It takes the directory lock.
     *
     * @return {@link CheckReport#changes()} lists every change made, the problems found before as notes, and
     *         {@link CheckReport#problems()} what a check finds afterwards (normally nothing)
     * @throws IOException if {@code dir} is not a directory, another process has the store open, or a file
     *                     cannot be read or written
     */
    public static CheckReport repair(Path dir, MaintenanceListener listener) throws IOException {
        Objects.requireNonNull(listener, "listener");
        requireStoreDirectory(dir);
        try (DirectoryLock lock = DirectoryLock.acquire(dir, false)) {
            return DirectoryRepair.run(dir, listener);
        }
    }

    @Override
    public BitcaskStats stats() {
        checkOpen();
        List<SegmentStats> segs = new ArrayList<>();
        long live = 0;
        long dead = 0;
        SegmentWriter w = active;
        for (Segment s : table.all()) {
            boolean isActive = w != null && w.segment() == s;
            segs.add(new SegmentStats(s.id(), s.length(), s.liveBytes(), s.deadBytes(), isActive));
            live += s.liveBytes();
            dead += s.deadBytes();
        }
        return new BitcaskStats(keyDir.size(), segs.size(), live, dead, merges, keyDir.memoryBytes(),
                List.copyOf(segs));
    }

    /** Makes every write durable, writes the active segment's final length and releases the directory. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        if (scheduler != null) {
            scheduler.shutdownNow();
        }
        maintenanceLock.lock();
        writeLock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            if (active != null && syncFailure != null) {
                // What is in memory may not be on disk: write nothing more (no truncation, no hint) and let
                // the next open recover from the file as it really is.
                LOG.log(Level.WARNING, dir + ": closing without a final sync after an fsync failure", syncFailure);
                active.closeQuietly();
            } else if (active != null) {
                active.seal();
                groupCommit.markDurable(appended);
                // With a hint for every segment, the next open bulk-loads the keydir without reading data.
                writeHintQuietly(active.segment());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": close failed to sync the active segment", e);
        } finally {
            writeLock.unlock();
            maintenanceLock.unlock();
            shutdownQuietly();
        }
    }

    private void shutdownQuietly() {
        try {
            if (scheduler != null) {
                scheduler.awaitTermination(30, TimeUnit.SECONDS);
            }
            if (syncThread != null) {
                syncThread.close();
            }
            if (background != null) {
                background.shutdown();
                background.awaitTermination(60, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                dirLock.close();
            } catch (IOException e) {
                LOG.log(Level.WARNING, dir + ": releasing the directory lock failed", e);
            }
        }
    }

    // ---------------------------------------------------------------- package-private plumbing for Merge, Backup

    SegmentTable table() {
        return table;
    }

    KeyDir keyDir() {
        return keyDir;
    }

    ReentrantLock writeLock() {
        return writeLock;
    }

    boolean isClosed() {
        return closed;
    }

    /** The active segment; callers hold the write lock. */
    SegmentWriter active() {
        return active;
    }

    /** A fresh segment id; callers hold the write lock (or are the constructor). */
    int allocateId() throws IOException {
        return Location.checkSegmentId(nextId++, dir);
    }

    /** Makes every byte appended so far durable; callers hold the write lock. */
    void syncActive() throws IOException {
        forceActive();
        groupCommit.markDurable(appended);
    }

    private static void writeHintQuietly(Segment s) {
        try {
            HintFile.write(s);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.WARNING, s.path() + ": writing the hint file failed; open will scan the segment", e);
        }
    }

    void scheduleHint(Segment s) {
        if (background == null || background.isShutdown()) {
            return;
        }
        background.execute(() -> {
            if (table.get(s.id()) == s) {
                writeHintQuietly(s);
            }
        });
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }
}
