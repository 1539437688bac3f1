package io.kegdb.bench.cluster;

import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The yardstick log must behave as a log, or the cluster it measures would not be doing Raft's work. */
class MemoryLogStorageTest {

    private static List<LogEntry> entries(long from, long to, long term) {
        List<LogEntry> list = new ArrayList<>();
        for (long i = from; i <= to; i++) {
            LogEntry e = new LogEntry(EntryType.ENTRY_TYPE_NO_OP);
            e.setId(new LogId(i, term));
            list.add(e);
        }
        return list;
    }

    @Test
    void appendsTruncatesAndResetsLikeALog() {
        MemoryLogStorage log = new MemoryLogStorage(null);
        assertEquals(1, log.getFirstLogIndex());
        assertEquals(0, log.getLastLogIndex());
        assertEquals(10, log.appendEntries(entries(1, 10, 1)));
        assertEquals(10, log.getLastLogIndex());
        assertEquals(1, log.getEntry(7).getId().getTerm());

        assertTrue(log.truncateSuffix(8));
        assertEquals(8, log.getLastLogIndex());
        assertNull(log.getEntry(9));
        log.appendEntries(entries(9, 12, 2));
        assertEquals(2, log.getEntry(12).getId().getTerm());

        assertTrue(log.truncatePrefix(5));
        assertEquals(5, log.getFirstLogIndex());
        assertNull(log.getEntry(4));
        assertNotNull(log.getEntry(5));

        assertTrue(log.reset(100));
        assertEquals(100, log.getFirstLogIndex());
        assertEquals(99, log.getLastLogIndex());
    }

    @Test
    void theFsyncFloorWritesEveryAppendToItsFile(@TempDir Path dir) throws Exception {
        MemoryLogStorage log = new MemoryLogStorage(dir);
        LogStorageOptions opts = new LogStorageOptions();
        opts.setLogEntryCodecFactory(LogEntryV2CodecFactory.getInstance());
        assertTrue(log.init(opts));
        try {
            assertEquals(5, log.appendEntries(entries(1, 5, 1)));
            assertEquals(5, log.getLastLogIndex());
            byte[] file = Files.readAllBytes(dir.resolve("floor.log"));
            int written = 0;
            for (byte b : java.util.Arrays.copyOf(file, 4096)) {
                written += b != 0 ? 1 : 0;
            }
            assertTrue(written > 0, "the encoded entries are in the file");
        } finally {
            log.shutdown();
        }
    }
}
