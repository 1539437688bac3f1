package io.kegdb.sql.txn;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The overlay's write table against a {@link LinkedHashMap} model: contents, first-write order, removals. */
class PendingWritesTest {

    private static Overlay.Pending write(int i) {
        return new Overlay.Pending(Overlay.Kind.PUT, new byte[] {(byte) i});
    }

    @Test
    void mixedPutsRemovalsAndClearsMatchAnInsertionOrderedMap() {
        PendingWrites table = new PendingWrites();
        Map<String, Overlay.Pending> model = new LinkedHashMap<>();
        Random random = new Random(3);
        for (int step = 0; step < 200_000; step++) {
            // Few distinct keys at a time, so that puts overwrite, removals hit and the arrays fill with holes.
            String k = "key-" + random.nextInt(step < 100_000 ? 300 : 5_000);
            byte[] key = k.getBytes(StandardCharsets.UTF_8);
            int what = random.nextInt(100);
            if (what < 55) {
                Overlay.Pending w = write(step);
                table.put(key, w);
                model.put(k, w); // LinkedHashMap keeps a present key in its first place, as the table must
            } else if (what < 85) {
                table.remove(key);
                model.remove(k);
            } else if (what == 99 && random.nextInt(50) == 0) {
                table.clear();
                model.clear();
            } else {
                assertSame(model.get(k), table.get(key), k);
            }
            assertEquals(model.size(), table.size());
            if (step % 997 == 0) {
                assertSameOrder(model, table);
            }
        }
        assertSameOrder(model, table);
    }

    @Test
    void keysAreComparedByContentAndAPutKeepsTheFirstPlace() {
        PendingWrites table = new PendingWrites();
        for (int i = 0; i < 3_000; i++) {
            table.put(("k" + i).getBytes(StandardCharsets.UTF_8), write(i));
        }
        Overlay.Pending replaced = write(-1);
        table.put("k0".getBytes(StandardCharsets.UTF_8), replaced);
        assertSame(replaced, table.get("k0".getBytes(StandardCharsets.UTF_8)));
        assertNull(table.get("k3000".getBytes(StandardCharsets.UTF_8)));
        List<String> order = new ArrayList<>();
        table.forEach((key, w) -> order.add(new String(key, StandardCharsets.UTF_8)));
        assertEquals(3_000, order.size());
        assertEquals("k0", order.get(0));
        assertEquals("k2999", order.get(2_999));
    }

    private static void assertSameOrder(Map<String, Overlay.Pending> model, PendingWrites table) {
        List<String> keys = new ArrayList<>();
        List<Overlay.Pending> writes = new ArrayList<>();
        table.forEach((key, w) -> {
            keys.add(new String(key, StandardCharsets.UTF_8));
            writes.add(w);
        });
        assertEquals(new ArrayList<>(model.keySet()), keys);
        List<Overlay.Pending> expected = new ArrayList<>(model.values());
        for (int i = 0; i < expected.size(); i++) {
            assertSame(expected.get(i), writes.get(i));
        }
    }
}
