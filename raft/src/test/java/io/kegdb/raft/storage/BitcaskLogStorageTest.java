package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.codec.LogEntryCodecFactory;
import com.alipay.sofa.jraft.entity.codec.LogEntryDecoder;
import com.alipay.sofa.jraft.entity.codec.LogEntryEncoder;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static io.kegdb.raft.storage.TestLogs.conf;
import static io.kegdb.raft.storage.TestLogs.data;
import static io.kegdb.raft.storage.TestLogs.range;
import static io.kegdb.raft.storage.TestLogs.text;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The LogStorage contract as SOFAJRaft's LogManagerImpl relies on it. */
@SuppressWarnings("deprecation") // getTerm, deprecated in SOFAJRaft's LogStorage, is still in its contract
class BitcaskLogStorageTest {

    @TempDir
    Path dir;

    private BitcaskLogStorage log;

    @AfterEach
    void close() {
        if (log != null) {
            log.shutdown();
        }
    }

    private BitcaskLogStorage reopen(ConfigurationManager confs) {
        log.shutdown();
        log = TestLogs.open(dir, confs);
        return log;
    }

    @Test
    void emptyLogHasFirstOneLastZeroAndNoEntries() {
        log = TestLogs.open(dir, new ConfigurationManager());
        assertEquals(1, log.getFirstLogIndex());
        assertEquals(0, log.getLastLogIndex());
        assertNull(log.getEntry(0));
        assertNull(log.getEntry(1));
        assertNull(log.getEntry(-5));
        assertEquals(0, log.getTerm(1));
        assertEquals(0, log.appendEntries(List.of()));
        assertEquals(0, log.appendEntries(null));
    }

    @Test
    void appendedEntriesReadBackAndOutOfRangeIsNull() {
        log = TestLogs.open(dir, new ConfigurationManager());
        assertEquals(10, log.appendEntries(range(1, 10, 3)));
        assertTrue(log.appendEntry(data(11, 4)));
        assertEquals(1, log.getFirstLogIndex());
        assertEquals(11, log.getLastLogIndex());
        for (long i = 1; i <= 10; i++) {
            LogEntry e = log.getEntry(i);
            assertEquals(i, e.getId().getIndex());
            assertEquals(3, e.getId().getTerm());
            assertEquals(EntryType.ENTRY_TYPE_DATA, e.getType());
            assertEquals("entry-" + i + "-3", text(e));
        }
        assertEquals(4, log.getTerm(11));
        assertNull(log.getEntry(0));
        assertNull(log.getEntry(12));
        assertNull(log.getEntry(Long.MAX_VALUE));
        assertNull(log.getEntry(Long.MIN_VALUE));
        assertEquals(0, log.getTerm(12));
    }

    @Test
    void appendAcceptsGapsAndOverwrites() {
        log = TestLogs.open(dir, new ConfigurationManager());
        log.appendEntries(range(1, 5, 1));
        assertEquals(2, log.appendEntries(range(8, 9, 1)));
        assertEquals(9, log.getLastLogIndex());
        assertNull(log.getEntry(6));
        assertEquals(0, log.getTerm(7));
        assertEquals(1, log.appendEntries(List.of(data(3, 2))));
        assertEquals(2, log.getTerm(3));
        assertEquals("entry-3-2", text(log.getEntry(3)));
        assertEquals(9, log.getLastLogIndex(), "overwriting below the end keeps the end");
        reopen(new ConfigurationManager());
        assertEquals(1, log.getFirstLogIndex());
        assertEquals(9, log.getLastLogIndex());
        assertNull(log.getEntry(7));
        assertEquals(2, log.getTerm(3));
    }

    @Test
    void truncatePrefixMovesFirstIndexAtOnceAndSurvivesReopen() throws Exception {
        log = TestLogs.open(dir, new ConfigurationManager());
        log.appendEntries(range(1, 100, 1));
        assertTrue(log.truncatePrefix(40));
        assertEquals(40, log.getFirstLogIndex());
        assertEquals(100, log.getLastLogIndex());
        assertNull(log.getEntry(39));
        assertNull(log.getEntry(1));
        assertEquals(0, log.getTerm(39));
        assertEquals("entry-40-1", text(log.getEntry(40)));
        assertTrue(log.truncatePrefix(30), "moving the first index back is a no-op");
        assertEquals(40, log.getFirstLogIndex());
        assertTrue(log.awaitReclaimed(Duration.ofSeconds(20)));
        reopen(new ConfigurationManager());
        assertEquals(40, log.getFirstLogIndex());
        assertEquals(100, log.getLastLogIndex());
        assertNull(log.getEntry(39));
        assertEquals("entry-100-1", text(log.getEntry(100)));
    }

