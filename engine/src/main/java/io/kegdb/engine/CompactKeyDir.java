package io.kegdb.engine;

import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.StampedLock;

/**
 * A compact {@link KeyDir}: about 42 bytes per 8-byte key at 10M keys, hashed point lookups, ordered cursors.
 *
 * <p>Three parts share one entry per key:
 * <ul>
 *   <li>{@link KeyArena}: the entries {@code [key length + location][key]} packed in 1 MiB pages
 *       (16 bytes for an 8-byte key);</li>
 *   <li>{@link KeyHashIndex}: open addressing over {@code long} slots (hash tag + entry reference) for
 *       {@link #get}, {@link #put} of an existing key, {@link #remove} and {@link #replace}
 *       (10.7 to 21 bytes per key, 13.4 at 10M keys); a lookup costs two cache misses (slot, entry), and
 *       none for the next key of an ascending load, which the order index knows to be absent;</li>
 *   <li>{@link KeyOrderIndex}: a B+tree of entry references with 4-byte partial keys for cursors and
 *       ordered inserts (about 9.3 bytes per key when bulk-built, 12 after random inserts).</li>
 * </ul>
 * Overwrites change the location inside the entry and touch neither index.
 *
 * <p>Concurrency: writers are serialized by the caller and take the write side of a {@link StampedLock}
 * for the few hundred nanoseconds each mutation lasts. Readers run optimistically without locking and
 * retry when the stamp shows a write overlapped them (reading a half-written structure may even throw;
 * that too only means "retry"); after a few failed tries they take the read lock, which waits for at most
 * one mutation. The long steps, growing the hash table and rebuilding, are prepared outside the lock from
 * the unchanged current structure and published with one short locked swap, so they stall only the writer.
 *
 * <p>Memory reuse: a removed entry's space is reused by the next entry of the same size. When the space no
 * longer used by live keys (unreused arena space plus empty leaf slots) exceeds the space of the live keys,
 * the next removal rebuilds all three parts in O(n) ({@link Loader}), so churn cannot grow memory without
 * bound.
 *
 * <p>Restart: {@link #loader(long)} builds a directory from keys in ascending order in O(n).
 */
final class CompactKeyDir implements KeyDir {

    private static final int OPTIMISTIC_TRIES = 3;
    /**
     * Keys a cursor copies per optimistic read at most: each batch re-finds its place in O(log n), and a larger
     * block spreads that search over more keys (256 keys of 16 bytes are 4 KiB of packed keys).
     */
    private static final int CURSOR_BATCH = 256;
    /** A cursor's first batch: scans under a small LIMIT copy no more keys than they are likely to use. */
    private static final int FIRST_CURSOR_BATCH = 8;
    private static final long MIN_WASTE_TO_REBUILD = 1L << 20;

    private final StampedLock lock = new StampedLock();
    // Replaced together (under the write lock) by a rebuild.
    private KeyArena arena;
    private KeyHashIndex hash;
    private KeyOrderIndex order;
    private volatile long size;
    /** Where {@link #prefetch} leaves what it read; never read. */
    @SuppressWarnings("unused")
    private long prefetched;
    /** Rebuilds done so far (writer state, read by tests). */
    private int rebuilds;

    CompactKeyDir() {
        this.arena = new KeyArena();
        this.hash = new KeyHashIndex(0);
        this.order = new KeyOrderIndex(arena);
    }

    private CompactKeyDir(KeyArena arena, KeyHashIndex hash, KeyOrderIndex order, long size) {
        this.arena = arena;
        this.hash = hash;
        this.order = order;
        this.size = size;
    }

    /**
     * Starts a bulk build from keys given in strictly ascending unsigned order; {@code expectedKeys} sizes
     * the hash index up front (an overestimate is trimmed when built, an underestimate grows it).
     */
    static Loader loader(long expectedKeys) {
        return new Loader(expectedKeys);
    }

