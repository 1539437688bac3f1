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
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.*;

class BitcaskTest {

    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String s(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    static BitcaskOptions small() {
        return BitcaskOptions.builder().segmentSize(4096).mergeInterval(Duration.ZERO).build();
    }

    @Test
    void countKeysCountsLiveKeysInARangeAsAScanWould() throws IOException {
        try (Bitcask db = Bitcask.open(dir, small())) {
            for (int i = 0; i < 500; i++) {
                db.put(b(String.format("k%04d", i)), b("value " + i), Durability.NO_SYNC);
            }
            for (int i = 0; i < 500; i += 7) {
                db.delete(b(String.format("k%04d", i)), Durability.NO_SYNC);
            }
            byte[][][] ranges = {{null, null}, {b("k0100"), b("k0200")}, {b("k0490"), null}, {null, b("k0003")},
                    {b("x"), null}, {b("k0200"), b("k0100")}};
            for (byte[][] r : ranges) {
                long scanned = 0;
                try (KvIterator it = db.scan(r[0], r[1])) {
                    while (it.hasNext()) {
                        it.next();
                        scanned++;
                    }
                }
                assertEquals(scanned, db.countKeys(r[0], r[1]));
            }
            assertEquals(500 - 72, db.countKeys(null, null));
        }
    }

    @Test
    void scanKeysReturnsTheKeysOfAScanInEitherOrder() throws IOException {
        try (Bitcask db = Bitcask.open(dir, small())) {
            for (int i = 0; i < 300; i++) {
                db.put(b(String.format("k%04d", i)), b("value " + i), Durability.NO_SYNC);
            }
            for (int i = 0; i < 300; i += 5) {
                db.delete(b(String.format("k%04d", i)), Durability.NO_SYNC);
            }
            byte[][][] ranges = {{null, null}, {b("k0100"), b("k0200")}, {b("k0290"), null}, {null, b("k0003")},
                    {b("x"), null}, {b("k0200"), b("k0100")}};
            for (byte[][] r : ranges) {
                for (boolean descending : new boolean[] {false, true}) {
                    List<String> scanned = new ArrayList<>();
                    try (KvIterator it = descending ? db.scanDescending(r[0], r[1]) : db.scan(r[0], r[1])) {
                        it.forEachRemaining(kv -> scanned.add(s(kv.key())));
                    }
                    List<String> keys = new ArrayList<>();
                    try (KeyIterator it = db.scanKeys(r[0], r[1], descending)) {
                        it.forEachRemaining(k -> keys.add(s(k)));
                        assertThrows(NoSuchElementException.class, it::next);
                    }
                    assertEquals(scanned, keys);
                }
            }
        }
    }

    @Test
    void putGetDeleteAndReopen() throws IOException {
        try (Bitcask db = Bitcask.open(dir)) {
            assertNull(db.get(b("a")));
            db.put(b("a"), b("1"));
            db.put(b("b"), b("2"), Durability.NO_SYNC);
            db.put(b("a"), b("3"));
            db.put(b("e"), new byte[0]);
            assertEquals("3", s(db.get(b("a"))));
            assertArrayEquals(new byte[0], db.get(b("e")));
            assertTrue(db.delete(b("b")));
            assertFalse(db.delete(b("b")));
            assertNull(db.get(b("b")));
        }
        try (Bitcask db = Bitcask.open(dir)) {
            assertEquals("3", s(db.get(b("a"))));
            assertNull(db.get(b("b")));
            assertArrayEquals(new byte[0], db.get(b("e")));
            assertEquals(2, db.stats().keys());
        }
    }

    @Test
    void scanIsInUnsignedKeyOrderBothWays() throws IOException {
        try (Bitcask db = Bitcask.open(dir, small())) {
            byte[][] keys = {{0x00}, {0x01}, {0x7f}, {(byte) 0x80}, {(byte) 0xff}, {(byte) 0xff, 0}};
            for (int i = keys.length - 1; i >= 0; i--) {
                db.put(keys[i], new byte[] {(byte) i});
            }
            List<byte[]> asc = new ArrayList<>();
            try (KvIterator it = db.scan(null, null)) {
                it.forEachRemaining(kv -> asc.add(kv.key()));
            }
            for (int i = 0; i < keys.length; i++) {
                assertArrayEquals(keys[i], asc.get(i));
            }
            List<byte[]> range = new ArrayList<>();
            try (KvIterator it = db.scanDescending(new byte[] {0x01}, new byte[] {(byte) 0xff})) {
                it.forEachRemaining(kv -> range.add(kv.key()));
            }
            assertEquals(3, range.size());
            assertArrayEquals(new byte[] {(byte) 0x80}, range.get(0));
            assertArrayEquals(new byte[] {0x01}, range.get(2));
            assertEquals(keys.length, db.listKeys().size());
        }
    }

    @Test
    void batchesApplyAllAndPutIfAbsentFailsWhole() throws IOException {
        try (Bitcask db = Bitcask.open(dir, small())) {
            db.put(b("x"), b("0"));
            db.write(new WriteBatch().put(b("a"), b("1")).put(b("b"), b("2")).delete(b("x")), Durability.SYNC);
            assertEquals("1", s(db.get(b("a"))));
            assertNull(db.get(b("x")));
            WriteBatch conflicting = new WriteBatch().put(b("c"), b("3")).putIfAbsent(b("a"), b("9"));
            assertThrows(KeyExistsException.class, () -> db.write(conflicting, Durability.SYNC));
            assertNull(db.get(b("c")));
            assertEquals("1", s(db.get(b("a"))));
            assertThrows(KeyExistsException.class,
                    () -> db.write(new WriteBatch().putIfAbsent(b("n"), b("1")).putIfAbsent(b("n"), b("2")),
                            Durability.SYNC));
            db.write(new WriteBatch().delete(b("a")).putIfAbsent(b("a"), b("new")), Durability.NO_SYNC);
            assertEquals("new", s(db.get(b("a"))));
        }
        try (Bitcask db = Bitcask.open(dir, small())) {
            assertEquals("new", s(db.get(b("a"))));
            assertEquals("2", s(db.get(b("b"))));
            assertNull(db.get(b("c")));
        }
    }

    @Test
    void containsAnswersFromTheKeyDir() throws IOException {
        try (Bitcask db = Bitcask.open(dir, small())) {
            assertFalse(db.contains(b("a")));
            db.put(b("a"), new byte[0]);
            assertTrue(db.contains(b("a")));
            db.delete(b("a"));
            assertFalse(db.contains(b("a")));
        }
        try (KvStore mem = KvStore.inMemory()) {
            mem.put(b("m"), b("1"), Durability.NO_SYNC);
            assertTrue(mem.contains(b("m")));
            assertFalse(mem.contains(b("n")));
            StoreStats stats = mem.stats();
            assertEquals(1, stats.keys());
            assertEquals(2, stats.liveBytes(), "one byte of key, one of value");
        }
    }

    @Test
    void putIfAbsentSeesEarlierOperationsOfALargeBatch() throws IOException {
        try (Bitcask db = Bitcask.open(dir)) {
            db.put(b("old"), b("0"));
            WriteBatch ok = new WriteBatch();
            for (int i = 0; i < 5000; i++) {
                ok.putIfAbsent(b("k" + i), b("v" + i));
            }
            ok.delete(b("k7")).putIfAbsent(b("k7"), b("again")).delete(b("old")).putIfAbsent(b("old"), b("new"));
            db.write(ok, Durability.NO_SYNC);
            assertEquals("again", s(db.get(b("k7"))));
            assertEquals("new", s(db.get(b("old"))));
            assertEquals("v4999", s(db.get(b("k4999"))));
            WriteBatch late = new WriteBatch();
            for (int i = 0; i < 3000; i++) {
                late.putIfAbsent(b("n" + i), b("x"));
            }
            late.put(b("p"), b("1")).putIfAbsent(b("p"), b("2"));
            assertThrows(KeyExistsException.class, () -> db.write(late, Durability.NO_SYNC));
            assertFalse(db.contains(b("n0")));
            assertFalse(db.contains(b("p")));
            WriteBatch existing = new WriteBatch().putIfAbsent(b("fresh"), b("1")).putIfAbsent(b("k4321"), b("2"));
            assertThrows(KeyExistsException.class, () -> db.write(existing, Durability.NO_SYNC));
            assertFalse(db.contains(b("fresh")));
        }
    }

    @Test
    void aSizeLimitIsReportedByTypeWithTheLimitAndTheActualSize() throws IOException {
        BitcaskOptions opts = BitcaskOptions.builder().maxKeySize(8).maxValueSize(16).build();
        try (Bitcask db = Bitcask.open(dir, opts)) {
            LimitExceededException key = assertThrows(LimitExceededException.class, () -> db.delete(new byte[9]));
            assertEquals(LimitExceededException.Limit.KEY_SIZE, key.limit());
            assertEquals(8, key.max());
            assertEquals(9, key.actual());
            assertEquals("key of 9 bytes exceeds maxKeySize 8", key.getMessage());
            LimitExceededException value = assertThrows(LimitExceededException.class,
                    () -> db.write(new WriteBatch().put(b("k"), new byte[17]), Durability.NO_SYNC));
            assertEquals(LimitExceededException.Limit.VALUE_SIZE, value.limit());
            assertEquals(16, value.max());
            assertEquals(17, value.actual());
            IllegalArgumentException nullKey = assertThrows(IllegalArgumentException.class, () -> db.put(null, b("v")));
            assertFalse(nullKey instanceof LimitExceededException, "a null key is no size limit");
        }
    }

    @Test
    void badInputIsRejectedAndWritesNothing() throws IOException {
        BitcaskOptions opts = BitcaskOptions.builder().maxKeySize(8).maxValueSize(16).build();
        try (Bitcask db = Bitcask.open(dir, opts)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> db.put(new byte[9], b("v")));
            assertTrue(e.getMessage().contains("maxKeySize 8"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> db.put(b("k"), new byte[17]));
            assertTrue(e.getMessage().contains("maxValueSize 16"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> db.put(null, b("v")));
            assertThrows(IllegalArgumentException.class, () -> db.put(b("k"), null));
            assertThrows(IllegalArgumentException.class,
                    () -> db.write(new WriteBatch().put(b("ok"), b("v")).put(new byte[9], b("v")), Durability.SYNC));
            assertNull(db.get(b("ok")));
            assertEquals(0, db.stats().keys());
            assertEquals(0, db.stats().liveBytes());
        }
    }

    @Test
    void segmentsRollAndModelMatchesAfterReopenAndMerge() throws IOException {
        Random rnd = new Random(42);
        TreeMap<String, String> model = new TreeMap<>();
        try (Bitcask db = Bitcask.open(dir, small())) {
            for (int i = 0; i < 5000; i++) {
                String k = "k" + rnd.nextInt(300);
                if (rnd.nextInt(5) == 0) {
                    assertEquals(model.remove(k) != null, db.delete(b(k)));
                } else {
                    String v = "v" + i + "-" + "x".repeat(rnd.nextInt(100));
                    db.put(b(k), b(v), Durability.NO_SYNC);
                    model.put(k, v);
                }
            }
            assertTrue(db.stats().segments() > 10);
            check(db, model);
            db.merge();
            check(db, model);
            assertEquals(1, db.stats().merges());
        }
        try (Bitcask db = Bitcask.open(dir, small())) {
            check(db, model);
            for (int i = 0; i < 100; i++) {
                db.delete(b("k" + i));
                model.remove("k" + i);
            }
            db.merge();
            check(db, model);
        }
        try (Bitcask db = Bitcask.open(dir, small())) {
            check(db, model);
        }
    }

    static void check(Bitcask db, TreeMap<String, String> model) throws IOException {
        for (var e : model.entrySet()) {
            assertEquals(e.getValue(), s(db.get(b(e.getKey()))), e.getKey());
        }
        List<String> keys = new ArrayList<>();
        db.fold((k, v) -> {
            keys.add(s(k));
            assertEquals(model.get(s(k)), s(v));
        });
        assertEquals(new ArrayList<>(model.keySet()), keys);
        BitcaskStats st = db.stats();
        assertEquals(model.size(), st.keys());
        long expectLive = 0;
        for (var e : model.entrySet()) {
            expectLive += RecordFormat.size(b(e.getKey()).length, b(e.getValue()).length);
        }
        assertEquals(expectLive, st.liveBytes(), "live byte accounting");
    }

    @Test
    @SuppressWarnings("try") // the store is held open, unused, so that the second open finds it open
    void secondOpenInSameProcessIsRefused() throws IOException {
        try (Bitcask db = Bitcask.open(dir)) {
            IOException e = assertThrows(IOException.class, () -> Bitcask.open(dir));
            assertTrue(e.getMessage().contains("already open"), e.getMessage());
        }
        Bitcask.open(dir).close();
    }

    @Test
    void backupIsAConsistentCopy(@TempDir Path target) throws IOException {
        TreeMap<String, String> model = new TreeMap<>();
        try (Bitcask db = Bitcask.open(dir, small())) {
            for (int i = 0; i < 500; i++) {
                db.put(b("k" + i), b("v" + i));
                model.put("k" + i, "v" + i);
            }
            db.backup(target.resolve("copy"));
            db.put(b("after"), b("x"));
        }
        try (Bitcask copy = Bitcask.open(target.resolve("copy"), small())) {
            check(copy, model);
        }
    }

    @Test
    void readOnlyOpenServesReadsAndRefusesWrites() throws IOException {
        try (Bitcask db = Bitcask.open(dir)) {
            db.put(b("a"), b("1"));
        }
        try (Bitcask db = Bitcask.open(dir, BitcaskOptions.builder().readOnly(true).build())) {
            assertEquals("1", s(db.get(b("a"))));
            assertThrows(IllegalStateException.class, () -> db.put(b("b"), b("2")));
        }
    }

    @Test
    void hugeRecordGetsItsOwnSegment() throws IOException {
        try (Bitcask db = Bitcask.open(dir, small())) {
            byte[] big = new byte[20000];
            new Random(1).nextBytes(big);
            db.put(b("small"), b("1"));
            db.put(b("big"), big);
            db.put(b("small2"), b("2"));
            assertArrayEquals(big, db.get(b("big")));
        }
        try (Bitcask db = Bitcask.open(dir, small())) {
            assertEquals(20000, db.get(b("big")).length);
            assertEquals("2", s(db.get(b("small2"))));
        }
        assertTrue(Files.exists(dir.resolve("LOCK")));
    }
}
