package io.kegdb.raft;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import io.kegdb.engine.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static io.kegdb.raft.TestLogs.conf;
import static io.kegdb.raft.TestLogs.data;
import static io.kegdb.raft.TestLogs.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every mutating call is one store write whose durability follows {@code RaftOptions.isSync()}. */
class LogStorageDurabilityTest {

    @TempDir
    Path dir;

    private RecordingStore run(boolean sync) throws InterruptedException {
        AtomicReference<RecordingStore> recorded = new AtomicReference<>();
        StoreOpener bitcask = TestLogs.STORES;
        BitcaskLogStorage log = new BitcaskLogStorage(dir.resolve(sync ? "sync" : "nosync").toString(),
                TestLogs.raftOptions(sync), d -> {
                    RecordingStore store = new RecordingStore(bitcask.open(d));
                    recorded.set(store);
                    return store;
                });
        assertTrue(log.init(TestLogs.options(new ConfigurationManager(), LogEntryV2CodecFactory.getInstance())));
        try {
            assertEquals(100, log.appendEntries(range(1, 100, 1)));
            assertEquals(3, log.appendEntries(List.of(data(101, 1), conf(102, 1, "127.0.0.1:1"), data(103, 1))));
            assertTrue(log.truncateSuffix(102));
            assertTrue(log.truncatePrefix(50));
            assertTrue(log.awaitReclaimed(java.time.Duration.ofSeconds(20)));
            assertTrue(log.reset(102));
        } finally {
            log.shutdown();
        }
        return recorded.get();
    }

    @Test
    void syncLogWritesEachCallAsOneSyncedWrite() throws InterruptedException {
        List<Durability> writes = run(true).writes;
        // append, append, truncateSuffix, truncatePrefix, then unsynced reclaim batches, then reset
        assertEquals(List.of(Durability.SYNC, Durability.SYNC, Durability.SYNC, Durability.SYNC),
                writes.subList(0, 4));
        assertEquals(Durability.SYNC, writes.get(writes.size() - 1));
        for (Durability d : writes.subList(4, writes.size() - 1)) {
            assertEquals(Durability.NO_SYNC, d, "background reclamation does not sync");
        }
        assertTrue(writes.size() > 5, "the truncated prefix was reclaimed in the background");
    }

    @Test
    void noSyncLogNeverSyncs() throws InterruptedException {
        for (Durability d : run(false).writes) {
            assertEquals(Durability.NO_SYNC, d);
        }
    }
}
