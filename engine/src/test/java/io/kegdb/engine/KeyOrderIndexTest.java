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

    @Test
    void absenceAboveTheLastInsertIsNeverClaimedForAPresentKey() {
        KeyArena arena = new KeyArena();
        KeyOrderIndex tree = new KeyOrderIndex(arena);
        TreeSet<byte[]> model = new TreeSet<>(Arrays::compareUnsigned);
        Random random = new Random(13);
        int[] next = new int[3];
        byte[] last = null;
        int appends = 0;
        int appendsSeenAbsent = 0;
        for (int step = 0; step < 60_000; step++) {
            int what = random.nextInt(20);
            if (what == 0 && last != null) {
                // remove the last insert or its neighbour above: the leaf's largest key changes
                byte[] victim = random.nextBoolean() ? last : model.higher(last);
                if (victim != null) {
                    assertEquals(model.remove(victim), tree.remove(victim));
                }
            } else if (what == 1 && !model.isEmpty()) {
                byte[] victim = model.ceiling(new byte[] {(byte) random.nextInt(3), '0'});
                if (victim != null) {
                    assertTrue(tree.remove(victim));
                    model.remove(victim);
                }
            } else {
                int table = random.nextInt(3);
                boolean append = what > 4;
                byte[] k = String.format("%c%09d", (char) table,
                        append ? next[table]++ : random.nextInt(Math.max(1, next[table]))).getBytes();
                if (append) {
                    appends++;
                    if (tree.absentAboveLastInsert(k)) {
                        appendsSeenAbsent++;
                    }
                }
                if (model.add(k)) {
                    tree.insert(k, arena.allocate(k, step));
                    last = k;
                }
            }
            // Probes: present keys (never "absent"), and absent ones around the last insert (either answer).
            List<byte[]> probes = new ArrayList<>();
            if (last != null) {
                probes.add(last);
                probes.add(model.higher(last));
                probes.add(model.lower(last));
            }
            if (!model.isEmpty()) {
                probes.add(model.last());
                probes.add(model.ceiling(new byte[] {(byte) random.nextInt(3)}));
            }
            for (byte[] p : probes) {
                if (p != null && model.contains(p)) {
                    assertTrue(!tree.absentAboveLastInsert(p), () -> new String(p) + " is present");
                }
            }
        }
        assertHoldsExactly(model, arena, tree);
        // Mostly the next key of a range whose previous key went in last; not every time, as ranges interleave.
        assertTrue(appendsSeenAbsent > appends / 4, appendsSeenAbsent + " of " + appends + " appends seen absent");
    }

    @Test
    void anAscendingRunBelowExistingKeysTurnsIntoAppendsAndPacksItsLeaves() {
        KeyArena arena = new KeyArena();
        KeyOrderIndex tree = new KeyOrderIndex(arena);
        TreeSet<byte[]> model = new TreeSet<>(Arrays::compareUnsigned);
        // A lower "table" with a few keys, then a higher one with many: the boundary lies inside full leaves.
        for (String k : List.of("1-000", "1-001", "1-002")) {
            model.add(k.getBytes());
            tree.insert(k.getBytes(), arena.allocate(k.getBytes(), 0));
        }
        for (int i = 0; i < 20_000; i++) {
            byte[] k = String.format("3-%06d", i).getBytes();
            model.add(k);
            tree.insert(k, arena.allocate(k, i));
        }
        long unusedBefore = tree.unusedSlots();
        // Now load the middle "table" in ascending order, between the two.
        int n = 20_000;
        int seenAbsent = 0;
        for (int i = 0; i < n; i++) {
            byte[] k = String.format("2-%06d", i).getBytes();
            if (tree.absentAboveLastInsert(k)) {
                seenAbsent++;
            }
            model.add(k);
            tree.insert(k, arena.allocate(k, i));
        }
        assertHoldsExactly(model, arena, tree);
        assertTrue(seenAbsent > n * 95 / 100, seenAbsent + " of " + n + " keys took the append path");
        long added = tree.unusedSlots() - unusedBefore;
        assertTrue(added < n / 20, "the run's leaves are nearly full: " + added + " unused slots added");
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
