package io.kegdb.engine;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A B+tree keeping {@link KeyArena} references in unsigned key order.
 *
 * <p>A leaf holds up to 128 references and, beside each, a 4-byte "partial key": the key bytes that follow
 * the prefix every key in the leaf shares (kept once per leaf). Searching a leaf compares partial keys and
 * reads a key from the arena only on a tie, so most inserts touch no key outside the tree. Leaves are
 * doubly linked for cursors. Inner nodes hold copies of the shortest separators between their children,
 * with partial keys the same way. A full leaf splits in half, or next to the insertion point when keys
 * arrive in order, so sequential loads leave full leaves. Leaves are not merged when they shrink: removal
 * leaves them sparse (or empty) until the owner rebuilds the tree; {@link #unusedSlots()} says how much
 * that wastes. About 8 bytes per key in full leaves, 9.3 when bulk-built, 11.6 at the typical fill
 * after random inserts.
 *
 * <p>Not thread-safe: the owner serializes writers and validates racing readers.
 */
final class KeyOrderIndex {

    static final int LEAF_CAPACITY = 128;
    static final int INNER_CAPACITY = 128;
    /** Leaves and inner nodes built by {@link Builder} keep this much room for later inserts. */
    private static final int BUILD_LEAF_FILL = LEAF_CAPACITY * 7 / 8;
    private static final int BUILD_INNER_FILL = INNER_CAPACITY * 7 / 8;
    private static final byte[] EMPTY = new byte[0];
    // Object (48 with compressed references) and array sizes, without the prefix and separator arrays.
    private static final long LEAF_BYTES = 48 + 16 + 8L * LEAF_CAPACITY;
    private static final long INNER_BYTES = 48 + 2 * (16 + 4L * (INNER_CAPACITY - 1)) + 16 + 4L * INNER_CAPACITY;

    static final class Leaf {
        /** Per entry: partial key (high 32 bits) and arena reference (low 32 bits), in key order. */
        final long[] slots = new long[LEAF_CAPACITY];
        int count;
        /** Bytes every key in this leaf starts with. */
        byte[] prefix = EMPTY;
        /** The prefix's length and first 8 bytes, so that most searches need not read the prefix array. */
        int prefixLength;
        long prefixHead;
        Leaf next;
        Leaf prev;

        int ref(int i) {
            return (int) slots[i];
        }
    }

    static final class Inner {
        /** seps[i] separates children[i] (keys below it) from children[i + 1] (keys at or above it). */
        final byte[][] seps = new byte[INNER_CAPACITY - 1][];
        /** Partial keys of the separators after {@link #prefix}, so a search reads few separator arrays. */
        final int[] partials = new int[INNER_CAPACITY - 1];
        /** Bytes every separator in this node starts with. */
        byte[] prefix = EMPTY;
        int prefixLength;
        long prefixHead;
        final Object[] children = new Object[INNER_CAPACITY];
        int count;
    }

    private final KeyArena arena;
    /**
     * The leaf the last insert went to, and the separator its keys stay below (null: none). Only a split of
     * that leaf changes its range, and splits go through the full path, which resets this.
     */
    private Leaf hintLeaf;
    private byte[] hintUpper;
    /** The arena reference of the last insert's key (it may since have been removed and reused). */
    private int lastRef;
    private Object root;
    private int height;
    private Leaf first;
    private Leaf last;
    private long leaves;
    private long inners;
    /** Heap bytes of separator and prefix arrays. */
    private long arrayBytes;
    private long keys;

    KeyOrderIndex(KeyArena arena) {
        this.arena = arena;
        Leaf leaf = new Leaf();
        root = first = last = leaf;
        leaves = 1;
    }

    private static long arrayBytes(byte[] a) {
        return a == EMPTY ? 0 : 16 + ((a.length + 7) & ~7);
    }

    Leaf firstLeaf() {
        return first;
    }

    Leaf lastLeaf() {
        return last;
    }

    /** Leaf slots that hold no key. */
    long unusedSlots() {
        return leaves * LEAF_CAPACITY - keys;
    }

    long memoryBytes() {
        return leaves * LEAF_BYTES + inners * INNER_BYTES + arrayBytes + 64;
    }

    /** The leaf whose key range contains {@code key}. */
    Leaf leafFor(byte[] key) {
        Object node = root;
        for (int level = height; level > 0; level--) {
            Inner in = (Inner) node;
            node = in.children[childIndex(in, key)];
        }
        return (Leaf) node;
    }

    /** The number of separators at or below {@code key}: the child whose range holds it. */
    private static int childIndex(Inner in, byte[] key) {
        int c = in.prefixLength;
        int n = in.count - 1;
        if (c > 0) {
            int cmp = comparePrefix(key, in.prefix, c, in.prefixHead);
            if (cmp < 0) {
                return 0;
            }
            if (cmp > 0) {
                return n;
            }
        }
        // As in a leaf: scan the partial keys, then binary-search the ties by their full separators.
        long kp = partial(key, c) & 0xFFFFFFFFL;
        int[] partials = in.partials;
        byte[][] seps = in.seps;
        int lo = 0;
        while (lo < n && (partials[lo] & 0xFFFFFFFFL) < kp) {
            lo++;
        }
        int hi = lo;
        while (hi < n && (partials[hi] & 0xFFFFFFFFL) == kp) {
            hi++;
        }
        hi--;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            byte[] sep = seps[mid];
            if (Arrays.compareUnsigned(sep, c, sep.length, key, c, key.length) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid - 1;
            }
        }
        return lo;
    }

    /**
     * Sign of the key's start against a {@code c}-byte prefix whose first 8 bytes are {@code head}; a key that
     * is a proper prefix of it is below it.
     */
    private static int comparePrefix(byte[] key, byte[] prefix, int c, long head) {
        if (c > 8) {
            return Arrays.compareUnsigned(key, 0, Math.min(c, key.length), prefix, 0, c);
        }
        int cmp = Long.compareUnsigned(head(key, Math.min(c, key.length)), head);
        return cmp == 0 && key.length < c ? -1 : cmp;
    }

    /** The first {@code n} (at most 8) bytes of {@code b}, big-endian, zero-padded to 8 bytes. */
    private static long head(byte[] b, int n) {
        long h = 0;
        for (int i = 0; i < 8; i++) {
            h = (h << 8) | (i < n ? b[i] & 0xFF : 0);
        }
        return h;
    }

    /** Up to 4 bytes of {@code key} from {@code from} on, big-endian, zero-padded. */
    static int partial(byte[] key, int from) {
        int p = 0;
        for (int i = 0; i < 4; i++) {
            int at = from + i;
            p = (p << 8) | (at < key.length ? key[at] & 0xFF : 0);
        }
        return p;
    }

    private static long slot(int partial, int ref) {
        return ((long) partial << 32) | (ref & 0xFFFFFFFFL);
    }

    /** Index of {@code key} in the leaf, or {@code -(insertion point + 1)}. */
    int search(Leaf leaf, byte[] key) {
        int c = leaf.prefixLength;
        int n = leaf.count;
        if (c > 0) {
            int cmp = comparePrefix(key, leaf.prefix, c, leaf.prefixHead);
            if (cmp < 0) {
                return -1;
            }
            if (cmp > 0) {
                return -(n + 1);
            }
        }
        // Scan the partial keys in order (the hardware prefetcher streams the array, where a binary search
        // would take one dependent cache miss per step), then binary-search the ties by their full keys.
        long kp = partial(key, c) & 0xFFFFFFFFL;
        long[] slots = leaf.slots;
        int lo = 0;
        while (lo < n && slots[lo] >>> 32 < kp) {
            lo++;
        }
        int hi = lo;
        while (hi < n && slots[hi] >>> 32 == kp) {
            hi++;
        }
        hi--;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            int cmp = arena.compare((int) slots[mid], key, c);
            if (cmp < 0) {
                lo = mid + 1;
            } else if (cmp > 0) {
                hi = mid - 1;
            } else {
                return mid;
            }
        }
        return -(lo + 1);
    }

    /**
     * Whether {@code key} is certainly absent because it sorts above every key of the leaf the last insert
     * went to and below that leaf's upper bound: true for each next key of an ascending load, found without
     * a descent or a hash probe. False says nothing. Readers racing the writer must validate the answer.
     */
    boolean absentAboveLastInsert(byte[] key) {
        Leaf hinted = hintLeaf;
        if (hinted == null) {
            return false;
        }
        int n = hinted.count;
        byte[] upper = hintUpper;
        return n > 0 && arena.compare(hinted.ref(n - 1), key, 0) < 0
                && (upper == null || Arrays.compareUnsigned(key, upper) < 0);
    }

    /** Adds the entry {@code ref} whose key ({@code key}) is known to be absent. */
    void insert(byte[] key, int ref) {
        Leaf hinted = hintLeaf;
        if (hinted != null && hinted.count < LEAF_CAPACITY && absentAboveLastInsert(key)) {
            // Just above the last insert and still inside that leaf's key range: no descent, no leaf search.
            insertIntoLeaf(hinted, key, ref, true);
            keys++;
            lastRef = ref;
            return;
        }
        Inner[] path = new Inner[height];
        int[] pathIndex = new int[height];
        byte[] upper = null;
        Object node = root;
        for (int level = 0; level < height; level++) {
            Inner in = (Inner) node;
            int i = childIndex(in, key);
            path[level] = in;
            pathIndex[level] = i;
            if (i < in.count - 1) {
                upper = in.seps[i];
            }
            node = in.children[i];
        }
        Leaf leaf = (Leaf) node;
        if (leaf.count == LEAF_CAPACITY) {
            // Keys arriving in order would leave every leaf half full after an even split; split next to the
            // insertion point instead when the key goes at the leaf's end or start, or right after the
            // previous insert: an ascending run into a range with keys above it in the same leaf (a table
            // loaded after tables with higher ids). The key then ends its leaf, and the rest of the run
            // takes the append path above.
            int pos = -(search(leaf, key) + 1);
            boolean afterPrevious = pos > 0 && pos < LEAF_CAPACITY && leaf.ref(pos - 1) == lastRef;
            int splitAt = pos == LEAF_CAPACITY ? LEAF_CAPACITY - 1
                    : pos == 0 ? 1
                    : afterPrevious ? pos
                    : LEAF_CAPACITY / 2;
            Leaf right = splitLeaf(leaf, splitAt);
            byte[] sep = shortestSeparator(afterPrevious ? ref : leaf.ref(leaf.count - 1), right.ref(0));
            insertIntoParent(path, pathIndex, height - 1, sep, right);
            if (Arrays.compareUnsigned(key, sep) >= 0) {
                leaf = right;
            } else {
                upper = sep;
            }
        }
        insertIntoLeaf(leaf, key, ref, false);
        keys++;
        hintLeaf = leaf;
        hintUpper = upper;
        lastRef = ref;
    }

    /** Adds the entry to {@code leaf}: at its end when {@code append} (the key is above all others). */
    private void insertIntoLeaf(Leaf leaf, byte[] key, int ref, boolean append) {
        int n = leaf.count;
        if (n == 0) {
            setPrefix(leaf, key.clone());
        } else {
            byte[] prefix = leaf.prefix;
            int m = Arrays.mismatch(key, 0, Math.min(key.length, prefix.length), prefix, 0, prefix.length);
            if (m >= 0) {
                // The key leaves the shared prefix: shorten it and recompute the partial keys.
                setPrefix(leaf, Arrays.copyOf(prefix, m));
                repartition(leaf);
            }
        }
        int s = append ? -(n + 1) : search(leaf, key);
        if (s >= 0) {
            throw new IllegalStateException("key already in the order index");
        }
        int pos = -(s + 1);
        System.arraycopy(leaf.slots, pos, leaf.slots, pos + 1, n - pos);
        leaf.slots[pos] = slot(partial(key, leaf.prefix.length), ref);
        leaf.count = n + 1;
    }

    /** Recomputes a leaf's partial keys after its prefix changed. */
    private void repartition(Leaf leaf) {
        int c = leaf.prefix.length;
        for (int i = 0; i < leaf.count; i++) {
            int ref = leaf.ref(i);
            leaf.slots[i] = slot(arena.partial(ref, c), ref);
        }
    }

    private void setPrefix(Leaf leaf, byte[] prefix) {
        arrayBytes += arrayBytes(prefix) - arrayBytes(leaf.prefix);
        leaf.prefix = prefix;
        leaf.prefixLength = prefix.length;
        leaf.prefixHead = head(prefix, Math.min(8, prefix.length));
    }

    /** Moves the entries from {@code mid} on to a new right sibling and returns it. */
    private Leaf splitLeaf(Leaf leaf, int mid) {
        Leaf right = new Leaf();
        int moved = leaf.count - mid;
        System.arraycopy(leaf.slots, mid, right.slots, 0, moved);
        right.count = moved;
        setPrefix(right, leaf.prefix);
        leaf.count = mid;
        tightenPrefix(leaf);
        tightenPrefix(right);
        right.next = leaf.next;
        right.prev = leaf;
        if (leaf.next != null) {
            leaf.next.prev = right;
        } else {
            last = right;
        }
        leaf.next = right;
        leaves++;
        return right;
    }

    /** Lengthens a leaf's shared prefix to what its keys now share, for sharper partial keys. */
    private void tightenPrefix(Leaf leaf) {
        int c = arena.commonPrefix(leaf.ref(0), leaf.ref(leaf.count - 1));
        if (c > leaf.prefix.length) {
            setPrefix(leaf, Arrays.copyOf(arena.key(leaf.ref(0)), c));
            repartition(leaf);
        }
    }

    /** The shortest key above the key of {@code below} and at most the key of {@code above}. */
    private byte[] shortestSeparator(int below, int above) {
        byte[] upper = arena.key(above);
        int c = arena.commonPrefix(below, above);
        return c + 1 >= upper.length ? upper : Arrays.copyOf(upper, c + 1);
    }

    private void insertIntoParent(Inner[] path, int[] pathIndex, int level, byte[] sep, Object right) {
        arrayBytes += arrayBytes(sep);
        while (level >= 0) {
            Inner in = path[level];
            int at = pathIndex[level];
            if (in.count < INNER_CAPACITY) {
                insertAt(in, at, sep, right);
                return;
            }
            // Split the full inner node; the middle separator moves up.
            Inner upper = new Inner();
            inners++;
            int mid = INNER_CAPACITY / 2;
            byte[] up = in.seps[mid - 1];
            int movedChildren = in.count - mid;
            System.arraycopy(in.children, mid, upper.children, 0, movedChildren);
            System.arraycopy(in.seps, mid, upper.seps, 0, movedChildren - 1);
            System.arraycopy(in.partials, mid, upper.partials, 0, movedChildren - 1);
            Arrays.fill(in.children, mid, in.count, null);
            Arrays.fill(in.seps, mid - 1, in.count - 1, null);
            upper.count = movedChildren;
            setPrefix(upper, in.prefix);
            in.count = mid;
            tightenPrefix(in);
            tightenPrefix(upper);
            if (at < mid) {
                insertAt(in, at, sep, right);
            } else {
                insertAt(upper, at - mid, sep, right);
            }
            sep = up;
            right = upper;
            level--;
        }
        Inner newRoot = new Inner();
        inners++;
        newRoot.children[0] = root;
        newRoot.count = 1;
        insertAt(newRoot, 0, sep, right);
        root = newRoot;
        height++;
    }

    /** Puts {@code sep} and {@code right} just after child {@code at}. */
    private void insertAt(Inner in, int at, byte[] sep, Object right) {
        int n = in.count;
        if (n == 1) {
            setPrefix(in, sep);
        } else {
            byte[] prefix = in.prefix;
            int m = Arrays.mismatch(sep, 0, Math.min(sep.length, prefix.length), prefix, 0, prefix.length);
            if (m >= 0) {
                setPrefix(in, Arrays.copyOf(prefix, m));
                repartition(in);
            }
        }
        System.arraycopy(in.children, at + 1, in.children, at + 2, n - at - 1);
        System.arraycopy(in.seps, at, in.seps, at + 1, n - 1 - at);
        System.arraycopy(in.partials, at, in.partials, at + 1, n - 1 - at);
        in.children[at + 1] = right;
        in.seps[at] = sep;
        in.partials[at] = partial(sep, in.prefix.length);
        in.count = n + 1;
    }

    private static void repartition(Inner in) {
        int c = in.prefix.length;
        for (int i = 0; i < in.count - 1; i++) {
            in.partials[i] = partial(in.seps[i], c);
        }
    }

    private void tightenPrefix(Inner in) {
        byte[] firstSep = in.seps[0];
        byte[] lastSep = in.seps[in.count - 2];
        int m = Arrays.mismatch(firstSep, lastSep);
        int c = m < 0 ? firstSep.length : m;
        if (c > in.prefix.length) {
            setPrefix(in, Arrays.copyOf(firstSep, c));
            repartition(in);
        }
    }

    private void setPrefix(Inner in, byte[] prefix) {
        arrayBytes += arrayBytes(prefix) - arrayBytes(in.prefix);
        in.prefix = prefix;
        in.prefixLength = prefix.length;
        in.prefixHead = head(prefix, Math.min(8, prefix.length));
    }

    /** Removes the entry with {@code key}; returns whether it was present. */
    boolean remove(byte[] key) {
        Leaf leaf = leafFor(key);
        int i = search(leaf, key);
        if (i < 0) {
            return false;
        }
        int n = leaf.count;
        System.arraycopy(leaf.slots, i + 1, leaf.slots, i, n - i - 1);
        leaf.count = n - 1;
        keys--;
        return true;
    }

    /** Builds a tree from entries added in ascending key order, in O(n). */
    static final class Builder {
        private final KeyOrderIndex tree;
        private final List<Object> nodes = new ArrayList<>();
        private final List<byte[]> seps = new ArrayList<>();
        private Leaf current;

        Builder(KeyArena arena) {
            tree = new KeyOrderIndex(arena);
            current = tree.first;
        }

        /** Appends an entry whose key is above every key added before. */
        void add(int ref) {
            if (current.count == BUILD_LEAF_FILL) {
                finishLeaf(current);
                Leaf next = new Leaf();
                tree.leaves++;
                seps.add(tree.shortestSeparator(current.ref(current.count - 1), ref));
                nodes.add(current);
                current.next = next;
                next.prev = current;
                current = next;
            }
            current.slots[current.count++] = ref & 0xFFFFFFFFL;
            tree.keys++;
        }

        private void finishLeaf(Leaf leaf) {
            if (leaf.count == 0) {
                return;
            }
            int c = tree.arena.commonPrefix(leaf.ref(0), leaf.ref(leaf.count - 1));
            tree.setPrefix(leaf, c == 0 ? EMPTY : Arrays.copyOf(tree.arena.key(leaf.ref(0)), c));
            tree.repartition(leaf);
        }

        KeyOrderIndex build() {
            finishLeaf(current);
            nodes.add(current);
            tree.last = current;
            List<Object> level = nodes;
            List<byte[]> levelSeps = seps;
            for (byte[] s : seps) {
                tree.arrayBytes += arrayBytes(s);
            }
            while (level.size() > 1) {
                List<Object> up = new ArrayList<>();
                List<byte[]> upSeps = new ArrayList<>();
                int i = 0;
                while (i < level.size()) {
                    int take = Math.min(BUILD_INNER_FILL, level.size() - i);
                    if (level.size() - i - take == 1) {
                        take--; // never leave a single child for the last inner node
                    }
                    Inner in = new Inner();
                    tree.inners++;
                    for (int j = 0; j < take; j++) {
                        in.children[j] = level.get(i + j);
                        if (j > 0) {
                            in.seps[j - 1] = levelSeps.get(i + j - 1);
                        }
                    }
                    in.count = take;
                    tree.tightenPrefix(in);
                    repartition(in);
                    if (i > 0) {
                        upSeps.add(levelSeps.get(i - 1));
                    }
                    up.add(in);
                    i += take;
                }
                level = up;
                levelSeps = upSeps;
                tree.height++;
            }
            tree.root = level.get(0);
            return tree;
        }
    }
}
