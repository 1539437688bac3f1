package io.kegdb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyHashIndexTest {

    /** A tag whose home slot in a 16-slot table is {@code home}, with {@code low} to tell tags apart. */
    private static int tag(int home, int low) {
        return (home << 28) | low;
    }

    @Test
    void removalKeepsCollidingClustersFindableAcrossTheTableEnd() {
        Random rnd = new Random(5);
        for (int round = 0; round < 2_000; round++) {
            KeyArena arena = new KeyArena();
            KeyHashIndex index = new KeyHashIndex(0);
            List<byte[]> keys = new ArrayList<>();
            List<Integer> tags = new ArrayList<>();
            int n = 1 + rnd.nextInt(11); // stays under the 3/4 load limit of 16 slots
            for (int i = 0; i < n; i++) {
                byte[] key = {(byte) i, (byte) round};
                // Homes crowd the last slots, so clusters wrap around to slot 0; some tags repeat.
                int t = tag(12 + rnd.nextInt(4), rnd.nextInt(3));
                index.insert(t, arena.allocate(key, i));
                keys.add(key);
                tags.add(t);
            }
            while (!keys.isEmpty()) {
                int victim = rnd.nextInt(keys.size());
                int slot = index.find(arena, keys.get(victim), tags.get(victim));
                assertTrue(slot >= 0);
                index.removeSlot(slot);
                keys.remove(victim);
                tags.remove(victim);
                assertEquals(keys.size(), index.count());
                for (int i = 0; i < keys.size(); i++) {
                    int found = index.find(arena, keys.get(i), tags.get(i));
                    assertTrue(found >= 0, "lost a key after a removal");
                    assertTrue(arena.keyEquals(index.ref(found), keys.get(i)));
                }
            }
        }
    }

    @Test
    void growingKeepsEveryKey() {
        KeyArena arena = new KeyArena();
        KeyHashIndex index = new KeyHashIndex(0);
        int n = 10_000;
        for (int i = 0; i < n; i++) {
            byte[] key = Integer.toString(i).getBytes();
            if (index.full()) {
                index = index.grown();
            }
            index.insert(KeyHashIndex.tag(KeyHashIndex.hash(key)), arena.allocate(key, i));
        }
        assertEquals(n, index.count());
        for (int i = 0; i < n; i++) {
            byte[] key = Integer.toString(i).getBytes();
            int slot = index.find(arena, key, KeyHashIndex.tag(KeyHashIndex.hash(key)));
            assertEquals(i, arena.location(index.ref(slot)));
        }
        assertTrue(index.memoryBytes() <= 8L * 16_384 + 64, "10000 keys fit 16384 slots at 3/4 load");
    }
}