    @Test
    void truncatedPrefixIsReclaimedInTheBackground() throws Exception {
        StoreOpener stores = TestLogs.STORES;
        log = TestLogs.open(dir, new ConfigurationManager());
        log.appendEntries(List.of(conf(1, 1, "127.0.0.1:1")));
        log.appendEntries(range(2, 3000, 1));
        log.truncatePrefix(2500);
        assertTrue(log.awaitReclaimed(Duration.ofSeconds(20)));
        log.shutdown();
        log = null;
        try (var kv = stores.open(dir);
             var below = kv.scan(null, LogKeys.entry(2500));
             var confs = kv.scan(LogKeys.conf(0), LogKeys.CONF_END);
             var kept = kv.scan(LogKeys.entry(2500), LogKeys.ENTRIES_END)) {
            assertFalse(below.hasNext(), "entries below the first index are deleted");
            assertFalse(confs.hasNext(), "configuration markers below the first index are deleted");
            int n = 0;
            while (kept.hasNext()) {
                kept.next();
                n++;
            }
            assertEquals(501, n);
        }
    }

    @Test
    void truncatePrefixBeyondTheLastIndexEmptiesTheLog() {
        log = TestLogs.open(dir, new ConfigurationManager());
        log.appendEntries(range(1, 5, 1));
        assertTrue(log.truncatePrefix(10));
        assertEquals(10, log.getFirstLogIndex());
        assertEquals(9, log.getLastLogIndex());
        assertNull(log.getEntry(5));
        reopen(new ConfigurationManager());
        assertEquals(10, log.getFirstLogIndex());
        assertEquals(9, log.getLastLogIndex());
        assertTrue(log.appendEntry(data(10, 2)));
        assertEquals(10, log.getLastLogIndex());
        reopen(new ConfigurationManager());
        assertEquals(10, log.getFirstLogIndex());
        assertEquals(10, log.getLastLogIndex());
        assertEquals(2, log.getTerm(10));
    }

    @Test
    void truncateSuffixDropsDataAndConfigurationEntries() {
        log = TestLogs.open(dir, new ConfigurationManager());
        log.appendEntries(List.of(data(1, 1), conf(2, 1, "127.0.0.1:1"), data(3, 1), data(4, 1),
                conf(5, 2, "127.0.0.1:1", "127.0.0.1:2"), data(6, 2), data(7, 2)));
        assertTrue(log.truncateSuffix(4));
        assertEquals(4, log.getLastLogIndex());
        assertNull(log.getEntry(5));
        assertNull(log.getEntry(7));
        assertEquals("entry-4-1", text(log.getEntry(4)));
        assertTrue(log.truncateSuffix(10), "truncating after the end is a no-op");
        assertEquals(4, log.getLastLogIndex());
        log.appendEntries(List.of(data(5, 3)));
        TestLogs.RecordingConfigurations confs = new TestLogs.RecordingConfigurations();
        reopen(confs);
        assertEquals(List.of(2L), confs.added, "the dropped configuration at 5 is not replayed");
        assertEquals(5, log.getLastLogIndex());
        assertEquals(3, log.getTerm(5));
        assertEquals(EntryType.ENTRY_TYPE_DATA, log.getEntry(5).getType());
    }

    @Test
    void truncateSuffixOfEverythingKeepsFirstIndex() {
        log = TestLogs.open(dir, new ConfigurationManager());
        log.appendEntries(range(5, 9, 1));
        assertEquals(5, log.getFirstLogIndex());
        assertTrue(log.truncateSuffix(4));
        assertEquals(5, log.getFirstLogIndex());
        assertEquals(4, log.getLastLogIndex());
        reopen(new ConfigurationManager());
        assertEquals(5, log.getFirstLogIndex());
        assertEquals(4, log.getLastLogIndex());
    }

