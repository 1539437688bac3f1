package io.kegdb.engine;

import io.kegdb.engine.meter.Meter;
import io.kegdb.engine.meter.MeterUnit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger.Level;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * {@link IllegalArgumentException} (a {@link LimitExceededException} for a size limit) naming the limit,
 * with nothing written.
 */
public final class Bitcask implements KvStore {

    private static final System.Logger LOG = System.getLogger(Bitcask.class.getName());

    private final Path dir;
    private final BitcaskOptions options;
    private final DirectoryLock dirLock;
    /** Where every byte the store writes goes: {@link FileLayer#DISK} unless a test records them. */
    private final FileLayer files;
    private final SegmentTable table;
    private final KeyDir keyDir;
    /** Held by merge and backup, which must not delete or copy files under each other. */
    private final ReentrantLock maintenanceLock = new ReentrantLock();
    /**
     * Background file work, one task at a time: hint files of sealed segments, and the active segment's next
     * window of disk space ({@link SegmentWriter#allocateAheadOn}).
     */
    private final ExecutorService background;
    private final ScheduledExecutorService scheduler;
    private final WritePath writes;
    private final SnapshotRegistry snapshots = new SnapshotRegistry(this);
    private final StoreCounters counters = new StoreCounters();

    private volatile long merges;
    private volatile boolean closed;

