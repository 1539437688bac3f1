package io.kegdb.engine;

import io.kegdb.engine.meter.Meter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BitcaskMetersTest {

    @TempDir
    Path dir;

    private static double value(List<Meter> meters, String name) {
        for (Meter m : meters) {
            if (m.name().equals(name)) {
                return m.read();
            }
        }
        throw new AssertionError("no meter " + name);
    }

    private static Meter meter(List<Meter> meters, String name) {
        return meters.stream().filter(m -> m.name().equals(name)).findFirst().orElseThrow();
    }

    private static byte[] b(String s) {
        return s.getBytes(UTF_8);
    }

    @Test
    void metersMoveWithReadsWritesFsyncsAndMerges() throws Exception {
        try (Bitcask db = Bitcask.open(dir, BitcaskOptions.builder().segmentSize(4096)
                .mergeInterval(java.time.Duration.ZERO).build())) {
            List<Meter> m = db.meters();
            Set<String> names = new HashSet<>();
            for (Meter x : m) {
                assertTrue(names.add(x.name()), "one meter per name: " + x.name());
            }
            assertEquals(0, value(m, "kegdb.engine.keys"));
            for (int i = 0; i < 200; i++) {
                db.put(b("key" + i), b("value-" + i), Durability.NO_SYNC);
            }
            for (int i = 0; i < 200; i++) {
                db.put(b("key" + i), b("value2-" + i), Durability.NO_SYNC);
            }
            db.put(b("synced"), b("v"), Durability.SYNC);
            assertEquals(201, value(m, "kegdb.engine.keys"));
            assertEquals(401, value(m, "kegdb.engine.writes"));
            assertEquals(db.writeVersion(), value(m, "kegdb.engine.written.bytes"));
            assertTrue(value(m, "kegdb.engine.segments") > 1);
            BitcaskStats stats = db.stats();
            assertEquals(stats.liveBytes(), value(m, "kegdb.engine.live.bytes"));
            assertEquals(stats.deadBytes(), value(m, "kegdb.engine.dead.bytes"));
            assertTrue(value(m, "kegdb.engine.dead.bytes") > 0);
            assertEquals(1, meter(m, "kegdb.engine.fsync.seconds").histogram().count());
            assertTrue(meter(m, "kegdb.engine.fsync.seconds").histogram().sum() > 0);
            assertEquals(1, meter(m, "kegdb.engine.group.commit.writes").histogram().count());

            db.get(b("key1"));
            db.contains(b("nope"));
            assertEquals(2, value(m, "kegdb.engine.lookups"));
            try (KvIterator it = db.scan(null, null)) {
                while (it.hasNext()) {
                    it.next();
                }
            }
            assertEquals(201, value(m, "kegdb.engine.scanned.records"));

            assertEquals(0, value(m, "kegdb.engine.merges"));
            db.merge();
            assertEquals(1, value(m, "kegdb.engine.merges"));
            assertTrue(value(m, "kegdb.engine.merge.seconds") > 0);

            assertThrows(WriteConflictException.class,
                    () -> db.write(new WriteBatch().expect(b("key1"), b("old")).put(b("key1"), b("x")), Durability.NO_SYNC));
            assertEquals(1, value(m, "kegdb.engine.conflicts"));
        }
    }

    @Test
    void concurrentSyncWritersShareFsyncsAndTheHistogramSaysSo() throws Exception {
        try (Bitcask db = Bitcask.open(dir)) {
            int threads = 4;
            int each = 50;
            Thread[] ts = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                int id = t;
                ts[t] = new Thread(() -> {
                    for (int i = 0; i < each; i++) {
                        db.put(b(id + "-" + i), b("v"), Durability.SYNC);
                    }
                });
                ts[t].start();
            }
            for (Thread t : ts) {
                t.join(60_000);
            }
            Meter batches = meter(db.meters(), "kegdb.engine.group.commit.writes");
            long fsyncs = meter(db.meters(), "kegdb.engine.fsync.seconds").histogram().count();
            // Every sync records the writers that waited for it (at least one); a writer that finds its bytes
            // already durable does not wait, so together they cover at most every write.
            assertEquals(fsyncs, batches.histogram().count());
            long covered = (long) batches.histogram().sum();
            assertTrue(covered >= fsyncs && covered <= threads * each, covered + " writers in " + fsyncs + " fsyncs");
        }
    }

    @Test
    void metersOfAClosedStoreReadAsNaN() throws Exception {
        Bitcask db = Bitcask.open(dir);
        List<Meter> m = db.meters();
        db.close();
        assertTrue(Double.isNaN(value(m, "kegdb.engine.live.bytes")));
    }

    @Test
    void theInMemoryStoreHasKeysAndLiveBytes() {
        KvStore mem = KvStore.inMemory();
        mem.put(b("a"), b("b"), Durability.NO_SYNC);
        assertEquals(1, value(mem.meters(), "kegdb.engine.keys"));
        assertTrue(value(mem.meters(), "kegdb.engine.live.bytes") > 0);
    }
}
