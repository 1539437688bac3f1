package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.kegdb.engine.BitcaskTest.b;
import static io.kegdb.engine.BitcaskTest.s;
import static org.junit.jupiter.api.Assertions.*;

/** {@link KvStore#cursor}: in-place steps over the same pairs a scan returns, on every kind of store. */
class KvCursorTest {

    @TempDir
    Path dir;

    /** The stores whose cursors are tested: Bitcask's and the in-memory store's own, and the default on scan. */
    enum Kind { BITCASK, MEMORY, DEFAULT }

    private KvStore open(Kind kind) throws IOException {
        return switch (kind) {
            case BITCASK -> Bitcask.open(dir, smallSegments());
            case MEMORY -> KvStore.inMemory();
            case DEFAULT -> new ScanOnlyStore(KvStore.inMemory());
        };
    }

    private static BitcaskOptions smallSegments() {
        return BitcaskOptions.builder().segmentSize(4096).mergeInterval(Duration.ZERO).build();
    }

    private static String key(int i) {
        return String.format("k%05d", i);
    }

    private static String value(int i) {
        return "value-" + i + "-" + "x".repeat(i % 29);
    }

    private static void fill(KvStore store, int n) {
        for (int i = 0; i < n; i++) {
            store.put(b(key(i)), b(value(i)), Durability.NO_SYNC);
        }
    }