    private Bitcask(Path dir, FileLayer files, BitcaskOptions options, DirectoryLock dirLock,
                    Recovery.Result recovered) throws IOException {
        this.dir = dir;
        this.files = files;
        this.options = options;
        this.dirLock = dirLock;
        this.table = recovered.table();
        this.keyDir = recovered.keyDir();
        if (options.readOnly()) {
            this.background = null;
            this.scheduler = null;
            this.writes = new WritePath(dir, files, options, table, keyDir, recovered, null, this::scheduleHint,
                    this::beforeWrite, counters);
            return;
        }
        this.background = Executors.newSingleThreadExecutor(daemon("kegdb-background-" + dir.getFileName()));
        this.writes = new WritePath(dir, files, options, table, keyDir, recovered, background, this::scheduleHint,
                    this::beforeWrite, counters);
        Segment active = writes.activeSegment();
        for (Segment s : table.all()) {
            if (s != active && !Files.exists(HintFile.pathFor(s))) {
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
        return open(dir, options, FileLayer.DISK);
    }

    /**
     * {@link #open(Path, BitcaskOptions)} writing through {@code files}. Package-private on purpose: only the
     * power-loss tests pass another layer, and a public hook would make the file layer an API to keep.
     */
    static Bitcask open(Path dir, BitcaskOptions options, FileLayer files) throws IOException {
        Objects.requireNonNull(dir, "dir");
        Objects.requireNonNull(options, "options");
        if (!options.readOnly()) {
            Directories.createDurably(files, dir);
        } else {
            OfflineMaintenance.requireDirectory(dir);
        }
        DirectoryLock lock = DirectoryLock.acquire(dir, options.readOnly());
        try {
            Recovery.Result recovered = Recovery.run(dir, files, options);
            return new Bitcask(dir, files, options, lock, recovered);
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
        counters.lookups.increment();
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

    /**
     * Looks every key up in the keydir first, then reads the records sorted by segment and offset, so that
     * the reads go forward through each segment's mapping; a record merge moved meanwhile is read again
     * where the keydir now points. The values come back in the caller's order.
     */
    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        Objects.requireNonNull(keys, "keys");
        checkOpen();
        byte[][] keyArray = keys.toArray(new byte[0][]);
        int n = keyArray.length;
        for (byte[] key : keyArray) {
            checkKey(key);
        }
        long[] locations = new long[n];
        int[] order = new int[n];
        int found = 0;
        for (int i = 0; i < n; i++) {
            long loc = keyDir.get(keyArray[i]);
            locations[i] = loc;
            if (loc != KeyDir.NONE) {
                order[found++] = i;
            }
        }
        IndexSort.sort(order, found, (a, b) -> Long.compare(locations[a], locations[b]));
        byte[][] values = new byte[n][];
        for (int j = 0; j < found; j++) {
            int i = order[j];
            byte[] value = readUnlessMergedAway(keyArray[i], locations[i]);
            values[i] = value != null ? value : get(keyArray[i]);
        }
        return Arrays.asList(values);
    }

    /** Bytes appended since open: every write that changes the store appends. */
    @Override
    public long writeVersion() {
        return writes.appended();
    }

    /** One keydir lookup: no segment is read. */
    @Override
    public boolean contains(byte[] key) {
        Objects.requireNonNull(key, "key");
        checkOpen();
        counters.lookups.increment();
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
        return new KeyDirScan(keyDir.cursor(fromInclusive, toExclusive, false), this::readAt);
    }

    @Override
    public KvIterator scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        checkOpen();
        return new KeyDirScan(keyDir.cursor(fromInclusive, toExclusive, true), this::readAt);
    }

    /** Steps through the keydir in place: no object per pair, each record's CRC and key checked. */
    @Override
    public KvCursor cursor(byte[] fromInclusive, byte[] toExclusive) {
        checkOpen();
        return new KeyDirCursor(this, keyDir, table, counters, keyDir.cursor(fromInclusive, toExclusive, false));
    }

    @Override
    public KvCursor cursorDescending(byte[] fromInclusive, byte[] toExclusive) {
        checkOpen();
        return new KeyDirCursor(this, keyDir, table, counters, keyDir.cursor(fromInclusive, toExclusive, true));
    }

    /** Walks the keydir's ordered index alone: no value is read. */
    @Override
    public KeyIterator scanKeys(byte[] fromInclusive, byte[] toExclusive, boolean descending) {
        checkOpen();
        KeyDir.Cursor cursor = keyDir.cursor(fromInclusive, toExclusive, descending);
        return new KeyDirKeyScan(cursor);
    }

    /** Counts the keydir's ordered index alone: no value is read. */
    @Override
    public long countKeys(byte[] fromInclusive, byte[] toExclusive) {
        checkOpen();
        return keyDir.count(fromInclusive, toExclusive);
    }

    /** The keydir's ordered index keeps its leaves' sizes: the same count as {@link #countKeys}. */
    @Override
    public long countKeysFromIndex(byte[] fromInclusive, byte[] toExclusive) {
        return countKeys(fromInclusive, toExclusive);
    }

    /** The value at {@code loc}, or (for a scan) the key's current value if merge moved it meanwhile. */
    private byte[] readAt(byte[] key, long loc) {
        counters.scanned.increment();
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

    /** @throws LimitExceededException if the key or value is longer than the options allow */
    @Override
    public void put(byte[] key, byte[] value, Durability durability) {
        checkKey(key);
        checkValue(value);
        Objects.requireNonNull(durability, "durability");
        writes.put(key, value, durability);
    }

    /** {@link #delete(byte[], Durability)} with the options' durability. */
    public boolean delete(byte[] key) {
        return delete(key, options.durability());
    }

    /** @throws LimitExceededException if the key is longer than the options allow */
    @Override
    public boolean delete(byte[] key, Durability durability) {
        checkKey(key);
        Objects.requireNonNull(durability, "durability");
        return writes.delete(key, durability);
    }

    /** @throws LimitExceededException if a key or value is too long, or the batch too large for one segment */
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
            throw new LimitExceededException(LimitExceededException.Limit.BATCH_SIZE,
                    BitcaskOptions.MAX_SEGMENT_SIZE - SegmentHeader.SIZE, total);
        }
        if (ops.isEmpty()) {
            checkOpen();
            if (batch.hasExpectations()) {
                writes.check(batch);
            }
            return;
        }
        writes.write(batch, total, durability);
    }

    /**
     * Under the write lock, before a write changes anything: fails a batch whose preconditions no longer
     * hold (unless nothing was written since they were read), then keeps the replaced values for open
     * snapshots.
     */
    private void beforeWrite(byte[] key, WriteBatch batch, long version) {
        if (batch != null) {
            try {
                batch.checkExpectations(this, version);
            } catch (WriteConflictException e) {
                counters.conflicts.increment();
                throw e;
            }
        }
        if (snapshots.anyOpen()) {
            if (batch == null) {
                snapshots.beforeWrite(key);
            } else {
                snapshots.beforeWrite(batch);
            }
        }
    }

    @Override
    public KvSnapshot snapshot() {
        checkOpen();
        return writes.betweenWrites(() -> snapshots.open(writes.appended()));
    }

    @Override
    public void flush() {
        checkOpen();
        writes.flush();
    }

    private void checkKey(byte[] key) {
        if (key == null) {
            throw new IllegalArgumentException("key is null");
        }
        if (key.length > options.maxKeySize()) {
            throw new LimitExceededException(LimitExceededException.Limit.KEY_SIZE, options.maxKeySize(), key.length);
        }
    }

    private void checkValue(byte[] value) {
        if (value == null) {
            throw new IllegalArgumentException("value is null");
        }
        if (value.length > options.maxValueSize()) {
            throw new LimitExceededException(LimitExceededException.Limit.VALUE_SIZE, options.maxValueSize(),
                    value.length);
        }
    }

    void checkOpen() {
        if (closed) {
            throw new StoreClosedException(dir + ": store is closed");
        }
    }

    private void checkWritable() {
        checkOpen();
        writes.checkWritable();
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
            long started = System.nanoTime();
            if (newMerge(listener).run(true)) {
                counters.mergeNanos.add(System.nanoTime() - started);
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
            if (!closed) {
                long started = System.nanoTime();
                boolean merged = newMerge(MaintenanceListener.NONE).run(false);
                if (merged) {
                    counters.mergeNanos.add(System.nanoTime() - started);
                    merges++;
                }
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
    @Override
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
            new Backup(writes, files, target, listener).run();
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
            return writes.pausingWrites(active -> {
                checkOpen();
                CheckReport.Builder report = new CheckReport.Builder();
                StoreAudit audit = new StoreAudit(report, MaintenanceListener.NONE);
                // Published lengths end at a record boundary: nothing in an open store may be a torn tail.
                audit.scanSegments(table.inReplayOrder(), null, active);
                audit.compareWithKeyDir(keyDir, table);
                return report.build();
            });
        } finally {
            maintenanceLock.unlock();
        }
    }

    /**
     * Whether {@code dir} looks like a store: a directory holding a LOCK file or a data segment. Maintenance
     * tools refuse other directories instead of turning them into a store.
     */
    public static boolean isStore(Path dir) throws IOException {
        return OfflineMaintenance.isStore(dir);
    }

    /** Whether another process (or an open store in this one) has {@code dir} open for writing. */
    public static boolean isOpenForWriting(Path dir) throws IOException {
        return OfflineMaintenance.isOpenForWriting(dir);
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
        return OfflineMaintenance.check(dir, Objects.requireNonNull(listener, "listener"));
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
        return OfflineMaintenance.repair(dir, Objects.requireNonNull(listener, "listener"));
    }

    @Override
    public BitcaskStats stats() {
        checkOpen();
        List<SegmentStats> segs = new ArrayList<>();
        long live = 0;
        long dead = 0;
        Segment active = writes.activeSegment();
        for (Segment s : table.all()) {
            boolean isActive = active == s;
            segs.add(new SegmentStats(s.id(), s.length(), s.liveBytes(), s.deadBytes(), isActive));
            live += s.liveBytes();
            dead += s.deadBytes();
        }
        return new BitcaskStats(keyDir.size(), segs.size(), live, dead, merges, keyDir.memoryBytes(),
                List.copyOf(segs));
    }

    /**
     * The store's meters: its contents (keys, live and dead bytes, segments, keydir memory), its maintenance
     * (merges and their time) and its traffic (lookups, scanned records, writes, bytes written, conflicts,
     * fsyncs with their latency, writers per group commit). Contents are read from the store's state at
     * export; traffic is counted on the paths by striped adders. Reads after close give NaN.
     */
    @Override
    public List<Meter> meters() {
        return List.of(
                Meter.gauge("kegdb.engine.keys", MeterUnit.NONE, "Live keys in the store.", keyDir::size),
                Meter.gauge("kegdb.engine.live.bytes", MeterUnit.BYTES,
                        "Bytes of the records the keydir points at.", () -> segmentBytes(true)),
                Meter.gauge("kegdb.engine.dead.bytes", MeterUnit.BYTES,
                        "Bytes of overwritten and deleted records, reclaimable by merge.", () -> segmentBytes(false)),
                Meter.gauge("kegdb.engine.segments", MeterUnit.NONE, "Data segment files.",
                        () -> table.all().size()),
                Meter.gauge("kegdb.engine.keydir.bytes", MeterUnit.BYTES,
                        "Memory the keydir holds, heap and off-heap (estimated).", keyDir::memoryBytes),
                Meter.counter("kegdb.engine.merges", MeterUnit.NONE, "Merges completed.", () -> merges),
                Meter.counter("kegdb.engine.merge.seconds", MeterUnit.SECONDS, "Time spent in completed merges.",
                        () -> counters.mergeNanos.sum() * 1e-9),
                Meter.counter("kegdb.engine.lookups", MeterUnit.NONE, "Key lookups (gets and contains).",
                        counters.lookups::sum),
                Meter.counter("kegdb.engine.scanned.records", MeterUnit.NONE, "Records read by scans.",
                        counters.scanned::sum),
                Meter.counter("kegdb.engine.writes", MeterUnit.NONE,
                        "Writes that appended: puts, deletes of present keys and atomic batches.",
                        counters.writes::sum),
                Meter.counter("kegdb.engine.written.bytes", MeterUnit.BYTES, "Bytes appended to data segments.",
                        writes::appended),
                Meter.counter("kegdb.engine.conflicts", MeterUnit.NONE,
                        "Batches refused because a precondition failed (a write conflict).", counters.conflicts::sum),
                Meter.histogram("kegdb.engine.fsync.seconds", MeterUnit.SECONDS,
                        "Time of each fsync of the active segment.", counters.fsyncs),
                Meter.histogram("kegdb.engine.group.commit.writes", MeterUnit.NONE,
                        "SYNC writers that waited for one fsync, the syncing one included (group commit).", counters.groupCommit));
    }

    private long segmentBytes(boolean live) {
        checkOpen();
        long sum = 0;
        for (Segment s : table.all()) {
            sum += live ? s.liveBytes() : s.deadBytes();
        }
        return sum;
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
        try {
            if (closed) {
                return;
            }
            closed = true;
            Segment last = writes.close();
            if (last != null) {
                // With a hint for every segment, the next open bulk-loads the keydir without reading data.
                writeHintQuietly(last);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(dir + ": close failed to sync the active segment", e);
        } finally {
            maintenanceLock.unlock();
            shutdownQuietly();
        }
    }

    private void shutdownQuietly() {
        try {
            if (scheduler != null) {
                scheduler.awaitTermination(30, TimeUnit.SECONDS);
            }
            writes.stopSyncThread();
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

    private Merge newMerge(MaintenanceListener listener) {
        return new Merge(dir, files, options, table, keyDir, writes, listener);
    }

    // ---------------------------------------------------------------- package-private, for tests

    SegmentTable table() {
        return table;
    }

    KeyDir keyDir() {
        return keyDir;
    }

    /** The active segment's writer. */
    SegmentWriter active() {
        return writes.activeWriter();
    }

    private void writeHintQuietly(Segment s) {
        try {
            HintFile.write(files, s);
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
