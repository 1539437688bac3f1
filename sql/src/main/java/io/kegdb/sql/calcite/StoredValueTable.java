package io.kegdb.sql.calcite;

import java.util.Arrays;

/**
 * Distinct stored values, each numbered in the order it was first added: the groups of a GROUP BY on the value
 * and the sets of a COUNT(DISTINCT), keyed by the bytes themselves (open addressing, no wrapper object per
 * lookup). Equal SQL values must be equal bytes: callers pass canonical forms ({@link KvAggregateSource}).
 */
final class StoredValueTable {

    private static final int INITIAL_SLOTS = 16;

    /** Slot to id + 1 (0: empty). */
    private int[] slots = new int[INITIAL_SLOTS];
    private int[] hashes = new int[INITIAL_SLOTS];
    private byte[][] values = new byte[INITIAL_SLOTS / 2][];
    private int size;

    int size() {
        return size;
    }

    /** The value numbered {@code id}. */
    byte[] value(int id) {
        return values[id];
    }

    /** The number of {@code value}: its existing one, or the next one (then {@link #size} grows). */
    int idOf(byte[] value) {
        int hash = hash(value);
        int mask = slots.length - 1;
        for (int i = hash & mask; ; i = (i + 1) & mask) {
            int slot = slots[i];
            if (slot == 0) {
                return add(i, hash, value);
            }
            if (hashes[i] == hash && Arrays.equals(values[slot - 1], value)) {
                return slot - 1;
            }
        }
    }

    private int add(int at, int hash, byte[] value) {
        int id = size++;
        if (id == values.length) {
            values = Arrays.copyOf(values, values.length * 2);
        }
        values[id] = value;
        slots[at] = id + 1;
        hashes[at] = hash;
        if (size * 2 > slots.length) {
            rehash(slots.length * 2);
        }
        return id;
    }

    private void rehash(int capacity) {
        int[] oldSlots = slots;
        int[] oldHashes = hashes;
        slots = new int[capacity];
        hashes = new int[capacity];
        int mask = capacity - 1;
        for (int j = 0; j < oldSlots.length; j++) {
            if (oldSlots[j] != 0) {
                int i = oldHashes[j] & mask;
                while (slots[i] != 0) {
                    i = (i + 1) & mask;
                }
                slots[i] = oldSlots[j];
                hashes[i] = oldHashes[j];
            }
        }
    }

    private static int hash(byte[] value) {
        int h = Arrays.hashCode(value);
        return h ^ (h >>> 16) * 0x45d9f3b;
    }
}
