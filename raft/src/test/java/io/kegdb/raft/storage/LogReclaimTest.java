package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.BitcaskStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A truncated prefix gives its disk space back: segments holding only dropped entries disappear. */
class LogReclaimTest {

    private static final long SEGMENT = 1 << 20;

    @TempDir
    Path dir;

    private BitcaskLogStorage open() {
        BitcaskLogStorage log = new BitcaskLogStorage(dir.toString(), TestLogs.raftOptions(false),
                StoreOpener.bitcask(SEGMENT));
        assertTrue(log.init(TestLogs.options(new ConfigurationManager(), LogEntryV2CodecFactory.getInstance())));
        return log;
    }

    private BitcaskStats stats() throws Exception {
        try (Bitcask store = Bitcask.open(dir, BitcaskOptions.builder().segmentSize(SEGMENT)
                .mergeInterval(Duration.ZERO).build())) {
            return store.stats();
        }
    }

    @Test
    void reclaimingALargePrefixDropsWholeSegments() throws Exception {
        BitcaskLogStorage log = open();
        byte[] payload = new byte[4096];
        for (int i = 1; i <= 3000; i += 100) {
            List<LogEntry> batch = new ArrayList<>();
            for (int j = i; j < i + 100; j++) {
                batch.add(TestLogs.data(j, 1, payload));
            }
            assertEquals(100, log.appendEntries(batch));
        }
        log.shutdown();
        BitcaskStats before = stats();
        assertTrue(before.segments() >= 10, "12 MB of entries fill about 12 segments of 1 MiB: " + before);

        log = open();
        assertTrue(log.truncatePrefix(2801));
        assertTrue(log.awaitReclaimed(Duration.ofSeconds(30)));
        assertEquals(2801, log.getFirstLogIndex());
        assertEquals(3000, log.getLastLogIndex());
        log.shutdown();

        BitcaskStats after = stats();
        assertEquals(200 + 1, after.keys(), "200 entries and the first index are left: " + after);
        assertTrue(after.segments() <= before.segments() / 3,
                "segments before " + before.segments() + ", after " + after.segments());
        log = open();
        try {
            assertEquals(2801, log.getFirstLogIndex());
            assertEquals(4096, log.getEntry(3000).getData().remaining());
            assertNull(log.getEntry(2800));
        } finally {
            log.shutdown();
        }
    }
}
