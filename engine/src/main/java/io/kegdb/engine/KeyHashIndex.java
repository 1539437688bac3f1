package io.kegdb.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * An open-addressing hash table (linear probing) from keys to {@link KeyArena} references.
 *
 * <p>A slot is one {@code long}: the high 32 bits of the key's 64-bit hash (the tag) and the 32-bit
 * reference; 0 is an empty slot. The home slot is the tag's top bits, so the table grows without touching
 * the keys, and a probe only reads a key from the arena when the tags match. Removal shifts the following
 * cluster back instead of leaving tombstones. At most 3/4 full, so 10.7 to 21 bytes per key.
 *
 * <p>Not thread-safe: the owner serializes writers and validates racing readers.
 */
final class KeyHashIndex {

    private static final int MIN_CAPACITY = 16;
    private static final int MAX_CAPACITY = 1 << 30;
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long M1 = 0x9E3779B97F4A7C15L;
    private static final long M2 = 0xBF58476D1CE4E5B9L;
    private static final long M3 = 0x94D049BB133111EBL;

    private final long[] slots;
    private final int shift;
    private int count;

    KeyHashIndex(long expectedKeys) {
        int capacity = capacityFor(expectedKeys);
        slots = new long[capacity];
        shift = 32 - Integer.numberOfTrailingZeros(capacity);
    }

    /** The smallest power-of-two slot count that holds {@code keys} at most 3/4 full. */
    private static int capacityFor(long keys) {
        long want = Math.max(MIN_CAPACITY, keys + keys / 3 + 1);
        return want >= MAX_CAPACITY ? MAX_CAPACITY : Integer.highestOneBit((int) want - 1) << 1;
    }

    static long hash(byte[] key) {
        return hash(key, 0, key.length);
    }

    /** A 64-bit hash of {@code b[off, off + len)}. */
    static long hash(byte[] b, int off, int len) {
        long h = len * M1;
        int i = 0;
        for (; i + 8 <= len; i += 8) {
            h = (h ^ (long) LONG.get(b, off + i)) * M2;
            h ^= h >>> 29;
        }
        if (i < len) {
            long tail = 0;
            for (int s = 0; i < len; i++, s += 8) {
                tail |= (b[off + i] & 0xFFL) << s;
            }
            h = (h ^ tail) * M2;
            h ^= h >>> 29;
        }
        h *= M3;
        h ^= h >>> 32;
        h *= M1;
        return h ^ (h >>> 29);
    }

    static int tag(long hash) {
        return (int) (hash >>> 32);
    }

    int count() {
        return count;
    }

    /** Whether one more key would pass the load limit. */
    boolean full() {
        return count + 1 > slots.length - (slots.length >>> 2) && slots.length < MAX_CAPACITY;
    }

    /** A copy twice as large; this table stays usable (for readers) and unchanged. */
    KeyHashIndex grown() {
        return copySizedFor((long) slots.length * 2 * 3 / 4 - 1);
    }

    /** This table, or a smaller copy if it has more slots than its keys need. */
    KeyHashIndex trimmed() {
        return capacityFor(count) < slots.length ? copySizedFor(count) : this;
    }

    private KeyHashIndex copySizedFor(long keys) {
        KeyHashIndex g = new KeyHashIndex(keys);
        for (long v : slots) {
            if ((int) v != 0) {
                g.insert((int) (v >>> 32), (int) v);
            }
        }
        return g;
    }

    private int home(int tag) {
        return tag >>> shift;
    }

    /** The slot holding {@code key}, or -1. Bounded even when racing a writer. */
    int find(KeyArena arena, byte[] key, int tag) {
        long[] s = slots;
        int mask = s.length - 1;
        int i = home(tag) & mask;
        for (int n = 0; n <= mask; n++, i = (i + 1) & mask) {
            long v = s[i];
            int ref = (int) v;
            if (ref == 0) {
                return -1;
            }
            if ((int) (v >>> 32) == tag && arena.keyEquals(ref, key)) {
                return i;
            }
        }
        return -1;
    }

    /** The home slot of {@code tag}, read only to bring its cache line in (see {@link CompactKeyDir#prefetch}). */
    long homeSlot(int tag) {
        long[] s = slots;
        return s[home(tag) & (s.length - 1)];
    }

    /** The reference stored in a slot found by {@link #find}. */
    int ref(int slot) {
        return (int) slots[slot];
    }

    /** Adds a key known to be absent; the caller checked {@link #full()}. */
    void insert(int tag, int ref) {
        long[] s = slots;
        int mask = s.length - 1;
        int i = home(tag) & mask;
        while ((int) s[i] != 0) {
            i = (i + 1) & mask;
        }
        s[i] = ((long) tag << 32) | (ref & 0xFFFFFFFFL);
        count++;
    }

    /** Empties a slot, moving later members of its cluster back so that probes stay unbroken. */
    void removeSlot(int slot) {
        long[] s = slots;
        int mask = s.length - 1;
        int hole = slot;
        int j = slot;
        while (true) {
            j = (j + 1) & mask;
            long v = s[j];
            if ((int) v == 0) {
                break;
            }
            int h = home((int) (v >>> 32)) & mask;
            // Move v into the hole unless its home lies cyclically in (hole, j].
            boolean homeBetween = hole <= j ? (h > hole && h <= j) : (h > hole || h <= j);
            if (!homeBetween) {
                s[hole] = v;
                hole = j;
            }
        }
        s[hole] = 0;
        count--;
    }

    long memoryBytes() {
        return 16 + 8L * slots.length + 24;
    }
}
