package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import io.kegdb.engine.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.time.Duration;

import static io.kegdb.raft.storage.TestLogs.conf;
import static io.kegdb.raft.storage.TestLogs.data;
import static io.kegdb.raft.storage.TestLogs.range;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every mutating call is one store write whose durability follows {@code RaftOptions.isSync()}. */
class LogStorageDurabilityTest {

    @TempDir
    Path dir;

    /** Runs every mutating call once; each must add a write of {@code expected} durability (one if synced). */
    private RecordingStore run(boolean sync, Durability expected) throws InterruptedException {
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
            List<BooleanSupplier> calls = List.of(
                    () -> log.appendEntries(range(1, 100, 1)) == 100,
                    () -> log.appendEntries(List.of(data(101, 1), conf(102, 1, "127.0.0.1:1"), data(103, 1))) == 3,
                    () -> log.truncateSuffix(102),
                    () -> log.truncatePrefix(50),
                    () -> log.reset(102));
            for (BooleanSupplier call : calls) {
                assertTrue(log.awaitReclaimed(Duration.ofSeconds(20)));
                long before = count(recorded.get(), expected);
                assertTrue(call.getAsBoolean());
                long after = count(recorded.get(), expected);
                if (expected == Durability.SYNC) {
                    assertEquals(before + 1, after, "one synced write per call");
                } else {
                    // the background reclaimer's unsynced batches may start right after a truncation
                    assertTrue(after > before, "the call wrote");
                }
            }
            assertTrue(log.awaitReclaimed(Duration.ofSeconds(20)));
        } finally {
            log.shutdown();
        }
        return recorded.get();
    }

    private static long count(RecordingStore store, Durability d) {
        return store.writes.stream().filter(w -> w == d).count();
    }

    @Test
    void syncLogWritesEachCallAsOneSyncedWriteAndReclaimsUnsynced() throws InterruptedException {
        RecordingStore store = run(true, Durability.SYNC);
        assertEquals(5, count(store, Durability.SYNC));
        assertTrue(count(store, Durability.NO_SYNC) > 0, "truncated entries were reclaimed in unsynced batches");
    }

    @Test
    void noSyncLogNeverSyncs() throws InterruptedException {
        RecordingStore store = run(false, Durability.NO_SYNC);
        assertEquals(0, count(store, Durability.SYNC));
    }
}
