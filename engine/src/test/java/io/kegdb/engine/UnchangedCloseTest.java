package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A store opened and closed without a write leaves its files as they were: the newest segment is reopened
 * lazily, so neither open nor close extends it, seals it again or rewrites its hint. The first write removes
 * the hint (durably) before the segment grows, so no crash at any point leaves a stale hint behind.
 */
class UnchangedCloseTest {

    private static final BitcaskOptions OPTIONS = BitcaskOptions.builder().segmentSize(64 << 10)
            .mergeInterval(Duration.ZERO).build();
    private static final int KEYS = 1500;

    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i) {
        return b("value-" + i + "-" + "x".repeat(i % 50));
    }

    /** Every file of {@code dir} but the lock, by name, with its bytes. */
    private static Map<String, byte[]> files(Path dir) throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path f : s.toList()) {
                if (!f.getFileName().toString().equals("LOCK")) {
                    out.put(f.getFileName().toString(), Files.readAllBytes(f));
                }
            }
        }
        return out;
    }

    private static void assertSameFiles(Map<String, byte[]> expected, Map<String, byte[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        expected.forEach((name, bytes) -> assertArrayEquals(bytes, actual.get(name), name + " changed"));
    }

    /** A store of two segments, the newer with room left, closed cleanly (so both have hints). */
    private static void fill(Bitcask db) {
        for (int i = 0; i < KEYS; i++) {
            db.put(b("k" + i), value(i), Durability.NO_SYNC);
        }
    }

    private static void assertHolds(Bitcask db, int keys) {
        for (int i = 0; i < keys; i++) {
            assertArrayEquals(value(i), db.get(b("k" + i)), "k" + i);
        }
    }

    /** What check says about a hint file itself (not about a temporary one an interrupted hint write left). */
    private static List<String> hintProblems(CheckReport report) {
        return report.problems().stream().filter(p -> p.contains(HintFile.SUFFIX + ":")).toList();
    }

    @Test
    void openAndCloseWithoutAWriteChangesNoFile() throws IOException {
        Path store = tmp.resolve("store");
        PowerLossFiles layer = new PowerLossFiles().watch(store);
        try (Bitcask db = Bitcask.open(store, OPTIONS, layer)) {
            fill(db);
            assertTrue(db.stats().segments() >= 2, "the newest segment must not be the only one");
        }
        Map<String, byte[]> before = files(store);
        assertTrue(before.keySet().stream().filter(n -> n.endsWith(HintFile.SUFFIX)).count() >= 2, before.keySet().toString());
        Map<PowerLossFiles.Event, Long> events = layer.counts();
        for (int round = 0; round < 3; round++) {
            try (Bitcask db = Bitcask.open(store, OPTIONS, layer)) {
                assertHolds(db, KEYS);
                try (KvIterator it = db.scan(null, null)) {
                    it.forEachRemaining(kv -> { });
                }
                db.getAll(List.of(b("k1"), b("k2")));
                assertSameFiles(before, files(store)); // open neither extends the segment nor drops its hint
            }
            assertEquals(events, layer.counts(), "no write, fsync or directory change in round " + round);
            assertSameFiles(before, files(store));
        }
        assertTrue(Bitcask.check(store).ok());
    }

    /** A power cut while a store is open without writes, or after it closed, leaves what was there. */
    @Test
    void aPowerCutAfterAnOpenWithoutWritesLeavesACleanStore() throws IOException {
        Path store = tmp.resolve("store");
        PowerLossFiles layer = new PowerLossFiles().watch(store);
        try (Bitcask db = Bitcask.open(store, OPTIONS, layer)) {
            fill(db);
        }
        List<PowerLossFiles.Snapshot> cuts = new ArrayList<>();
        try (Bitcask db = Bitcask.open(store, OPTIONS, layer)) {
            assertHolds(db, KEYS);
            cuts.add(layer.snapshot());
        }
        cuts.add(layer.snapshot());
        int image = 0;
        for (PowerLossFiles.Snapshot cut : cuts) {
            for (PowerLossFiles.Fate fate : PowerLossFiles.Fate.values()) {
                Path dir = cut.writeImage(tmp.resolve("image" + image++), new Random(image), fate)
                        .get(store.toAbsolutePath());
                CheckReport report = Bitcask.check(dir);
                assertTrue(report.ok(), fate + ": " + report);
                try (Bitcask db = Bitcask.open(dir, OPTIONS)) {
                    assertHolds(db, KEYS);
                }
            }
        }
    }

    /**
     * A power cut at any moment of the first writes after a reopen (every write, fsync and directory change
     * is a cut) leaves no hint that disagrees with its segment, and every write acknowledged as synced.
     */
    @Test
    void aPowerCutDuringTheFirstWritesAfterAReopenLeavesNoStaleHint() throws IOException {
        Path store = tmp.resolve("store");
        PowerLossFiles layer = new PowerLossFiles().watch(store);
        try (Bitcask db = Bitcask.open(store, OPTIONS, layer)) {
            fill(db);
        }
        List<PowerLossFiles.Snapshot> cuts = new ArrayList<>();
        List<Integer> syncedAtCut = new ArrayList<>();
        int[] synced = {0};
        layer.onEvent(e -> {
            synchronized (cuts) {
                cuts.add(layer.snapshot());
                syncedAtCut.add(synced[0]);
            }
        });
        int extra = 20;
        try (Bitcask db = Bitcask.open(store, OPTIONS, layer)) {
            for (int i = KEYS; i < KEYS + extra; i++) {
                db.put(b("k" + i), value(i), Durability.SYNC);
                synchronized (cuts) {
                    synced[0] = i + 1 - KEYS;
                }
            }
        }
        layer.onEvent(e -> { });
        assertFalse(cuts.isEmpty());
        int image = 0;
        for (int c = 0; c < cuts.size(); c++) {
            for (PowerLossFiles.Fate fate : new PowerLossFiles.Fate[] {PowerLossFiles.Fate.LOSE_ALL,
                    PowerLossFiles.Fate.RANDOM}) {
                Path dir = cuts.get(c).writeImage(tmp.resolve("image" + image++), new Random(c), fate)
                        .get(store.toAbsolutePath());
                CheckReport report = Bitcask.check(dir);
                assertEquals(List.of(), hintProblems(report), "cut " + c + " " + fate + ": " + report);
                try (Bitcask db = Bitcask.open(dir, OPTIONS)) {
                    assertHolds(db, KEYS + syncedAtCut.get(c));
                    for (int i = KEYS + syncedAtCut.get(c); i < KEYS + extra; i++) {
                        byte[] v = db.get(b("k" + i));
                        assertTrue(v == null || java.util.Arrays.equals(value(i), v), "k" + i);
                    }
                }
                assertTrue(Bitcask.check(dir).ok(), "after recovery: " + Bitcask.check(dir));
            }
        }
    }

    /** After writes the close seals the segment and writes its hint again, so the next open reads hints only. */
    @Test
    void closeAfterAWriteRewritesTheHint() throws IOException {
        Path store = tmp.resolve("store");
        try (Bitcask db = Bitcask.open(store, OPTIONS)) {
            fill(db);
        }
        Map<String, byte[]> before = files(store);
        try (Bitcask db = Bitcask.open(store, OPTIONS)) {
            db.put(b("k" + KEYS), value(KEYS), Durability.NO_SYNC);
        }
        Map<String, byte[]> after = files(store);
        assertEquals(before.keySet(), after.keySet(), "the same segments and hints");
        String newest = before.keySet().stream().filter(n -> n.endsWith(".data")).max(String::compareTo).orElseThrow();
        String hint = newest.replace(".data", HintFile.SUFFIX);
        assertFalse(java.util.Arrays.equals(before.get(hint), after.get(hint)), "the hint describes the new record");
        assertEquals(before.get(newest).length + RecordFormat.size(b("k" + KEYS).length, value(KEYS).length),
                after.get(newest).length, "sealed at its data");
        assertTrue(Bitcask.check(store).ok());
        try (Bitcask db = Bitcask.open(store, OPTIONS)) {
            assertHolds(db, KEYS + 1);
        }
    }
}
