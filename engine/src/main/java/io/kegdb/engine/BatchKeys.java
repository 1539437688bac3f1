package io.kegdb.engine;

import java.util.Arrays;
import java.util.List;

/**
 * The keys of one batch's operations, each mapped to the latest operation on it, for the putIfAbsent check
 * of {@link Bitcask#write}. An open-addressing table of operation indexes sized once for the whole batch:
 * no key is copied or wrapped.
 */
final class BatchKeys {

    private final List<WriteBatch.Op> ops;
    /** Operation index + 1 per slot; 0 is empty. */
    private final int[] slots;
    private final int mask;

    BatchKeys(List<WriteBatch.Op> ops) {
        this.ops = ops;
        int capacity = Integer.highestOneBit(Math.max(4, ops.size() * 2 - 1)) << 1;
        this.slots = new int[capacity];
        this.mask = capacity - 1;
    }

    /**
     * Makes operation {@code index} the latest on its key; returns the index of the operation it replaces,
     * or -1 if none earlier had the key.
     */
    int record(int index) {
        byte[] key = ops.get(index).key();
        int i = (int) KeyHashIndex.hash(key) & mask;
        while (true) {
            int s = slots[i];
            if (s == 0) {
                slots[i] = index + 1;
                return -1;
            }
            if (Arrays.equals(ops.get(s - 1).key(), key)) {
                slots[i] = index + 1;
                return s - 1;
            }
            i = (i + 1) & mask;
        }
    }
}
