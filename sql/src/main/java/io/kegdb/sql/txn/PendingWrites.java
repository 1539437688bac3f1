package io.kegdb.sql.txn;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * An overlay's buffered writes by key, kept in first-write order: parallel arrays in that order and an
 * open-addressing index (linear probing, at most half full) over them. No object per entry beyond the
 * caller's key, and no wrapper to hash a {@code byte[]}.
 *
 * <p>Why not a {@code LinkedHashMap}: besides the two objects per write, its code is shared with every
 * other map in the JVM. The JIT compiles a batch of INSERTs with that shared code inlined and its branch
 * and type profiles speculated on; consecutive keys rarely collide in it, so the first collision in a
 * batch (or a call from elsewhere with another key type) threw away the compiled insert path, which then
 * ran several times slower until it was compiled again. This table's probe loop sees collisions all the
 * time, since its hash mixes every bit.
 *
 * <p>Removal leaves a hole in the ordered arrays (compacted once holes outnumber entries) and shifts the
 * index's probe cluster back, so lookups never cross tombstones. Not thread-safe.
 */
final class PendingWrites {

    /** Receives each write in first-write order. */
    interface Visitor {
        void visit(byte[] key, Overlay.Pending write);
    }

    private static final int MIN_CAPACITY = 16;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[][] keys = new byte[MIN_CAPACITY][];
    private Overlay.Pending[] writes = new Overlay.Pending[MIN_CAPACITY];
    private int[] hashes = new int[MIN_CAPACITY];
    /** Positions used in the arrays, removed ones included. */
    private int end;
    private int size;
    /** Slot: position + 1, or 0 when empty. Twice the arrays' capacity, so at most half full. */
    private int[] index = new int[2 * MIN_CAPACITY];
    private byte[] lastKey;
    private int lastHash;

    int size() {
        return size;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /** The write buffered for {@code key}, or null. */
    Overlay.Pending get(byte[] key) {
        int slot = slotOf(key, hash(key));
        return slot < 0 ? null : writes[index[slot] - 1];
    }

    /** Buffers {@code write} for {@code key}: a key seen before keeps its place in the order. */
    void put(byte[] key, Overlay.Pending write) {
        int h = hash(key);
        int slot = slotOf(key, h);
        if (slot >= 0) {
            writes[index[slot] - 1] = write;
            return;
        }
        if (end == keys.length) {
            makeRoom();
        }
        keys[end] = key;
        writes[end] = write;
        hashes[end] = h;
        index[freeSlot(h)] = end + 1;
        end++;
        size++;
    }

    /** Forgets the write buffered for {@code key}, if any. */
    void remove(byte[] key) {
        int slot = slotOf(key, hash(key));
        if (slot >= 0) {
            int pos = index[slot] - 1;
            keys[pos] = null;
            writes[pos] = null;
            size--;
            removeSlot(slot);
        }
    }

    void clear() {
        if (keys.length > 1024) {
            // A large transaction's arrays are not kept for the small ones after it.
            keys = new byte[MIN_CAPACITY][];
            writes = new Overlay.Pending[MIN_CAPACITY];
            hashes = new int[MIN_CAPACITY];
            index = new int[2 * MIN_CAPACITY];
        } else {
            Arrays.fill(keys, 0, end, null);
            Arrays.fill(writes, 0, end, null);
            Arrays.fill(index, 0);
        }
        end = 0;
        size = 0;
        lastKey = null;
    }

    /** Feeds every write to {@code visitor} in first-write order. */
    void forEach(Visitor visitor) {
        for (int i = 0; i < end; i++) {
            byte[] key = keys[i];
            if (key != null) {
                visitor.visit(key, writes[i]);
            }
        }
    }

    /** The index slot holding {@code key} (whose hash is {@code h}), or -1. */
    private int slotOf(byte[] key, int h) {
        int[] idx = index;
        int mask = idx.length - 1;
        for (int slot = h & mask; idx[slot] != 0; slot = (slot + 1) & mask) {
            int pos = idx[slot] - 1;
            if (hashes[pos] == h && Arrays.equals(keys[pos], key)) {
                return slot;
            }
        }
        return -1;
    }

    private int freeSlot(int h) {
        int mask = index.length - 1;
        int slot = h & mask;
        while (index[slot] != 0) {
            slot = (slot + 1) & mask;
        }
        return slot;
    }

    /** Empties an index slot, moving later members of its probe cluster back so that lookups stay unbroken. */
    private void removeSlot(int slot) {
        int mask = index.length - 1;
        int hole = slot;
        for (int j = (slot + 1) & mask; index[j] != 0; j = (j + 1) & mask) {
            int home = hashes[index[j] - 1] & mask;
            // Move the entry at j into the hole unless its home lies cyclically in (hole, j].
            boolean homeBetween = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j);
            if (!homeBetween) {
                index[hole] = index[j];
                hole = j;
            }
        }
        index[hole] = 0;
    }

    /** Full arrays: squeezes out removed positions, or doubles when most are live; rebuilds the index. */
    private void makeRoom() {
        int capacity = size * 2 > keys.length ? keys.length * 2 : keys.length;
        byte[][] k = new byte[capacity][];
        Overlay.Pending[] w = new Overlay.Pending[capacity];
        int[] h = new int[capacity];
        int n = 0;
        for (int i = 0; i < end; i++) {
            if (keys[i] != null) {
                k[n] = keys[i];
                w[n] = writes[i];
                h[n] = hashes[i];
                n++;
            }
        }
        keys = k;
        writes = w;
        hashes = h;
        end = n;
        index = new int[2 * capacity];
        for (int i = 0; i < n; i++) {
            index[freeSlot(h[i])] = i + 1;
        }
    }

    /**
     * The hash of {@code key}: remembered for the last key, since an INSERT looks its key up and then adds
     * it, with the same array.
     */
    private int hash(byte[] key) {
        if (key != lastKey) {
            lastHash = mix(key);
            lastKey = key;
        }
        return lastHash;
    }

    /** Mixes every byte of the key into every bit of the hash, eight bytes at a time. */
    private static int mix(byte[] key) {
        int n = key.length;
        long h = n * 0x9E3779B97F4A7C15L;
        if (n >= 8) {
            for (int i = 0; i + 8 <= n; i += 8) {
                h = step(h, (long) LONGS.get(key, i));
            }
            if ((n & 7) != 0) {
                h = step(h, (long) LONGS.get(key, n - 8)); // the last bytes, in a word overlapping the one before
            }
        } else {
            long word = 0;
            for (int i = 0; i < n; i++) {
                word = word << 8 | (key[i] & 0xFF);
            }
            h = step(h, word);
        }
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        return (int) h;
    }

    private static long step(long h, long word) {
        return Long.rotateLeft(h ^ word * 0xC2B2AE3D27D4EB4FL, 31) * 0x9E3779B97F4A7C15L;
    }
}
