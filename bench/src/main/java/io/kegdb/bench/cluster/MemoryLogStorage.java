package io.kegdb.bench.cluster;

import com.alipay.sofa.jraft.core.DefaultJRaftServiceFactory;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.codec.LogEntryEncoder;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * A Raft log kept in a map: a yardstick, never used outside the cluster benchmark. Two kinds:
 * <ul>
 *   <li><b>free</b>: nothing is written anywhere (<b>not durable</b>). A cluster on it shows what the group
 *       does when its log costs nothing, which bounds what any log storage can gain over another.</li>
 *   <li><b>fsync floor</b>: each append also writes the entries' encoded bytes into a preallocated file and
 *       fdatasyncs it, the least any durable log must do (no index, no recovery, the file wraps around, so
 *       still not a usable log). A cluster on it bounds what any durable log storage can reach here.</li>
 * </ul>
 */
final class MemoryLogStorage implements LogStorage {

    /** Creates nodes whose log is a {@link MemoryLogStorage} (meta storage stays SOFAJRaft's default). */
    static final class Factory extends DefaultJRaftServiceFactory {
        private final boolean fsync;

        Factory(boolean fsync) {
            this.fsync = fsync;
        }

        @Override
        public LogStorage createLogStorage(String uri, RaftOptions raftOptions) {
            return new MemoryLogStorage(fsync ? Path.of(uri) : null);
        }
    }

    /** Size of the fsync floor's file, written round-robin. */
    private static final int FLOOR_FILE_BYTES = 64 << 20;

    private final ConcurrentSkipListMap<Long, LogEntry> entries = new ConcurrentSkipListMap<>();
    private final Path dir;
    private volatile long firstIndex = 1;
    private FileChannel floor;
    private LogEntryEncoder encoder;
    private long floorPosition;

    /** @param dir where the fsync floor's file goes; null for the free kind */
    MemoryLogStorage(Path dir) {
        this.dir = dir;
    }

    @Override
    public boolean init(LogStorageOptions opts) {
        if (dir == null) {
            return true;
        }
        try {
            Files.createDirectories(dir);
            floor = FileChannel.open(dir.resolve("floor.log"), StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
            for (long at = 0; at < FLOOR_FILE_BYTES; at += zeros.capacity()) {
                floor.write(zeros.clear(), at);
            }
            floor.force(true);
            encoder = opts.getLogEntryCodecFactory().encoder();
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public synchronized void shutdown() {
        entries.clear();
        if (floor != null) {
            try {
                floor.close();
            } catch (IOException ignored) {
                // a yardstick's scratch file
            }
        }
    }

    /** The fsync floor: the entries' bytes written in place and made durable with one fdatasync. */
    private synchronized void writeDurably(List<LogEntry> batch) {
        try {
            for (LogEntry e : batch) {
                ByteBuffer bytes = ByteBuffer.wrap(encoder.encode(e));
                if (floorPosition + bytes.remaining() > FLOOR_FILE_BYTES) {
                    floorPosition = 0;
                }
                while (bytes.hasRemaining()) {
                    floorPosition += floor.write(bytes, floorPosition);
                }
            }
            floor.force(false);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public long getFirstLogIndex() {
        return firstIndex;
    }

    @Override
    public long getLastLogIndex() {
        return entries.isEmpty() ? firstIndex - 1 : Math.max(entries.lastKey(), firstIndex - 1);
    }

    @Override
    public LogEntry getEntry(long index) {
        return index < firstIndex ? null : entries.get(index);
    }

    @Deprecated
    @Override
    public long getTerm(long index) {
        LogEntry e = getEntry(index);
        return e == null ? 0 : e.getId().getTerm();
    }

    @Override
    public boolean appendEntry(LogEntry entry) {
        return appendEntries(List.of(entry)) == 1;
    }

    @Override
    public int appendEntries(List<LogEntry> batch) {
        if (floor != null) {
            writeDurably(batch);
        }
        if (entries.isEmpty() && !batch.isEmpty() && firstIndex == 1) {
            firstIndex = batch.get(0).getId().getIndex();
        }
        for (LogEntry e : batch) {
            entries.put(e.getId().getIndex(), e);
        }
        return batch.size();
    }

    @Override
    public boolean truncatePrefix(long firstIndexKept) {
        entries.headMap(firstIndexKept).clear();
        firstIndex = Math.max(firstIndex, firstIndexKept);
        return true;
    }

    @Override
    public boolean truncateSuffix(long lastIndexKept) {
        entries.tailMap(lastIndexKept, false).clear();
        return true;
    }

    @Override
    public boolean reset(long nextLogIndex) {
        entries.clear();
        firstIndex = nextLogIndex;
        return true;
    }
}