    /** The pairs of a cursor, read through its views (and checked against its copies). */
    private static List<String> walk(KvCursor c) {
        List<String> out = new ArrayList<>();
        while (c.next()) {
            String k = new String(c.keyArray(), c.keyOffset(), c.keyLength(), java.nio.charset.StandardCharsets.UTF_8);
            String v = new String(c.valueArray(), c.valueOffset(), c.valueLength(),
                    java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(k, s(c.key()));
            assertEquals(v, s(c.value()));
            out.add(k + "=" + v);
        }
        return out;
    }

    private static List<String> scanned(KvIterator it) {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                out.add(s(kv.key()) + "=" + s(kv.value()));
            }
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void boundsAreThoseOfScan(Kind kind) throws IOException {
        try (KvStore store = open(kind)) {
            fill(store, 500);
            byte[][][] bounds = {
                {null, null}, {b(key(100)), null}, {null, b(key(100))}, {b(key(100)), b(key(101))},
                {b(key(100)), b(key(100))}, {b(key(300)), b(key(100))}, {b("k00100x"), b("k00250")},
                {b("a"), b("b")}, {b("z"), null},
            };
            for (byte[][] bound : bounds) {
                try (KvCursor c = store.cursor(bound[0], bound[1])) {
                    assertEquals(scanned(store.scan(bound[0], bound[1])), walk(c));
                }
                try (KvCursor c = store.cursorDescending(bound[0], bound[1])) {
                    assertEquals(scanned(store.scanDescending(bound[0], bound[1])), walk(c));
                }
            }
            try (KvCursor c = store.cursor(b(key(10)), b(key(13)))) {
                assertEquals(List.of(key(10) + "=" + value(10), key(11) + "=" + value(11), key(12) + "=" + value(12)),
                        walk(c));
                assertFalse(c.next(), "stays at its end");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void emptyStoreAndNoCurrentPair(Kind kind) throws IOException {
        try (KvStore store = open(kind); KvCursor c = store.cursor(null, null)) {
            assertThrows(IllegalStateException.class, c::keyArray, "no pair before next()");
            assertFalse(c.next());
            assertThrows(IllegalStateException.class, c::valueLength, "no pair after the end");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void copiesOutliveTheNextStep(Kind kind) throws IOException {
        try (KvStore store = open(kind)) {
            fill(store, 50);
            List<byte[]> keys = new ArrayList<>();
            List<byte[]> values = new ArrayList<>();
            try (KvCursor c = store.cursor(null, null)) {
                while (c.next()) {
                    keys.add(c.key());
                    values.add(c.value());
                }
            }
            for (int i = 0; i < 50; i++) {
                assertEquals(key(i), s(keys.get(i)));
                assertEquals(value(i), s(values.get(i)));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void deletesAndOverwritesAheadOfTheCursorAreSeen(Kind kind) throws IOException {
        try (KvStore store = open(kind)) {
            fill(store, 2000);
            List<String> seen = new ArrayList<>();
            try (KvCursor c = store.cursor(null, null)) {
                assertTrue(c.next());
                seen.add(s(c.key()));
                store.delete(b(key(1500)), Durability.NO_SYNC);
                store.put(b(key(1600)), b("overwritten"), Durability.NO_SYNC);
                store.put(b(key(1700) + "+"), b("inserted"), Durability.NO_SYNC);
                while (c.next()) {
                    seen.add(s(c.key()) + "=" + s(c.value()));
                }
            }
            assertFalse(seen.contains(key(1500) + "=" + value(1500)), "a key deleted ahead is skipped");
            assertTrue(seen.contains(key(1600) + "=overwritten"), "an overwrite ahead is read");
            assertTrue(seen.contains(key(1700) + "+=inserted"), "an insert ahead is read");
            assertEquals(2000, seen.size());
        }
    }

    @Test
    void acrossSegmentsAndThroughAMerge() throws IOException {
        try (Bitcask db = Bitcask.open(dir, smallSegments())) {
            TreeMap<String, String> expected = new TreeMap<>();
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 600; i++) {
                    String v = value(i) + "/" + round;
                    db.put(b(key(i)), b(v), Durability.NO_SYNC);
                    expected.put(key(i), v);
                }
            }
            for (int i = 0; i < 600; i += 7) {
                db.delete(b(key(i)), Durability.NO_SYNC);
                expected.remove(key(i));
            }
            assertTrue(db.stats().segments() > 10, "the pairs lie in many segments");
            List<String> want = new ArrayList<>();
            for (Map.Entry<String, String> e : expected.entrySet()) {
                want.add(e.getKey() + "=" + e.getValue());
            }
            try (KvCursor c = db.cursor(null, null)) {
                assertEquals(want, walk(c));
            }

            // A merge between two steps deletes the segments the cursor's batch points into.
            List<String> seen = new ArrayList<>();
            try (KvCursor c = db.cursor(null, null)) {
                for (int i = 0; i < 5 && c.next(); i++) {
                    seen.add(s(c.key()) + "=" + s(c.value()));
                }
                db.merge();
                while (c.next()) {
                    seen.add(s(c.key()) + "=" + s(c.value()));
                }
            }
            assertEquals(want, seen);
            try (KvCursor c = db.cursor(null, null)) {
                assertEquals(want, walk(c), "after the merge");
            }
        }
    }

    @Test
    void aCorruptRecordFailsNamingFileAndOffset() throws IOException {
        try (Bitcask db = Bitcask.open(dir, smallSegments())) {
            fill(db, 300);
            byte[] victim = b(key(123));
            long loc = db.keyDir().get(victim);
            Segment segment = db.table().get(Location.segment(loc));
            int offset = Location.offset(loc);
            int valueAt = offset + RecordFormat.HEADER_SIZE + victim.length + 2;
            try (FileChannel ch = FileChannel.open(segment.path(), StandardOpenOption.WRITE)) {
                ch.write(ByteBuffer.wrap(new byte[] {(byte) ~value(123).charAt(2)}), valueAt);
            }
            List<String> before = new ArrayList<>();
            UncheckedIOException e;
            try (KvCursor c = db.cursor(null, null)) {
                e = assertThrows(UncheckedIOException.class, () -> {
                    while (c.next()) {
                        before.add(s(c.key()));
                    }
                });
            }
            CorruptRecordException corrupt = assertInstanceOf(CorruptRecordException.class, e.getCause());
            assertEquals(segment.path(), corrupt.file());
            assertEquals(offset, corrupt.offset());
            assertTrue(corrupt.getMessage().contains(segment.path().toString())
                    && corrupt.getMessage().contains("offset " + offset), corrupt.getMessage());
            assertEquals(123, before.size(), "every pair before the damaged one, and not that one");
            assertThrows(UncheckedIOException.class, () -> db.get(victim), "get reads the same way");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aClosedStoreRefusesCursorsAndTheirSteps(Kind kind) throws IOException {
        KvStore store = open(kind);
        fill(store, 100);
        KvCursor open = store.cursor(null, null);
        assertTrue(open.next());
        store.close();
        assertThrows(StoreClosedException.class, () -> store.cursor(null, null));
        if (kind != Kind.DEFAULT) { // a scan's iterator may finish what it holds; the native cursors check
            assertThrows(StoreClosedException.class, open::next);
        }
        open.close();
        assertFalse(open.next(), "a closed cursor has no more pairs");
    }

    @Test
    void viewsAreValidUntilTheNextStep() throws IOException {
        try (Bitcask db = Bitcask.open(dir, smallSegments())) {
            db.put(b("a"), b("x".repeat(1000)), Durability.NO_SYNC);
            db.put(b("b"), b("short"), Durability.NO_SYNC);
            try (KvCursor c = db.cursor(null, null)) {
                assertTrue(c.next());
                assertEquals(1000, c.valueLength());
                byte[] first = Arrays.copyOfRange(c.valueArray(), c.valueOffset(), c.valueOffset() + 1000);
                assertTrue(c.next());
                assertEquals("short", new String(c.valueArray(), c.valueOffset(), c.valueLength(),
                        java.nio.charset.StandardCharsets.UTF_8));
                assertEquals("x".repeat(1000), s(first));
            }
        }
    }

    /** A store that keeps {@link KvStore}'s default cursor: everything else is the wrapped store's. */
    private static final class ScanOnlyStore implements KvStore {
        private final KvStore inner;

        ScanOnlyStore(KvStore inner) {
            this.inner = inner;
        }

        @Override
        public byte[] get(byte[] key) {
            return inner.get(key);
        }

        @Override
        public void put(byte[] key, byte[] value, Durability durability) {
            inner.put(key, value, durability);
        }

        @Override
        public boolean delete(byte[] key, Durability durability) {
            return inner.delete(key, durability);
        }

        @Override
        public void write(WriteBatch batch, Durability durability) {
            inner.write(batch, durability);
        }

        @Override
        public KvIterator scan(byte[] fromInclusive, byte[] toExclusive) {
            return inner.scan(fromInclusive, toExclusive);
        }

        @Override
        public KvIterator scanDescending(byte[] fromInclusive, byte[] toExclusive) {
            return inner.scanDescending(fromInclusive, toExclusive);
        }

        @Override
        public void flush() {
            inner.flush();
        }

        @Override
        public StoreStats stats() {
            return inner.stats();
        }

        @Override
        public void close() {
            inner.close();
        }
    }
}
