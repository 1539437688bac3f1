package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.entity.codec.LogEntryDecoder;
import com.alipay.sofa.jraft.entity.codec.LogEntryEncoder;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import com.alipay.sofa.jraft.util.Describer;
import io.kegdb.engine.Bitcask;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.locks.ReadWriteLock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A SOFAJRaft {@link LogStorage} kept in a {@link Bitcask} store, a drop-in for {@code RocksDBLogStorage}.
 *
 * <p>Each entry is stored under its index (8 big-endian bytes), encoded with the node's
 * {@link com.alipay.sofa.jraft.entity.codec.LogEntryCodecFactory}. {@link #appendEntries(List)} writes one
 * atomic batch, synced once when {@link RaftOptions#isSync()}. Configuration entries also leave a small
 * marker key so {@link #init} replays them without reading the whole log. The first log index is a key of its
 * own: {@link #truncatePrefix(long)} moves it at once and a background thread deletes the dropped entries,
 * then lets the engine drop segments that hold nothing live.
 *
 * <p>The last log index is never below {@code first - 1}; an empty log has first 1 and last 0. Reads may run
 * concurrently with the one thread that appends and truncates.
 */
public class BitcaskLogStorage implements LogStorage, Describer {

    private static final Logger LOG = LoggerFactory.getLogger(BitcaskLogStorage.class);
    private static final byte[] MARKER = new byte[0];

    private final String path;
    private final Durability durability;
    private final StoreOpener opener;
    private final ReadWriteLock lock = new ReentrantReadWriteLock();

    private volatile KvStore store;
    private volatile long firstIndex = 1;
    /** Highest index stored (possibly below the first index after a truncation); 0 when none. */
    private volatile long lastStored;
    /** Whether the first index is persisted; until then it follows the lowest entry, as RocksDBLogStorage's. */
    private boolean firstPinned;
    private LogEntryEncoder encoder;
    private LogEntryDecoder decoder;
    private PrefixReclaimer reclaimer;

    /**
     * @param path        directory of the log's Bitcask store; created if missing
     * @param raftOptions {@link RaftOptions#isSync()} decides whether appends and truncations are fsynced
     */
    public BitcaskLogStorage(String path, RaftOptions raftOptions) {
        this(path, raftOptions, StoreOpener.bitcask(StoreOpener.LOG_SEGMENT_SIZE));
    }

    BitcaskLogStorage(String path, RaftOptions raftOptions, StoreOpener opener) {
        this.path = Objects.requireNonNull(path, "path");
        this.durability = raftOptions.isSync() ? Durability.SYNC : Durability.NO_SYNC;
        this.opener = opener;
    }

    @Override
    public boolean init(LogStorageOptions opts) {
        Objects.requireNonNull(opts.getLogEntryCodecFactory(), "Null log entry codec factory");
        lock.writeLock().lock();
        try {
            if (store != null) {
                LOG.warn("Log storage in {} is already initialized", path);
                return true;
            }
            encoder = Objects.requireNonNull(opts.getLogEntryCodecFactory().encoder(), "Null log entry encoder");
            decoder = Objects.requireNonNull(opts.getLogEntryCodecFactory().decoder(), "Null log entry decoder");
            Path dir = Path.of(path);
            if (Files.exists(dir) && !Files.isDirectory(dir)) {
                LOG.error("Log storage path {} is a regular file, not a directory", path);
                return false;
            }
            Files.createDirectories(dir);
            KvStore kv = opener.open(dir);
            boolean garbage;
            try {
                garbage = load(kv, opts.getConfigurationManager());
            } catch (IOException | RuntimeException e) {
                kv.close();
                throw e;
            }
            store = kv;
            reclaimer = new PrefixReclaimer(path, lock.readLock(), () -> store, () -> firstIndex);
            if (garbage) {
                reclaimer.request();
            }
            LOG.info("Opened log storage in {}: first index {}, last index {}", path, firstIndex, getLastLogIndex());
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.error("Fail to init log storage in {}", path, e);
            return false;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /**
     * Reads the first and last index and replays configuration entries; true if keys below the first index
     * are left to reclaim.
     */
    private boolean load(KvStore kv, ConfigurationManager confManager) throws IOException {
        long lowest = lowestIndex(kv);
        long highest = highestIndexBelow(kv, LogKeys.ENTRIES_END);
        byte[] persistedFirst = kv.get(LogKeys.FIRST_INDEX);
        long first = persistedFirst != null ? LogKeys.decodeLong(persistedFirst) : (lowest >= 0 ? lowest : 1);
        firstIndex = first;
        firstPinned = persistedFirst != null;
        lastStored = Math.max(highest, 0);

        // Markers come back in index order, which is the order the manager insists on.
        try (KvIterator it = kv.scan(LogKeys.conf(first), LogKeys.CONF_END)) {
            while (it.hasNext()) {
                long index = LogKeys.confIndex(it.next().key());
                byte[] bytes = kv.get(LogKeys.entry(index));
                LogEntry entry = bytes == null ? null : decoder.decode(bytes);
                if (entry == null) {
                    throw new IOException("configuration entry at index " + index + " in " + path
                            + (bytes == null ? " is missing" : " cannot be decoded"));
                }
                if (!ConfigurationEntries.isConfiguration(entry)) {
                    continue; // overwritten by a data entry after the marker was written
                }
                if (confManager != null && !confManager.add(ConfigurationEntries.of(entry))) {
                    throw new IOException("configuration manager rejected the entry at index " + index + " in "
                            + path);
                }
            }
        }
        boolean garbage = lowest >= 0 && lowest < first;
        if (!garbage) {
            try (KvIterator it = kv.scan(LogKeys.conf(0), LogKeys.conf(first))) {
                garbage = it.hasNext();
            }
        }
        return garbage;
    }

    /** The lowest entry index stored; -1 if none. */
    private static long lowestIndex(KvStore kv) {
        try (KvIterator it = kv.scan(null, LogKeys.ENTRIES_END)) {
            return it.hasNext() ? LogKeys.entryIndex(it.next().key()) : -1;
        }
    }

    /** The highest entry index stored under a key below {@code end}; -1 if none. */
    private static long highestIndexBelow(KvStore kv, byte[] end) {
        try (KvIterator it = kv.scanDescending(null, end)) {
            return it.hasNext() ? LogKeys.entryIndex(it.next().key()) : -1;
        }
    }

    @Override
    public void shutdown() {
        PrefixReclaimer r = reclaimer;
        if (r != null) {
            r.close(); // before taking the write lock: a running batch holds the read lock
        }
        lock.writeLock().lock();
        try {
            KvStore kv = store;
            store = null;
            reclaimer = null;
            if (kv != null) {
                kv.close();
                LOG.info("Closed log storage in {}", path);
            }
        } catch (RuntimeException e) {
            LOG.error("Fail to close log storage in {}", path, e);
        } finally {
            lock.writeLock().unlock();
        }
    }

    @Override
    public long getFirstLogIndex() {
        return firstIndex;
    }

    @Override
    public long getLastLogIndex() {
        return Math.max(lastStored, firstIndex - 1);
    }

    @Override
    public LogEntry getEntry(long index) {
        if (index < firstIndex || index > lastStored) {
            return null;
        }
        lock.readLock().lock();
        try {
            KvStore kv = store;
            if (kv == null) {
                return null;
            }
            byte[] bytes = kv.get(LogKeys.entry(index));
            if (bytes == null) {
                return null;
            }
            LogEntry entry = decoder.decode(bytes);
            if (entry == null) {
                LOG.error("Bad log entry format at index {} in {} ({} bytes)", index, path, bytes.length);
            }
            return entry;
        } catch (RuntimeException e) {
            LOG.error("Fail to read log entry at index {} in {}", index, path, e);
            return null;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Deprecated
    @Override
    public long getTerm(long index) {
        LogEntry entry = getEntry(index);
        return entry == null ? 0 : entry.getId().getTerm();
    }

    @Override
    public boolean appendEntry(LogEntry entry) {
        return appendEntries(List.of(entry)) == 1;
    }

    @Override
    public int appendEntries(List<LogEntry> entries) {
        if (entries == null || entries.isEmpty()) {
            return 0;
        }
        lock.readLock().lock();
        try {
            KvStore kv = store;
            if (kv == null) {
                LOG.warn("Append to log storage in {} that is not open", path);
                return 0;
            }
            WriteBatch batch = new WriteBatch();
            long max = lastStored;
            long min = Long.MAX_VALUE;
            for (LogEntry entry : entries) {
                long index = entry.getId().getIndex();
                batch.put(LogKeys.entry(index), encoder.encode(entry));
                if (ConfigurationEntries.isConfiguration(entry)) {
                    batch.put(LogKeys.conf(index), MARKER);
                }
                max = Math.max(max, index);
                min = Math.min(min, index);
            }
            long first = firstIndex;
            if (!firstPinned) {
                // The first append to a log whose first index was never set: the log starts at its lowest entry.
                first = lastStored == 0 ? min : Math.min(first, min);
                batch.put(LogKeys.FIRST_INDEX, LogKeys.encodeLong(first));
            }
            kv.write(batch, durability);
            if (!firstPinned) {
                firstIndex = first;
                firstPinned = true;
            }
            lastStored = max;
            return entries.size();
        } catch (RuntimeException e) {
            LOG.error("Fail to append {} entries to log storage in {}", entries.size(), path, e);
            return 0;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public boolean truncatePrefix(long firstIndexKept) {
        lock.readLock().lock();
        try {
            KvStore kv = store;
            if (kv == null) {
                return false;
            }
            if (firstIndexKept <= firstIndex) {
                return true; // nothing to drop; the first index never moves back
            }
            kv.put(LogKeys.FIRST_INDEX, LogKeys.encodeLong(firstIndexKept), durability);
            firstIndex = firstIndexKept;
            firstPinned = true;
            reclaimer.request();
            return true;
        } catch (RuntimeException e) {
            LOG.error("Fail to truncate prefix before {} in {}", firstIndexKept, path, e);
            return false;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public boolean truncateSuffix(long lastIndexKept) {
        lock.readLock().lock();
        try {
            KvStore kv = store;
            if (kv == null) {
                return false;
            }
            if (lastIndexKept >= lastStored) {
                return true;
            }
            long from = Math.max(lastIndexKept + 1, 0);
            WriteBatch batch = new WriteBatch();
            deleteAll(kv, LogKeys.entry(from), LogKeys.ENTRIES_END, batch);
            deleteAll(kv, LogKeys.conf(from), LogKeys.CONF_END, batch);
            kv.write(batch, durability);
            lastStored = Math.max(highestIndexBelow(kv, LogKeys.entry(from)), 0);
            return true;
        } catch (RuntimeException e) {
            LOG.error("Fail to truncate suffix after {} in {}", lastIndexKept, path, e);
            return false;
        } finally {
            lock.readLock().unlock();
        }
    }

    @Override
    public boolean reset(long nextLogIndex) {
        if (nextLogIndex <= 0) {
            throw new IllegalArgumentException("nextLogIndex " + nextLogIndex + " is not positive");
        }
        lock.writeLock().lock();
        try {
            KvStore kv = store;
            if (kv == null) {
                return false;
            }
            LogEntry entry = getEntry(nextLogIndex);
            if (entry == null) {
                entry = new LogEntry(EntryType.ENTRY_TYPE_NO_OP);
                entry.setId(new LogId(nextLogIndex, 0));
                LOG.warn("No entry at {} when resetting log storage in {}; writing a no-op", nextLogIndex, path);
            }
            // One atomic batch: after a crash the log is either the old one or the reset one. Entries below
            // nextLogIndex are hidden by the new first index and reclaimed in the background.
            WriteBatch batch = new WriteBatch();
            deleteAll(kv, LogKeys.entry(nextLogIndex + 1), LogKeys.ENTRIES_END, batch);
            deleteAll(kv, LogKeys.conf(0), LogKeys.CONF_END, batch);
            batch.put(LogKeys.entry(nextLogIndex), encoder.encode(entry));
            if (ConfigurationEntries.isConfiguration(entry)) {
                batch.put(LogKeys.conf(nextLogIndex), MARKER);
            }
            batch.put(LogKeys.FIRST_INDEX, LogKeys.encodeLong(nextLogIndex));
            kv.write(batch, durability);
            firstIndex = nextLogIndex;
            firstPinned = true;
            lastStored = nextLogIndex;
            reclaimer.request();
            return true;
        } catch (RuntimeException e) {
            LOG.error("Fail to reset log storage in {} to next index {}", path, nextLogIndex, e);
            return false;
        } finally {
            lock.writeLock().unlock();
        }
    }

    private static void deleteAll(KvStore kv, byte[] from, byte[] to, WriteBatch batch) {
        try (KvIterator it = kv.scan(from, to)) {
            while (it.hasNext()) {
                KeyValue kvp = it.next();
                batch.delete(kvp.key());
            }
        }
    }

    /** Waits for the background deletion of truncated entries; true if it finished within {@code timeout}. */
    boolean awaitReclaimed(Duration timeout) throws InterruptedException {
        PrefixReclaimer r = reclaimer;
        return r == null || r.awaitIdle(timeout);
    }

    @Override
    public void describe(Printer out) {
        KvStore kv = store;
        out.println("BitcaskLogStorage " + path + ": first=" + firstIndex + ", last=" + getLastLogIndex()
                + (kv == null ? ", closed" : ", " + kv.stats()));
    }
}
