package io.kegdb.raft.range;

import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Descriptors' stored form and bounds, and the meta keys that find the range holding a key. */
class RangeDescriptorTest {

    private static byte[] b(int... bytes) {
        byte[] out = new byte[bytes.length];
        for (int i = 0; i < bytes.length; i++) {
            out[i] = (byte) bytes[i];
        }
        return out;
    }

    @Test
    void aDescriptorSurvivesItsStoredForm() {
        for (RangeDescriptor d : List.of(
                new RangeDescriptor(1, new byte[0], MetaKeys.SYSTEM_SPAN_END, 0, 0,
                        List.of("127.0.0.1:7001", "127.0.0.1:7002", "127.0.0.1:7003")),
                new RangeDescriptor(42, b(0, 0, 0, 5, 0xFF), null, 3, 7, List.of("node-a.example:9000")),
                new RangeDescriptor(Long.MAX_VALUE, b(0), b(0, 0), Long.MAX_VALUE, 0, List.of()))) {
            RangeDescriptor back = RangeDescriptor.decode(d.encode());
            assertEquals(d, back);
            assertArrayEquals(d.start(), back.start());
            assertEquals(d.end() == null, back.end() == null);
            assertEquals(d.replicas(), back.replicas());
        }
    }

    @Test
    void badStoredFormsAreRefused() {
        byte[] good = new RangeDescriptor(2, b(1), b(2), 1, 1, List.of("h:1")).encode();
        assertThrows(IllegalArgumentException.class, () -> RangeDescriptor.decode(Arrays.copyOf(good, good.length - 1)));
        assertThrows(IllegalArgumentException.class, () -> RangeDescriptor.decode(Arrays.copyOf(good, good.length + 1)));
        byte[] otherFormat = good.clone();
        otherFormat[0] = 9;
        assertThrows(IllegalArgumentException.class, () -> RangeDescriptor.decode(otherFormat));
        byte[] hugeLength = good.clone();
        hugeLength[9] = 0x7F; // the start's length
        assertThrows(IllegalArgumentException.class, () -> RangeDescriptor.decode(hugeLength));
    }

    @Test
    void invalidRangesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RangeDescriptor(0, b(), null, 0, 0, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new RangeDescriptor(3, b(5), b(5), 0, 0, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new RangeDescriptor(3, b(6), b(5), 0, 0, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new RangeDescriptor(3, b(), null, -1, 0, List.of()));
        assertThrows(IllegalArgumentException.class, () -> new RangeDescriptor(3, b(), null, 0, 0, List.of("nohost")));
    }

    @Test
    void boundsAreHalfOpenInUnsignedOrder() {
        RangeDescriptor d = new RangeDescriptor(5, b(0x10), b(0x80), 0, 0, List.of());
        assertTrue(d.contains(b(0x10)));
        assertTrue(d.contains(b(0x7F, 0xFF)));
        assertFalse(d.contains(b(0x80)));
        assertFalse(d.contains(b(0x0F, 0xFF)));
        assertFalse(d.contains(b(0xF0)), "0xF0 is above 0x80 as an unsigned byte");
        RangeDescriptor last = new RangeDescriptor(6, b(0x80), null, 0, 0, List.of());
        assertTrue(last.contains(b(0xFF, 0xFF)));
        assertNull(last.end());
    }

    @Test
    void theFirstDescriptorKeyAtTheLookupKeyIsTheRangeHoldingIt() {
        Random random = new Random(24);
        for (int trial = 0; trial < 50; trial++) {
            // Cut the key space at random, sorted, distinct split keys of 1 to 3 bytes.
            TreeMap<byte[], Boolean> cuts = new TreeMap<>(Arrays::compareUnsigned);
            int n = 1 + random.nextInt(8);
            while (cuts.size() < n) {
                byte[] k = new byte[1 + random.nextInt(3)];
                random.nextBytes(k);
                cuts.put(k, true);
            }
            TreeMap<byte[], RangeDescriptor> meta = new TreeMap<>(Arrays::compareUnsigned);
            byte[] start = new byte[0];
            long id = 1;
            for (byte[] cut : cuts.keySet()) {
                if (Arrays.compareUnsigned(start, cut) < 0) {
                    RangeDescriptor d = new RangeDescriptor(id++, start, cut, 0, 0, List.of());
                    meta.put(d.metaKey(), d);
                    start = cut;
                }
            }
            RangeDescriptor last = new RangeDescriptor(id, start, null, 0, 0, List.of());
            meta.put(last.metaKey(), last);
            for (int probe = 0; probe < 200; probe++) {
                byte[] key = new byte[random.nextInt(4)];
                random.nextBytes(key);
                RangeDescriptor found = meta.ceilingEntry(MetaKeys.lookupFrom(key)).getValue();
                assertTrue(found.contains(key), () -> Arrays.toString(key) + " not in " + found);
            }
            for (byte[] cut : cuts.keySet()) {
                // A split key belongs to the range it starts, not the one it ends.
                RangeDescriptor found = meta.ceilingEntry(MetaKeys.lookupFrom(cut)).getValue();
                assertArrayEquals(cut, found.start());
            }
        }
    }

    @Test
    void descriptorKeysStayInsideTheSystemSpanApartFromTheCatalog() {
        byte[] bounded = MetaKeys.descriptorKey(b(0, 0, 0, 7));
        byte[] lastKey = MetaKeys.descriptorKey(null);
        for (byte[] k : List.of(bounded, lastKey)) {
            assertTrue(Arrays.compareUnsigned(k, MetaKeys.SYSTEM_SPAN_END) < 0, "in keyspace 0");
            assertTrue(MetaKeys.isDescriptorKey(k));
            assertTrue(Arrays.compareUnsigned(k, MetaKeys.descriptorsEnd()) < 0);
        }
        assertTrue(Arrays.compareUnsigned(bounded, lastKey) < 0, "the last range sorts after every bounded one");
        // The catalog's keys: 0000 'T' ..., 0000 'M', 0000 'V' version.
        assertFalse(MetaKeys.isDescriptorKey(b(0, 0, 0, 0, 'M')));
        assertFalse(MetaKeys.isDescriptorKey(b(0, 0, 0, 0, 'T', 'P')));
        assertTrue(Arrays.compareUnsigned(b(0, 0, 0, 0, 'V', 0xFF), MetaKeys.descriptorKey(new byte[0])) < 0);
    }
}
