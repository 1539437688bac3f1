package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReference;

import static io.kegdb.engine.BitcaskTest.b;
import static io.kegdb.engine.BitcaskTest.s;
import static org.junit.jupiter.api.Assertions.*;

/** {@link KvStore#getAll}: the values single gets would return, in the caller's order, also while writes and merges go on. */
class MultiGetTest {

    @TempDir
    Path dir;

    private static BitcaskOptions smallSegments() {
        return BitcaskOptions.builder().segmentSize(4096).mergeInterval(Duration.ZERO).build();
    }

    /** Keys spread over many segments, some overwritten, some deleted, some never written, some asked twice. */
    private static void fill(KvStore store) {
        for (int i = 0; i < 400; i++) {
            store.put(b("k" + i), b("v" + i), Durability.NO_SYNC);
        }
        for (int i = 0; i < 400; i += 3) {
            store.put(b("k" + i), b("w" + i), Durability.NO_SYNC); // newer copy in a later segment
        }
        for (int i = 0; i < 400; i += 7) {
            store.delete(b("k" + i), Durability.NO_SYNC);
        }
    }

    private static List<byte[]> shuffledKeys(long seed) {
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 450; i++) {
            keys.add(b("k" + i)); // 400..449 were never written
        }
        keys.add(b("k5"));
        keys.add(b("k5"));
        keys.add(b(""));
        java.util.Collections.shuffle(keys, new Random(seed));
        return keys;
    }

    private static void assertSameAsGets(KvStore store, List<byte[]> keys) {
        List<byte[]> values = store.getAll(keys);
        assertEquals(keys.size(), values.size());
        for (int i = 0; i < keys.size(); i++) {
            assertArrayEquals(store.get(keys.get(i)), values.get(i), "key " + s(keys.get(i)));
        }
    }

    @Test
    void bitcaskAnswersAsSingleGetsInTheCallersOrder() throws IOException {
        try (Bitcask db = Bitcask.open(dir, smallSegments())) {
            fill(db);
            assertTrue(db.stats().segments() >= 3, "keys must lie in several segments: " + db.stats());
            for (long seed = 0; seed < 5; seed++) {
                assertSameAsGets(db, shuffledKeys(seed));
            }
            List<byte[]> some = db.getAll(List.of(b("k1"), b("k0"), b("k3"), b("nope"), b("k1")));
            assertEquals(Arrays.asList("v1", null, "w3", null, "v1"), some.stream().map(BitcaskTest::s).toList());
            assertEquals(List.of(), db.getAll(List.of()));
        }
        try (Bitcask db = Bitcask.open(dir, smallSegments())) {
            assertSameAsGets(db, shuffledKeys(9)); // from hint files and the reopened active segment
        }
    }

    @Test
    void memoryStoreAndSnapshotsAnswerAsSingleGets() {
        try (KvStore mem = KvStore.inMemory()) {
            fill(mem);
            assertSameAsGets(mem, shuffledKeys(1));
            try (KvSnapshot snap = mem.snapshot()) {
                mem.put(b("k1"), b("changed"), Durability.NO_SYNC);
                mem.delete(b("k2"), Durability.NO_SYNC);
                mem.put(b("k400"), b("new"), Durability.NO_SYNC);
                List<byte[]> then = snap.getAll(List.of(b("k1"), b("k2"), b("k400"), b("k3")));
                assertEquals(Arrays.asList("v1", "v2", null, "w3"), then.stream().map(BitcaskTest::s).toList());
            }
        }
    }

    @Test
    void bitcaskSnapshotAnswersAsOfItsMoment() throws IOException {
        try (Bitcask db = Bitcask.open(dir, smallSegments())) {
            fill(db);
            try (KvSnapshot snap = db.snapshot()) {
                db.put(b("k1"), b("changed"), Durability.NO_SYNC);
                db.delete(b("k2"), Durability.NO_SYNC);
                db.put(b("k400"), b("new"), Durability.NO_SYNC);
                db.merge();
                List<byte[]> then = snap.getAll(List.of(b("k400"), b("k2"), b("k1"), b("k3")));
                assertEquals(Arrays.asList(null, "v2", "v1", "w3"), then.stream().map(BitcaskTest::s).toList());
            }
        }
    }

    @Test
    void closedStoreFailsTyped() throws IOException {
        Bitcask db = Bitcask.open(dir, smallSegments());
        db.put(b("a"), b("1"));
        db.close();
        assertThrows(StoreClosedException.class, () -> db.getAll(List.of(b("a"))));
        KvStore mem = KvStore.inMemory();
        mem.close();
        assertThrows(StoreClosedException.class, () -> mem.getAll(List.of(b("a"))));
    }

    @Test
    void oversizeOrNullKeysFailTypedBeforeAnyRead() throws IOException {
        BitcaskOptions opts = BitcaskOptions.builder().maxKeySize(8).mergeInterval(Duration.ZERO).build();
        try (Bitcask db = Bitcask.open(dir, opts)) {
            db.put(b("a"), b("1"));
            LimitExceededException e = assertThrows(LimitExceededException.class,
                    () -> db.getAll(List.of(b("a"), b("123456789"))));
            assertEquals(LimitExceededException.Limit.KEY_SIZE, e.limit());
            assertEquals(8, e.max());
            assertEquals(9, e.actual());
            assertThrows(IllegalArgumentException.class, () -> db.getAll(Arrays.asList(b("a"), null)));
            assertThrows(NullPointerException.class, () -> db.getAll(null));
        }
        try (KvStore mem = KvStore.inMemory()) {
            assertThrows(IllegalArgumentException.class, () -> mem.getAll(Arrays.asList(b("a"), null)));
        }
    }

    /**
     * A writer bumps each key's version while merges rewrite segments under the reader: every value a
     * multi-get returns is one its key held during the call (at least the version finished before the call,
     * at most the one started before it returned), never a torn, stale or foreign record.
     */
    @Test
    @Timeout(value = 120, unit = TimeUnit.SECONDS)
    void matchesSingleGetsUnderConcurrentWritesAndMerges() throws Exception {
        int keys = 64;
        AtomicLongArray started = new AtomicLongArray(keys);
        AtomicLongArray finished = new AtomicLongArray(keys);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        try (Bitcask db = Bitcask.open(dir, smallSegments())) {
            for (int k = 0; k < keys; k++) {
                db.put(key(k), value(k, 0), Durability.NO_SYNC);
            }
            Thread writer = new Thread(() -> {
                Random r = new Random(7);
                try {
                    for (int n = 1; !stop.get() && n < 200_000; n++) {
                        int k = r.nextInt(keys);
                        long v = started.incrementAndGet(k);
                        db.put(key(k), value(k, v), Durability.NO_SYNC);
                        finished.set(k, v);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            Thread merger = new Thread(() -> {
                try {
                    while (!stop.get()) {
                        db.merge();
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                }
            });
            writer.start();
            merger.start();
            try {
                List<byte[]> all = new ArrayList<>();
                for (int k = keys - 1; k >= 0; k--) {
                    all.add(key(k));
                }
                all.add(b("absent"));
                long[] before = new long[keys];
                for (int round = 0; round < 2_000 && failure.get() == null; round++) {
                    for (int k = 0; k < keys; k++) {
                        before[k] = finished.get(k);
                    }
                    List<byte[]> values = db.getAll(all);
                    for (int j = 0; j < keys; j++) {
                        int k = keys - 1 - j;
                        String v = s(values.get(j));
                        assertNotNull(v, "key " + k);
                        String prefix = "key" + k + "@";
                        assertTrue(v.startsWith(prefix), v);
                        long version = Long.parseLong(v.substring(prefix.length()));
                        assertTrue(version >= before[k] && version <= started.get(k),
                                "key " + k + ": version " + version + " outside [" + before[k] + ", " + started.get(k) + "]");
                    }
                    assertNull(values.get(keys));
                }
            } finally {
                stop.set(true);
                writer.join();
                merger.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertTrue(db.stats().merges() > 0, "merges must have run during the reads");
        }
    }

    private static byte[] key(int k) {
        return ("key" + k).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int k, long version) {
        return ("key" + k + "@" + version).getBytes(StandardCharsets.UTF_8);
    }
}