    @Test
    void resetKeepsTheEntryAtTheNextIndex() {
        log = TestLogs.open(dir, new ConfigurationManager());
        log.appendEntries(List.of(conf(1, 1, "127.0.0.1:1")));
        log.appendEntries(range(2, 20, 1));
        assertTrue(log.reset(10));
        assertEquals(10, log.getFirstLogIndex());
        assertEquals(10, log.getLastLogIndex());
        assertEquals("entry-10-1", text(log.getEntry(10)));
        assertNull(log.getEntry(9));
        assertNull(log.getEntry(11));
        TestLogs.RecordingConfigurations confs = new TestLogs.RecordingConfigurations();
        reopen(confs);
        assertEquals(List.of(), confs.added);
        assertEquals(10, log.getFirstLogIndex());
        assertEquals(10, log.getLastLogIndex());
        assertEquals("entry-10-1", text(log.getEntry(10)));
        assertNull(log.getEntry(11));
    }

    @Test
    void resetBeyondTheLogWritesANoOpWithTermZero() {
        log = TestLogs.open(dir, new ConfigurationManager());
        log.appendEntries(range(1, 5, 3));
        assertTrue(log.reset(100));
        assertEquals(100, log.getFirstLogIndex());
        assertEquals(100, log.getLastLogIndex());
        LogEntry e = log.getEntry(100);
        assertEquals(EntryType.ENTRY_TYPE_NO_OP, e.getType());
        assertEquals(0, e.getId().getTerm());
        assertNull(log.getEntry(5));
        reopen(new ConfigurationManager());
        assertEquals(100, log.getFirstLogIndex());
        assertEquals(100, log.getLastLogIndex());
        assertEquals(EntryType.ENTRY_TYPE_NO_OP, log.getEntry(100).getType());
        assertTrue(log.appendEntry(data(101, 4)));
        assertEquals(101, log.getLastLogIndex());
    }

    @Test
    void resetOfAConfigurationEntryKeepsItForReplay() {
        log = TestLogs.open(dir, new ConfigurationManager());
        log.appendEntries(List.of(conf(1, 1, "127.0.0.1:1"), data(2, 1), conf(3, 1, "127.0.0.1:2"), data(4, 1)));
        assertTrue(log.reset(3));
        TestLogs.RecordingConfigurations confs = new TestLogs.RecordingConfigurations();
        reopen(confs);
        assertEquals(List.of(3L), confs.added);
    }

    @Test
    void resetRejectsNonPositiveIndexes() {
        log = TestLogs.open(dir, new ConfigurationManager());
        assertThrows(IllegalArgumentException.class, () -> log.reset(0));
        assertThrows(IllegalArgumentException.class, () -> log.reset(-1));
    }

    @Test
    void initReplaysConfigurationsInAscendingIndexOrder() {
        log = TestLogs.open(dir, new ConfigurationManager());
        // Indexes that cross byte boundaries; appended out of order through overwrites and gaps.
        long[] indexes = {1, 70_000, 3, 255, 256, 65_536, 1_000_000};
        for (long i : indexes) {
            log.appendEntries(List.of(conf(i, 1, "127.0.0.1:" + (i % 60000 + 1))));
        }
        log.appendEntries(List.of(data(256, 2))); // a data entry overwrites the configuration at 256
        TestLogs.RecordingConfigurations confs = new TestLogs.RecordingConfigurations();
        reopen(confs);
        assertEquals(List.of(1L, 3L, 255L, 65_536L, 70_000L, 1_000_000L), confs.added);
        assertEquals(1_000_000L, confs.getLastConfiguration().getId().getIndex());
        assertEquals("127.0.0.1:4", confs.get(200).getConf().getPeers().get(0).toString());

        log.truncatePrefix(300);
        confs = new TestLogs.RecordingConfigurations();
        reopen(confs);
        assertEquals(List.of(65_536L, 70_000L, 1_000_000L), confs.added,
                "configurations below the first index are not replayed");
    }

    @Test
    void initFailsOnAPathThatIsAFileAndOnABrokenLog() throws Exception {
        Path file = Files.createFile(dir.resolve("plain-file"));
        BitcaskLogStorage onFile = new BitcaskLogStorage(file.toString(), TestLogs.raftOptions(true), TestLogs.STORES);
        assertFalse(onFile.init(TestLogs.options(new ConfigurationManager(), LogEntryV2CodecFactory.getInstance())));
        onFile.shutdown();

        // A manager that already holds a later configuration rejects the replay.
        log = TestLogs.open(dir.resolve("log"), new ConfigurationManager());
        log.appendEntries(List.of(conf(5, 1, "127.0.0.1:1")));
        log.shutdown();
        ConfigurationManager ahead = new ConfigurationManager();
        ahead.add(TestLogsConfs.at(9));
        log = new BitcaskLogStorage(dir.resolve("log").toString(), TestLogs.raftOptions(true), TestLogs.STORES);
        assertFalse(log.init(TestLogs.options(ahead, LogEntryV2CodecFactory.getInstance())));
        log = null;
    }

