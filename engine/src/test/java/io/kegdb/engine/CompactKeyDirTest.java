package io.kegdb.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class CompactKeyDirTest {

    private static final byte[][] PREFIXES = {
        {}, {0}, {0, 0, 0, 0, 0}, {(byte) 0xFF}, {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF},
        "user:".getBytes(), "user:0000".getBytes(), "order/2026/11/30/".getBytes(),
    };

    static NavigableMap<byte[], Long> newModel() {
        return new TreeMap<>(Arrays::compareUnsigned);
    }

    /** Random keys of 0..300 bytes, many sharing prefixes, with 0x00 and 0xFF bytes. */
    static byte[] randomKey(Random rnd) {
        byte[] prefix = PREFIXES[rnd.nextInt(PREFIXES.length)];
        int suffix = rnd.nextInt(10) == 0 ? rnd.nextInt(301 - prefix.length) : rnd.nextInt(9);
        byte[] key = Arrays.copyOf(prefix, prefix.length + suffix);
        for (int i = prefix.length; i < key.length; i++) {
            int r = rnd.nextInt(8);
            key[i] = r == 0 ? 0 : r == 1 ? (byte) 0xFF : (byte) rnd.nextInt(256);
        }
        return key;
    }

    @Test
    void randomizedOperationsMatchSortedMap() {
        Random rnd = new Random(42);
        CompactKeyDir dir = new CompactKeyDir();
        NavigableMap<byte[], Long> model = newModel();
        List<byte[]> seen = new ArrayList<>();
        // Phases: grow, churn, shrink hard (forces rebuilds), regrow, churn on a small set.
        int[][] phases = {
            // ops, insert%, remove%, replace% (rest overwrite)
            {300_000, 80, 5, 5},
            {250_000, 30, 30, 10},
            {200_000, 5, 90, 0},
            {250_000, 70, 10, 10},
            {200_000, 20, 60, 10},
        };
        long loc = 0;
        int phaseIndex = 0;
        for (int[] phase : phases) {
            if (phaseIndex++ == 3) {
                // Remove almost everything: the waste must trigger a rebuild, which must keep every survivor.
                List<byte[]> victims = new ArrayList<>(model.keySet());
                for (int i = 0; i < victims.size(); i++) {
                    if (i % 20 != 0) {
                        assertEquals(model.remove(victims.get(i)), dir.remove(victims.get(i)));
                    }
                }
                assertSameContents(model, dir, rnd);
            }
            for (int op = 0; op < phase[0]; op++) {
                int r = rnd.nextInt(100);
                byte[] key = seen.isEmpty() || r < phase[1] ? randomKey(rnd) : seen.get(rnd.nextInt(seen.size()));
                if (r < phase[1]) {
                    seen.add(key);
                }
                if (r >= phase[1] && r < phase[1] + phase[2]) {
                    Long prev = model.remove(key);
                    assertEquals(prev == null ? KeyDir.NONE : prev, dir.remove(key));
                } else if (r >= phase[1] + phase[2] && r < phase[1] + phase[2] + phase[3]) {
                    Long current = model.get(key);
                    long expected = current != null && rnd.nextBoolean() ? current : loc;
                    long update = ++loc;
                    boolean swapped = current != null && current == expected;
                    if (swapped) {
                        model.put(key, update);
                    }
                    assertEquals(swapped, dir.replace(key.clone(), expected, update));
                } else {
                    long l = ++loc;
                    Long prev = model.put(key, l);
                    assertEquals(prev == null ? KeyDir.NONE : prev, dir.put(key.clone(), l));
                }
                if (seen.size() > 200_000) {
                    seen.subList(0, 100_000).clear();
                }
            }
            assertSameContents(model, dir, rnd);
        }
        assertTrue(dir.rebuilds() > 0, "the shrinking phase should have compacted the directory");
    }

    static void assertSameContents(NavigableMap<byte[], Long> model, KeyDir dir, Random rnd) {
        assertEquals(model.size(), dir.size());
        for (Map.Entry<byte[], Long> e : model.entrySet()) {
            assertEquals(e.getValue(), dir.get(e.getKey()));
        }
        assertCursor(model, dir, null, null, false);
        assertCursor(model, dir, null, null, true);
        List<byte[]> keys = new ArrayList<>(model.keySet());
        for (int i = 0; i < 60; i++) {
            byte[] from = rnd.nextInt(4) == 0 ? null : pick(keys, rnd);
            byte[] to = rnd.nextInt(4) == 0 ? null : pick(keys, rnd);
            if (from != null && to != null && Arrays.compareUnsigned(from, to) > 0 && rnd.nextBoolean()) {
                byte[] t = from;
                from = to;
                to = t;
            }
            assertCursor(model, dir, from, to, rnd.nextBoolean(), 500);
        }
    }

    private static byte[] pick(List<byte[]> keys, Random rnd) {
        if (keys.isEmpty() || rnd.nextInt(3) == 0) {
            return randomKey(rnd);
        }
        return keys.get(rnd.nextInt(keys.size()));
    }

    static void assertCursor(NavigableMap<byte[], Long> model, KeyDir dir, byte[] from, byte[] to, boolean descending) {
        assertCursor(model, dir, from, to, descending, Integer.MAX_VALUE);
    }

    /** Checks the cursor against the model, up to {@code limit} entries (and its end if within them). */
    static void assertCursor(NavigableMap<byte[], Long> model, KeyDir dir, byte[] from, byte[] to, boolean descending,
            int limit) {
        NavigableMap<byte[], Long> view = model;
        if (from != null && to != null) {
            view = Arrays.compareUnsigned(from, to) >= 0 ? newModel() : model.subMap(from, true, to, false);
        } else if (from != null) {
            view = model.tailMap(from, true);
        } else if (to != null) {
            view = model.headMap(to, false);
        }
        if (limit == Integer.MAX_VALUE) {
            assertEquals(view.size(), dir.count(from, to), "count of the range");
        }
        if (descending) {
            view = view.descendingMap();
        }
        KeyDir.Cursor c = dir.cursor(from, to, descending);
        int checked = 0;
        for (Map.Entry<byte[], Long> e : view.entrySet()) {
            if (checked++ == limit) {
                return;
            }
            assertTrue(c.next(), "cursor ended early");
            assertArrayEquals(e.getKey(), c.key());
            assertEquals(e.getValue(), c.location());
        }
        assertFalse(c.next(), "cursor returned extra keys");
        assertFalse(c.next());
    }

    @Test
    void emptyDirectory() {
        CompactKeyDir dir = new CompactKeyDir();
        assertEquals(0, dir.size());
        assertEquals(KeyDir.NONE, dir.get(new byte[0]));
        assertEquals(KeyDir.NONE, dir.remove(new byte[] {1}));
        assertFalse(dir.replace(new byte[] {1}, 0, 1));
        assertFalse(dir.cursor(null, null, false).next());
        assertFalse(dir.cursor(null, null, true).next());
        assertFalse(dir.cursor(new byte[] {1}, new byte[] {2}, true).next());
        assertTrue(dir.memoryBytes() > 0);
    }

    @Test
    void boundsNullEqualInvertedAndUnsignedOrder() {
        CompactKeyDir dir = new CompactKeyDir();
        NavigableMap<byte[], Long> model = newModel();
        byte[][] keys = {
            {}, {0}, {0, 0}, {0, (byte) 0xFF}, {1}, {0x7F}, {(byte) 0x80}, {(byte) 0xFF}, {(byte) 0xFF, 0},
            {(byte) 0xFF, (byte) 0xFF}, {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF},
        };
        for (int i = 0; i < keys.length; i++) {
            dir.put(keys[i], i);
            model.put(keys[i], (long) i);
        }
        KeyDir.Cursor all = dir.cursor(null, null, false);
        assertTrue(all.next());
        assertArrayEquals(new byte[0], all.key());
        for (byte[] from : keys) {
            for (byte[] to : keys) {
                assertCursor(model, dir, from, to, false);
                assertCursor(model, dir, from, to, true);
            }
            assertCursor(model, dir, from, null, false);
            assertCursor(model, dir, from, null, true);
            assertCursor(model, dir, null, from, false);
            assertCursor(model, dir, null, from, true);
        }
        assertFalse(dir.cursor(new byte[] {5}, new byte[] {5}, false).next());
        assertFalse(dir.cursor(new byte[] {(byte) 0xFF}, new byte[] {1}, true).next());
        assertSameContents(model, dir, new Random(1));
    }

    @Test
    void cursorKeysAreFreshCopies() {
        CompactKeyDir dir = new CompactKeyDir();
        dir.put(new byte[] {1, 2, 3}, 7);
        KeyDir.Cursor c = dir.cursor(null, null, false);
        assertTrue(c.next());
        c.key()[0] = 9;
        assertArrayEquals(new byte[] {1, 2, 3}, c.key());
        assertEquals(7, c.location());
    }

    @Test
    void veryLongKeys() {
        Random rnd = new Random(7);
        CompactKeyDir dir = new CompactKeyDir();
        NavigableMap<byte[], Long> model = newModel();
        byte[] base = new byte[65_536];
        rnd.nextBytes(base);
        for (int i = 0; i < 300; i++) {
            byte[] key = base.clone();
            int at = rnd.nextInt(4) == 0 ? 65_535 - rnd.nextInt(8) : rnd.nextInt(65_536);
            key[at] = (byte) rnd.nextInt(256);
            if (i % 3 == 0) {
                key = Arrays.copyOf(key, 60_000 + rnd.nextInt(5_536));
            }
            dir.put(key, i);
            model.put(key, (long) i);
        }
        for (int i = 0; i < 100; i++) {
            byte[] k = model.firstKey();
            if (i % 2 == 0) {
                k = model.lastKey();
            }
            assertEquals(model.remove(k), dir.remove(k));
        }
        assertSameContents(model, dir, rnd);
        byte[] tooLong = new byte[KeyArena.MAX_KEY_LENGTH + 1];
        assertThrows(IllegalArgumentException.class, () -> dir.put(tooLong, 1));
        assertThrows(IllegalArgumentException.class, () -> dir.put(new byte[] {1}, -5));
        assertThrows(IllegalArgumentException.class, () -> dir.put(new byte[] {1}, 1L << Location.BITS));
    }

    @Test
    void largestLocationsSurviveOverwritesForShortAndLongKeys() {
        CompactKeyDir dir = new CompactKeyDir();
        long max = (1L << Location.BITS) - 1;
        byte[] shortKey = {(byte) 0x7F};
        byte[] longKey = new byte[300];
        Arrays.fill(longKey, (byte) 0xFF);
        assertEquals(KeyDir.NONE, dir.put(shortKey, max));
        assertEquals(KeyDir.NONE, dir.put(longKey, max - 1));
        assertEquals(max, dir.get(shortKey));
        assertEquals(max - 1, dir.get(longKey));
        // Changing the location in place must leave the length (sharing its word) intact.
        assertEquals(max, dir.put(shortKey, 7));
        assertEquals(max - 1, dir.put(longKey, 0));
        assertEquals(7, dir.get(shortKey));
        assertEquals(0, dir.get(longKey));
        assertTrue(dir.replace(longKey, 0, max));
        assertEquals(max, dir.get(longKey));
        KeyDir.Cursor c = dir.cursor(new byte[0], null, false);
        assertTrue(c.next());
        assertArrayEquals(shortKey, c.key());
        assertTrue(c.next());
        assertArrayEquals(longKey, c.key());
        assertEquals(max, c.location());
        assertFalse(c.next());
    }

    @Test
    void largestKeysFillWholePages() {
        CompactKeyDir dir = new CompactKeyDir();
        NavigableMap<byte[], Long> model = newModel();
        for (int i = 0; i < 5; i++) {
            byte[] small = {(byte) i};
            byte[] large = new byte[KeyArena.MAX_KEY_LENGTH];
            Arrays.fill(large, (byte) (0x80 + i));
            dir.put(small, i);
            dir.put(large, 100 + i);
            model.put(small, (long) i);
            model.put(large, 100L + i);
        }
        assertSameContents(model, dir, new Random(5));
        assertTrue(dir.memoryBytes() > 5L * KeyArena.MAX_KEY_LENGTH);
    }

    @Test
    void loaderBuildsTheSameDirectoryAsPuts() {
        Random rnd = new Random(3);
        for (int n : new int[] {0, 1, 111, 112, 113, 5_000, 100_000}) {
            NavigableMap<byte[], Long> model = newModel();
            while (model.size() < n) {
                model.put(randomKey(rnd), rnd.nextLong() >>> (64 - Location.BITS));
            }
            CompactKeyDir incremental = new CompactKeyDir();
            CompactKeyDir.Loader loader = CompactKeyDir.loader(n / 2);
            for (Map.Entry<byte[], Long> e : model.entrySet()) {
                incremental.put(e.getKey(), e.getValue());
                // A caller may reuse its buffers: the loader must not keep the array.
                byte[] k = e.getKey().clone();
                loader.add(k, e.getValue());
                Arrays.fill(k, (byte) 0x55);
            }
            CompactKeyDir bulk = loader.build();
            assertSameContents(model, incremental, rnd);
            assertSameContents(model, bulk, rnd);
            // The bulk-built structure keeps working under further changes (leaf and inner splits).
            for (int i = 0; i < n / 2 + 50; i++) {
                byte[] key = randomKey(rnd);
                long l = i;
                Long prev = model.put(key, l);
                assertEquals(prev == null ? KeyDir.NONE : prev, bulk.put(key, l));
                if (i % 3 == 0 && !model.isEmpty()) {
                    byte[] victim = model.ceilingKey(randomKey(rnd));
                    if (victim != null) {
                        assertEquals(model.remove(victim), bulk.remove(victim));
                    }
                }
            }
            assertSameContents(model, bulk, rnd);
        }
    }

    @Test
    void loaderTrimsAnOverestimatedHashIndex() {
        CompactKeyDir.Loader generous = CompactKeyDir.loader(1_000_000);
        CompactKeyDir.Loader exact = CompactKeyDir.loader(1_000);
        for (int i = 0; i < 1_000; i++) {
            byte[] key = {(byte) (i >>> 8), (byte) i};
            generous.add(key, i);
            exact.add(key, i);
        }
        CompactKeyDir a = generous.build();
        CompactKeyDir b = exact.build();
        assertEquals(b.memoryBytes(), a.memoryBytes());
        assertEquals(999, a.get(new byte[] {3, (byte) 231}));
    }

    @Test
    void loaderRejectsUnorderedInput() {
        CompactKeyDir.Loader loader = CompactKeyDir.loader(4);
        loader.add(new byte[] {1}, 1);
        assertThrows(IllegalArgumentException.class, () -> loader.add(new byte[] {1}, 2));
        assertThrows(IllegalArgumentException.class, () -> loader.add(new byte[] {0, 5}, 2));
        assertThrows(IllegalArgumentException.class, () -> loader.add(new byte[] {2}, -1));
        loader.add(new byte[] {(byte) 0x80}, 3);
        CompactKeyDir dir = loader.build();
        assertEquals(2, dir.size());
        assertEquals(3, dir.get(new byte[] {(byte) 0x80}));
        assertThrows(IllegalStateException.class, () -> loader.add(new byte[] {(byte) 0x90}, 4));
    }

    @Test
    void removalChurnKeepsMemoryBounded() {
        CompactKeyDir dir = new CompactKeyDir();
        Random rnd = new Random(11);
        byte[][] keys = new byte[50_000][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = new byte[8 + rnd.nextInt(40)];
            rnd.nextBytes(keys[i]);
            dir.put(keys[i], i);
        }
        long initial = dir.memoryBytes();
        long peak = 0;
        // Remove and re-add with new random sizes, so freed space is often of the wrong size to reuse.
        for (int round = 0; round < 40; round++) {
            for (int i = 0; i < keys.length; i++) {
                if (rnd.nextInt(2) == 0) {
                    dir.remove(keys[i]);
                    keys[i] = new byte[8 + rnd.nextInt(40)];
                    rnd.nextBytes(keys[i]);
                    dir.put(keys[i], round);
                }
            }
            peak = Math.max(peak, dir.memoryBytes());
        }
        assertEquals(keys.length, dir.size());
        assertTrue(peak < 3 * initial + (4 << 20), "memory grew from " + initial + " to " + peak);
        for (byte[] k : keys) {
            assertTrue(dir.get(k) >= 0);
        }
    }
}
