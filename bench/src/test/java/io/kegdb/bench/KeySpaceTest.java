package io.kegdb.bench;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class KeySpaceTest {

    @Test
    void keysAreDistinctAndOfTheRequestedSize() {
        for (int size : new int[] {8, 16}) {
            KeySpace keys = new KeySpace(7, size, 128);
            Set<ByteBuffer> seen = new HashSet<>();
            for (long i = 0; i < 200_000; i++) {
                byte[] k = keys.key(i);
                assertEquals(size, k.length);
                assertTrue(seen.add(ByteBuffer.wrap(k)), "key #" + i + " repeats");
            }
        }
    }

    @Test
    void sameSeedGivesSameKeysAndValuesOtherSeedDoesNot() {
        KeySpace a = new KeySpace(42, 16, 512);
        KeySpace b = new KeySpace(42, 16, 512);
        KeySpace c = new KeySpace(43, 16, 512);
        for (long i = 0; i < 1000; i++) {
            assertArrayEquals(a.key(i), b.key(i));
            assertArrayEquals(a.value(i), b.value(i));
        }
        assertFalse(Arrays.equals(a.key(5), c.key(5)));
    }

    @Test
    void valueMatchesOnlyItsOwnIndex() {
        KeySpace keys = new KeySpace(1, 8, 128);
        byte[] v = keys.value(12345);
        assertEquals(128, v.length);
        assertTrue(keys.matches(12345, v));
        assertFalse(keys.matches(12346, v));
        assertFalse(keys.matches(12345, null));
        assertFalse(keys.matches(12345, Arrays.copyOf(v, 127)));
    }

    @Test
    void rejectsSizesThatCannotKeepKeysDistinct() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new KeySpace(1, 4, 128));
        assertTrue(e.getMessage().contains("keySize 4"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new KeySpace(1, 8, 4));
    }
}