    @Test
    void secondInitOfTheSameDirectoryFailsWhileTheFirstIsOpen() {
        log = TestLogs.open(dir, new ConfigurationManager());
        BitcaskLogStorage other = new BitcaskLogStorage(dir.toString(), TestLogs.raftOptions(true), TestLogs.STORES);
        assertFalse(other.init(TestLogs.options(new ConfigurationManager(), LogEntryV2CodecFactory.getInstance())));
        other.shutdown();
        assertTrue(log.appendEntry(data(1, 1)));
    }

    @Test
    void entriesAreEncodedWithTheOptionsCodec() {
        AtomicInteger encoded = new AtomicInteger();
        AtomicInteger decoded = new AtomicInteger();
        LogEntryCodecFactory v2 = LogEntryV2CodecFactory.getInstance();
        LogEntryCodecFactory counting = new LogEntryCodecFactory() {
            @Override
            public LogEntryEncoder encoder() {
                return e -> {
                    encoded.incrementAndGet();
                    return v2.encoder().encode(e);
                };
            }

            @Override
            public LogEntryDecoder decoder() {
                return b -> {
                    decoded.incrementAndGet();
                    return v2.decoder().decode(b);
                };
            }
        };
        log = TestLogs.open(dir, new ConfigurationManager(), counting);
        log.appendEntries(range(1, 3, 1));
        assertEquals(3, encoded.get());
        assertEquals("entry-2-1", text(log.getEntry(2)));
        assertEquals(1, decoded.get());
    }

    @Test
    void twoThousandEntriesOfSixteenKibInOneBatch() {
        log = TestLogs.open(dir, new ConfigurationManager());
        Random random = new Random(42);
        List<LogEntry> batch = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        for (int i = 1; i <= 2000; i++) {
            byte[] payload = new byte[16 << 10];
            random.nextBytes(payload);
            payloads.add(payload);
            batch.add(data(i, 7, payload));
        }
        assertEquals(2000, log.appendEntries(batch));
        assertEquals(2000, log.getLastLogIndex());
        reopen(new ConfigurationManager());
        assertEquals(1, log.getFirstLogIndex());
        assertEquals(2000, log.getLastLogIndex());
        for (int i = 1; i <= 2000; i++) {
            LogEntry e = log.getEntry(i);
            byte[] got = new byte[e.getData().remaining()];
            e.getData().duplicate().get(got);
            assertArrayEquals(payloads.get(i - 1), got, "entry " + i);
        }
    }

    @Test
    void readsRunConcurrentlyWithTheAppender() throws Exception {
        log = TestLogs.open(dir, new ConfigurationManager());
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread[] readers = new Thread[2];
        long target = 5000;
        for (int r = 0; r < readers.length; r++) {
            long seed = r;
            readers[r] = new Thread(() -> {
                Random random = new Random(seed);
                try {
                    while (log.getLastLogIndex() < target) {
                        long last = log.getLastLogIndex();
                        if (last == 0) {
                            continue;
                        }
                        long i = 1 + (long) (random.nextDouble() * last);
                        LogEntry e = log.getEntry(i);
                        assertNotNull(e, "entry " + i + " at or below last " + last);
                        assertEquals("entry-" + i + "-1", text(e));
                        assertNull(log.getEntry(target + 100));
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            readers[r].start();
        }
        for (long i = 1; i <= target; i += 10) {
            assertEquals(10, log.appendEntries(range(i, i + 9, 1)));
        }
        for (Thread t : readers) {
            t.join(30_000);
            assertFalse(t.isAlive());
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    @Test
    void operationsAfterShutdownFailSoftly() {
        log = TestLogs.open(dir, new ConfigurationManager());
        log.appendEntries(range(1, 3, 1));
        log.shutdown();
        assertNull(log.getEntry(2));
        assertEquals(0, log.appendEntries(range(4, 5, 1)));
        assertFalse(log.truncatePrefix(2));
        assertFalse(log.truncateSuffix(1));
        assertFalse(log.reset(2));
        log = null;
    }
}