    @Override
    public long get(byte[] key) {
        for (int attempt = 0; attempt < OPTIMISTIC_TRIES; attempt++) {
            long stamp = lock.tryOptimisticRead();
            if (stamp == 0) {
                Thread.onSpinWait();
                continue;
            }
            long location;
            try {
                location = locate(key);
            } catch (RuntimeException torn) {
                location = NONE;
            }
            if (lock.validate(stamp)) {
                return location;
            }
        }
        long stamp = lock.readLock();
        try {
            return locate(key);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    private long locate(byte[] key) {
        if (order.absentAboveLastInsert(key)) {
            return NONE; // the next key of an ascending load: no hashing, no probe, no cache miss
        }
        KeyArena a = arena;
        KeyHashIndex h = hash;
        int slot = h.find(a, key, KeyHashIndex.tag(KeyHashIndex.hash(key)));
        return slot < 0 ? NONE : a.location(h.ref(slot));
    }

    /**
     * Reads the home hash slot of each key in one tight loop, so that their cache misses (one per new key of
     * a large table) overlap instead of following one another inside the puts. In a 1000-key batch of new
     * keys this halved the time of the puts that follow (about 400 to 200 µs, in the batched inserts of
     * {@code io.kegdb.bench.jdbc.JdbcBenchmark}). Only the writer calls it.
     */
    @Override
    public void prefetch(List<byte[]> keys) {
        KeyHashIndex h = hash;
        long sum = 0;
        for (int i = 0; i < keys.size(); i++) {
            sum += h.homeSlot(KeyHashIndex.tag(KeyHashIndex.hash(keys.get(i))));
        }
        prefetched = sum; // a use of the loads, so that they are not optimized away
    }

    @Override
    public long put(byte[] key, long location) {
        checkKey(key);
        if (location >>> Location.BITS != 0) {
            throw new IllegalArgumentException("location " + location + " outside [0, 2^" + Location.BITS + ")");
        }
        int tag = KeyHashIndex.tag(KeyHashIndex.hash(key));
        // Only this thread writes, so reading unlocked is exact.
        int slot = order.absentAboveLastInsert(key) ? -1 : hash.find(arena, key, tag);
        if (slot >= 0) {
            int ref = hash.ref(slot);
            long stamp = lock.writeLock();
            try {
                long previous = arena.location(ref);
                arena.setLocation(ref, location);
                return previous;
            } finally {
                lock.unlockWrite(stamp);
            }
        }
        if (hash.full()) {
            KeyHashIndex grown = hash.grown();
            long stamp = lock.writeLock();
            hash = grown;
            lock.unlockWrite(stamp);
        }
        long stamp = lock.writeLock();
        try {
            int ref = arena.allocate(key, location);
            hash.insert(tag, ref);
            order.insert(key, ref);
            size++;
        } finally {
            lock.unlockWrite(stamp);
        }
        return NONE;
    }

    private static void checkKey(byte[] key) {
        if (key.length > KeyArena.MAX_KEY_LENGTH) {
            throw new IllegalArgumentException(
                    "key of " + key.length + " bytes exceeds the keydir limit of " + KeyArena.MAX_KEY_LENGTH);
        }
    }

    @Override
    public long remove(byte[] key) {
        int tag = KeyHashIndex.tag(KeyHashIndex.hash(key));
        int slot = hash.find(arena, key, tag);
        if (slot < 0) {
            return NONE;
        }
        long previous;
        long stamp = lock.writeLock();
        try {
            int ref = hash.ref(slot);
            previous = arena.location(ref);
            hash.removeSlot(slot);
            order.remove(key);
            arena.free(ref);
            size--;
        } finally {
            lock.unlockWrite(stamp);
        }
        if (wasteful()) {
            rebuild();
        }
        return previous;
    }

    @Override
    public boolean replace(byte[] key, long expected, long update) {
        if (update < 0) {
            throw new IllegalArgumentException("location " + update + " is negative");
        }
        int slot = hash.find(arena, key, KeyHashIndex.tag(KeyHashIndex.hash(key)));
        if (slot < 0) {
            return false;
        }
        int ref = hash.ref(slot);
        if (arena.location(ref) != expected) {
            return false;
        }
        long stamp = lock.writeLock();
        try {
            arena.setLocation(ref, update);
        } finally {
            lock.unlockWrite(stamp);
        }
        return true;
    }

    @Override
    public long size() {
        return size;
    }

    @Override
    public long memoryBytes() {
        long stamp = lock.readLock();
        try {
            return 64 + arena.memoryBytes() + hash.memoryBytes() + order.memoryBytes();
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** Whether unused space outweighs the live keys (called by the writer only). */
    private boolean wasteful() {
        long waste = arena.wastedBytes() + 8 * order.unusedSlots();
        long live = arena.liveBytes() + 8 * size;
        return waste > MIN_WASTE_TO_REBUILD && waste > live;
    }

    /** Rebuilds all parts compactly from the current ones, then swaps them in (called by the writer only). */
    private void rebuild() {
        Loader loader = new Loader(size);
        KeyArena a = arena;
        byte[][] keys = new byte[KeyOrderIndex.LEAF_CAPACITY][];
        long[] locations = new long[KeyOrderIndex.LEAF_CAPACITY];
        for (KeyOrderIndex.Leaf leaf = order.firstLeaf(); leaf != null; leaf = leaf.next) {
            // Read a leaf's entries in one tight loop first: they are scattered over the arena, and
            // independent reads let the CPU overlap their cache misses.
            int n = leaf.count;
            for (int i = 0; i < n; i++) {
                int ref = leaf.ref(i);
                keys[i] = a.key(ref);
                locations[i] = a.location(ref);
            }
            for (int i = 0; i < n; i++) {
                loader.add(keys[i], locations[i]);
            }
        }
        CompactKeyDir built = loader.build();
        long stamp = lock.writeLock();
        arena = built.arena;
        hash = built.hash;
        order = built.order;
        lock.unlockWrite(stamp);
        rebuilds++;
    }

    int rebuilds() {
        return rebuilds;
    }

    @Override
    public Cursor cursor(byte[] fromInclusive, byte[] toExclusive, boolean descending) {
        byte[] from = fromInclusive == null ? null : fromInclusive.clone();
        byte[] to = toExclusive == null ? null : toExclusive.clone();
        return new BatchCursor(from, to, descending);
    }

    /**
     * Counts without copying a key: the positions of both bounds in the ordered index, and the leaf sizes in
     * between (one optimistic read, the read lock if writes keep tearing it).
     */
    @Override
    public long count(byte[] fromInclusive, byte[] toExclusive) {
        if (fromInclusive != null && toExclusive != null && Arrays.compareUnsigned(fromInclusive, toExclusive) >= 0) {
            return 0;
        }
        for (int attempt = 0; attempt < OPTIMISTIC_TRIES; attempt++) {
            long stamp = lock.tryOptimisticRead();
            if (stamp == 0) {
                Thread.onSpinWait();
                continue;
            }
            long n;
            try {
                n = countIn(order, fromInclusive, toExclusive, stamp);
            } catch (RuntimeException torn) {
                n = -1;
            }
            if (n >= 0 && lock.validate(stamp)) {
                return n;
            }
        }
        long stamp = lock.readLock();
        try {
            return countIn(order, fromInclusive, toExclusive, 0);
        } finally {
            lock.unlockRead(stamp);
        }
    }

    /** Keys in [from, to) of {@code tree}; -1 if the optimistic {@code stamp} (0 under the read lock) went stale. */
    private long countIn(KeyOrderIndex tree, byte[] from, byte[] to, long stamp) {
        KeyOrderIndex.Leaf leaf = from == null ? tree.firstLeaf() : tree.leafFor(from);
        int i = from == null ? 0 : insertionPoint(tree, leaf, from);
        KeyOrderIndex.Leaf endLeaf = to == null ? null : tree.leafFor(to);
        int endIndex = to == null ? 0 : insertionPoint(tree, endLeaf, to);
        long n = 0;
        int hops = 0;
        while (leaf != null) {
            if (leaf == endLeaf) {
                return n + Math.max(0, endIndex - i);
            }
            n += Math.max(0, leaf.count - i);
            i = 0;
            leaf = leaf.next;
            if (++hops % 1024 == 0 && stamp != 0 && !lock.validate(stamp)) {
                return -1; // a long walk: make sure it is not a torn loop
            }
        }
        return n;
    }

    /** The index of the first key at or above {@code key} in {@code leaf}. */
    private static int insertionPoint(KeyOrderIndex tree, KeyOrderIndex.Leaf leaf, byte[] key) {
        int s = tree.search(leaf, key);
        return s >= 0 ? s : -(s + 1);
    }

    /**
     * Copies up to {@link #CURSOR_BATCH} entries per optimistic read, re-finding its place after the last
     * key it returned (O(log n)) for each batch, so writes between batches are seen or not, never torn. The
     * batch's keys are packed into one array, so a step allocates nothing.
     */
    private final class BatchCursor implements Cursor {
        private final byte[] from;
        private final byte[] to;
        private final boolean descending;
        /** The batch's keys, back to back: key {@code i} is {@code keyBytes[keyEnds[i - 1], keyEnds[i])}. */
        private byte[] keyBytes = new byte[CURSOR_BATCH * 16];
        private final int[] keyEnds = new int[CURSOR_BATCH];
        private final long[] locations = new long[CURSOR_BATCH];
        private int count;
        /** Keys the next batch collects: doubles from FIRST_CURSOR_BATCH up to CURSOR_BATCH. */
        private int batch = FIRST_CURSOR_BATCH;
        private int position = -1;
        private boolean exhausted;
        /** Whether the batch being collected reached the end of the range. */
        private boolean reachedEnd;
        private byte[] last;

        BatchCursor(byte[] from, byte[] to, boolean descending) {
            this.from = from;
            this.to = to;
            this.descending = descending;
            exhausted = from != null && to != null && Arrays.compareUnsigned(from, to) >= 0;
        }

        @Override
        public boolean next() {
            if (position + 1 < count) {
                position++;
                return true;
            }
            if (exhausted) {
                count = 0;
                position = -1;
                return false;
            }
            fill();
            position = 0;
            if (count == 0) {
                exhausted = true;
                position = -1;
                return false;
            }
            return true;
        }

        private void fill() {
            for (int attempt = 0; attempt < OPTIMISTIC_TRIES; attempt++) {
                long stamp = lock.tryOptimisticRead();
                if (stamp == 0) {
                    Thread.onSpinWait();
                    continue;
                }
                boolean collected;
                try {
                    collected = collect(stamp);
                } catch (RuntimeException torn) {
                    collected = false;
                }
                if (collected && lock.validate(stamp)) {
                    accept();
                    return;
                }
            }
            long stamp = lock.readLock();
            try {
                collect(0);
                accept();
            } finally {
                lock.unlockRead(stamp);
            }
        }

        private void accept() {
            exhausted = reachedEnd;
            if (count > 0) {
                last = Arrays.copyOfRange(keyBytes, keyStart(count - 1), keyEnds[count - 1]);
            }
            batch = Math.min(batch * 2, CURSOR_BATCH);
        }

        /** Fills the batch; false if the optimistic {@code stamp} (0 under the read lock) went stale. */
        private boolean collect(long stamp) {
            count = 0;
            reachedEnd = false;
            KeyArena a = arena;
            KeyOrderIndex tree = order;
            return descending ? collectDescending(stamp, a, tree) : collectAscending(stamp, a, tree);
        }

        private boolean collectAscending(long stamp, KeyArena a, KeyOrderIndex tree) {
            KeyOrderIndex.Leaf leaf;
            int i;
            byte[] start = last != null ? last : from;
            if (start == null) {
                leaf = tree.firstLeaf();
                i = 0;
            } else {
                leaf = tree.leafFor(start);
                int s = tree.search(leaf, start);
                i = s >= 0 ? (last != null ? s + 1 : s) : -(s + 1);
            }
            int hops = 0;
            while (count < batch) {
                if (i >= leaf.count) {
                    leaf = leaf.next;
                    i = 0;
                    if (leaf == null) {
                        reachedEnd = true;
                        return true;
                    }
                    if (++hops % 1024 == 0 && stamp != 0 && !lock.validate(stamp)) {
                        return false; // a long walk over empty leaves: make sure it is not a torn loop
                    }
                    continue;
                }
                int ref = leaf.ref(i);
                if (to != null && a.compare(ref, to, 0) >= 0) {
                    reachedEnd = true;
                    return true;
                }
                add(a, ref);
                i++;
            }
            return true;
        }

        private boolean collectDescending(long stamp, KeyArena a, KeyOrderIndex tree) {
            KeyOrderIndex.Leaf leaf;
            int i;
            byte[] bound = last != null ? last : to;
            if (bound == null) {
                leaf = tree.lastLeaf();
                i = leaf.count - 1;
            } else {
                leaf = tree.leafFor(bound);
                int s = tree.search(leaf, bound);
                i = (s >= 0 ? s : -(s + 1)) - 1;
            }
            int hops = 0;
            while (count < batch) {
                if (i < 0) {
                    leaf = leaf.prev;
                    if (leaf == null) {
                        reachedEnd = true;
                        return true;
                    }
                    i = leaf.count - 1;
                    if (++hops % 1024 == 0 && stamp != 0 && !lock.validate(stamp)) {
                        return false;
                    }
                    continue;
                }
                int ref = leaf.ref(i);
                if (from != null && a.compare(ref, from, 0) < 0) {
                    reachedEnd = true;
                    return true;
                }
                add(a, ref);
                i--;
            }
            return true;
        }

        /** Appends the entry {@code ref} of {@code a} to the batch. */
        private void add(KeyArena a, int ref) {
            int at = count == 0 ? 0 : keyEnds[count - 1];
            int len = a.keyLength(ref);
            if (at + len > keyBytes.length) {
                keyBytes = Arrays.copyOf(keyBytes, Math.max(keyBytes.length * 2, at + len));
            }
            a.copyKey(ref, keyBytes, at);
            keyEnds[count] = at + len;
            locations[count] = a.location(ref);
            count++;
        }

        private int keyStart(int i) {
            return i == 0 ? 0 : keyEnds[i - 1];
        }

        private void requireCurrent() {
            if (position < 0) {
                throw new IllegalStateException("no current entry: call next() first");
            }
        }

        @Override
        public byte[] key() {
            requireCurrent();
            return Arrays.copyOfRange(keyBytes, keyStart(position), keyEnds[position]);
        }

        @Override
        public byte[] keyArray() {
            requireCurrent();
            return keyBytes;
        }

        @Override
        public int keyOffset() {
            requireCurrent();
            return keyStart(position);
        }

        @Override
        public int keyLength() {
            requireCurrent();
            return keyEnds[position] - keyStart(position);
        }

        @Override
        public long location() {
            if (position < 0) {
                throw new IllegalStateException("no current entry: call next() first");
            }
            return locations[position];
        }
    }

    /**
     * Builds a directory from entries in strictly ascending unsigned key order (for example the k-way merge
     * of hint files on restart) in O(n): the arena and leaves are filled in order and the inner nodes are
     * built bottom-up, with no search.
     */
    static final class Loader {
        private final KeyArena arena = new KeyArena();
        private KeyHashIndex hash;
        private final KeyOrderIndex.Builder order = new KeyOrderIndex.Builder(arena);
        /** The entry added last (0 before the first). */
        private int previous;
        private long count;
        private boolean built;
        private final long[] pending = new long[256];
        private int pendingCount;

        private Loader(long expectedKeys) {
            if (expectedKeys < 0) {
                throw new IllegalArgumentException("expected key count " + expectedKeys + " is negative");
            }
            hash = new KeyHashIndex(expectedKeys);
        }

        /** Adds the next key, which must be above the previous one; the key array is not kept. */
        Loader add(byte[] key, long location) {
            if (built) {
                throw new IllegalStateException("loader already built");
            }
            checkKey(key);
            if (location >>> Location.BITS != 0) {
                throw new IllegalArgumentException("location " + location + " of key #" + count
                        + " outside [0, 2^" + Location.BITS + ")");
            }
            if (previous != 0 && arena.compare(previous, key, 0) >= 0) {
                throw new IllegalArgumentException("key #" + count + " (" + key.length
                        + " bytes) is not above the previous key: keys must be strictly ascending");
            }
            int ref = arena.allocate(key, location);
            previous = ref;
            pending[pendingCount++] = ((long) KeyHashIndex.tag(KeyHashIndex.hash(key)) << 32) | (ref & 0xFFFFFFFFL);
            if (pendingCount == pending.length) {
                flushPending();
            }
            order.add(ref);
            count++;
            return this;
        }

        /**
         * Inserts the buffered hash slots in one tight loop: the inserts are independent, so the CPU overlaps
         * their cache misses instead of taking them one key at a time.
         */
        private void flushPending() {
            for (int i = 0; i < pendingCount; i++) {
                if (hash.full()) {
                    hash = hash.grown();
                }
                long v = pending[i];
                hash.insert((int) (v >>> 32), (int) v);
            }
            pendingCount = 0;
        }

        CompactKeyDir build() {
            if (built) {
                throw new IllegalStateException("loader already built");
            }
            built = true;
            flushPending();
            // The expected count may have been an overestimate (hint files repeat overwritten keys).
            hash = hash.trimmed();
            return new CompactKeyDir(arena, hash, order.build(), count);
        }
    }
}
