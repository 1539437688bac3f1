package io.kegdb.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

class KeyOrderIndexTest {

    private static byte[] key(int i) {
        return new byte[] {'k', 'e', 'y', (byte) (i >>> 24), (byte) (i >>> 16), (byte) (i >>> 8), (byte) i};
    }

    private static List<byte[]> walk(KeyArena arena, KeyOrderIndex tree) {
        List<byte[]> keys = new ArrayList<>();
        for (KeyOrderIndex.Leaf leaf = tree.firstLeaf(); leaf != null; leaf = leaf.next) {
            for (int i = 0; i < leaf.count; i++) {
                keys.add(arena.key(leaf.ref(i)));
            }
        }
        return keys;
    }

    @Test
    void keysInsertedInOrderPackLeavesTightly() {
        int n = 100_000;
        for (boolean ascending : new boolean[] {true, false}) {
            KeyArena arena = new KeyArena();
            KeyOrderIndex tree = new KeyOrderIndex(arena);
            for (int j = 0; j < n; j++) {
                int i = ascending ? j : n - 1 - j;
                byte[] k = key(i);
                tree.insert(k, arena.allocate(k, i));
            }
            assertTrue(tree.unusedSlots() < n / 50, "unused leaf slots: " + tree.unusedSlots());
            List<byte[]> keys = walk(arena, tree);
            assertEquals(n, keys.size());
            for (int i = 0; i < n; i++) {
                assertArrayEquals(key(i), keys.get(i));
                KeyOrderIndex.Leaf leaf = tree.leafFor(key(i));
                assertTrue(tree.search(leaf, key(i)) >= 0);
            }
        }
    }

    @Test
    void removalLeavesEmptyLeavesThatStillWork() {
        KeyArena arena = new KeyArena();
        KeyOrderIndex tree = new KeyOrderIndex(arena);
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            byte[] k = key(i * 7 % n);
            tree.insert(k, arena.allocate(k, i));
        }
        for (int i = 0; i < n; i++) {
            if (i % 1000 != 0) {
                assertTrue(tree.remove(key(i)));
            }
        }
        assertTrue(tree.unusedSlots() > n / 2);
        for (int i = 1; i < n; i += 1000) {
            byte[] k = key(i);
            tree.insert(k, arena.allocate(k, i));
        }
        List<byte[]> keys = walk(arena, tree);
        assertEquals(20, keys.size());
        for (int i = 1; i < keys.size(); i++) {
            assertTrue(Arrays.compareUnsigned(keys.get(i - 1), keys.get(i)) < 0);
        }
    }

    @Test
    void appendsAboveTheLargestKeyMixedWithRandomInsertsAndRemovals() {
        KeyArena arena = new KeyArena();
        KeyOrderIndex tree = new KeyOrderIndex(arena);
        TreeSet<byte[]> model = new TreeSet<>(Arrays::compareUnsigned);
        Random random = new Random(5);
        long counter = 0;
        for (int step = 0; step < 60_000; step++) {
            int what = random.nextInt(10);
            byte[] k;
            if (what < 6) {
                // above every key so far, with lengths that keep changing the last leaf's shared prefix
                counter += 1 + random.nextInt(300);
                String digits = Long.toString(counter);
                k = ("seq" + digits.length() + digits + "x".repeat(random.nextInt(3))).getBytes();
            } else if (what < 8) {
                k = ("rnd" + random.nextInt(50_000)).getBytes();
            } else {
                byte[] victim = what == 8 && !model.isEmpty() ? model.last() : ("rnd" + random.nextInt(50_000)).getBytes();
                assertEquals(model.remove(victim), tree.remove(victim));
                continue;
            }
            if (model.add(k)) {
                tree.insert(k, arena.allocate(k, step));
            }
        }
        assertHoldsExactly(model, arena, tree);
    }

    @Test
    void ascendingRunsInSeveralKeyRangesWithARangeDroppedBetween() {
        KeyArena arena = new KeyArena();
        KeyOrderIndex tree = new KeyOrderIndex(arena);
        TreeSet<byte[]> model = new TreeSet<>(Arrays::compareUnsigned);
        Random random = new Random(9);
        int[] next = new int[4];
        for (int step = 0; step < 80_000; step++) {
            if (step == 40_000) {
                // drop "table" 3, the highest range: its leaves stay behind, empty, with their separators
                for (byte[] k : new ArrayList<>(model.tailSet(new byte[] {3}))) {
                    assertTrue(tree.remove(k));
                    model.remove(k);
                }
            }
            int table = step < 40_000 ? random.nextInt(4) : random.nextInt(3);
            byte[] k = String.format("%c%09d", (char) table, next[table]++).getBytes();
            if (random.nextInt(20) == 0) {
                k = String.format("%c%09d", (char) table, random.nextInt(Math.max(1, next[table]))).getBytes();
                if (model.contains(k)) {
                    continue;
                }
            }
            model.add(k);
            tree.insert(k, arena.allocate(k, step));
        }
        assertHoldsExactly(model, arena, tree);
    }

    /** The tree's leaves hold the model's keys in order, and a search finds each of them. */
    private static void assertHoldsExactly(TreeSet<byte[]> model, KeyArena arena, KeyOrderIndex tree) {
        List<byte[]> keys = walk(arena, tree);
        assertEquals(model.size(), keys.size());
        int i = 0;
        for (byte[] k : model) {
            assertArrayEquals(k, keys.get(i++));
            assertTrue(tree.search(tree.leafFor(k), k) >= 0, () -> Arrays.toString(k) + " not found by search");
        }
    }
}
