package io.kegdb.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Packed storage for keydir entries in 1 MiB {@code byte[]} pages.
 *
 * <p>An entry starts with one little-endian {@code long} holding the key length in its low byte and the
 * {@link Location} (below 2^56) in the other seven, followed by the key bytes, padded to a multiple of 4
 * bytes: 16 bytes for an 8-byte key. Keys of 128 bytes and more mark the low byte {@code 0x80} and put
 * their length in 3 bytes before the key. An entry is named by an {@code int} reference: its offset in
 * 4-byte units across all pages (so 32 bits address 16 GiB). Reference 0 is never handed out, so 0 can mean "no entry". Freed
 * entries go to a free list per size in units and are reused by entries of the same size; space that
 * stays unused that way is reclaimed when the owner rebuilds the arena.
 *
 * <p>Not thread-safe: the owner serializes writers and validates racing readers (readers may see torn
 * data and must then retry; any exception they hit that way is expected).
 */
final class KeyArena {

    static final int PAGE_SHIFT = 20;
    /** The reference space of one page. */
    static final int PAGE_BYTES = 1 << PAGE_SHIFT;
    /**
     * The bytes a full page actually holds: a little under 1 MiB, so that a page with its array header packs
     * whole G1 heap regions. A 1 MiB array fits only three to a 4 MiB region (a quarter of the region lost)
     * and needs two 1 MiB regions of its own as a humongous object.
     */
    static final int PAGE_ARRAY_BYTES = PAGE_BYTES - 64;
    /** Entries never span pages, so a key must fit in one with its header. */
    static final int MAX_KEY_LENGTH = PAGE_ARRAY_BYTES - 16;

    private static final int UNIT_SHIFT = 2;
    private static final int UNITS_PER_PAGE_SHIFT = PAGE_SHIFT - UNIT_SHIFT;
    private static final int UNIT_MASK = (1 << UNITS_PER_PAGE_SHIFT) - 1;
    private static final int MAX_PAGES = 1 << (32 - UNITS_PER_PAGE_SHIFT);
    private static final int FIRST_PAGE_BYTES = 4 << 10;
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private byte[][] pages = new byte[4][];
    private int tailPage;
    /** Next free byte in the tail page. */
    private int tailOffset;
    private IntStack[] freeBySize = new IntStack[0];
    private long freeBytes;
    /** Bytes of entries handed out, live or on a free list. */
    private long allocatedBytes;
    /** Bytes skipped at page ends because an entry did not fit. */
    private long tailWasteBytes;

    KeyArena() {
        pages[0] = new byte[FIRST_PAGE_BYTES];
        tailOffset = 1 << UNIT_SHIFT; // reference 0 stays unused
    }

    static int entryBytes(int keyLength) {
        int raw = 8 + (keyLength < 0x80 ? 0 : 3) + keyLength;
        return (raw + 3) & ~3;
    }

    /** Stores a new entry and returns its reference. */
    int allocate(byte[] key, long location) {
        int bytes = entryBytes(key.length);
        int units = bytes >>> UNIT_SHIFT;
        int ref;
        IntStack free = units < freeBySize.length ? freeBySize[units] : null;
        if (free != null && free.size() > 0) {
            ref = free.pop();
            freeBytes -= bytes;
        } else {
            ref = bump(bytes);
            allocatedBytes += bytes;
        }
        write(ref, key, location);
        return ref;
    }

    private int bump(int bytes) {
        byte[] page = pages[tailPage];
        if (tailOffset + bytes > page.length) {
            if (page.length < PAGE_ARRAY_BYTES && tailOffset + bytes <= PAGE_ARRAY_BYTES) {
                int grown = page.length;
                while (grown < tailOffset + bytes) {
                    grown <<= 1;
                }
                pages[tailPage] = Arrays.copyOf(page, Math.min(grown, PAGE_ARRAY_BYTES));
            } else {
                tailWasteBytes += page.length - tailOffset;
                if (tailPage + 1 >= MAX_PAGES) {
                    throw new IllegalStateException("key arena full: " + MAX_PAGES + " pages of " + PAGE_BYTES + " bytes");
                }
                if (tailPage + 1 == pages.length) {
                    pages = Arrays.copyOf(pages, pages.length * 2);
                }
                tailPage++;
                pages[tailPage] = new byte[PAGE_ARRAY_BYTES];
                tailOffset = 0;
            }
        }
        int ref = (tailPage << UNITS_PER_PAGE_SHIFT) | (tailOffset >>> UNIT_SHIFT);
        tailOffset += bytes;
        return ref;
    }

    private void write(int ref, byte[] key, long location) {
        byte[] page = pages[ref >>> UNITS_PER_PAGE_SHIFT];
        int off = offset(ref);
        int len = key.length;
        int keyOff;
        if (len < 0x80) {
            LONG.set(page, off, (location << 8) | len);
            keyOff = off + 8;
        } else {
            LONG.set(page, off, (location << 8) | 0x80);
            page[off + 8] = (byte) (len >>> 16);
            page[off + 9] = (byte) (len >>> 8);
            page[off + 10] = (byte) len;
            keyOff = off + 11;
        }
        System.arraycopy(key, 0, page, keyOff, len);
    }

    /** Puts the entry on the free list of its size; its reference must no longer be reachable. */
    void free(int ref) {
        int bytes = entryBytes(keyLength(ref));
        int units = bytes >>> UNIT_SHIFT;
        if (units >= freeBySize.length) {
            freeBySize = Arrays.copyOf(freeBySize, Math.max(units + 1, freeBySize.length * 2));
        }
        IntStack free = freeBySize[units];
        if (free == null) {
            free = freeBySize[units] = new IntStack();
        }
        free.push(ref);
        freeBytes += bytes;
    }

    private static int offset(int ref) {
        return (ref & UNIT_MASK) << UNIT_SHIFT;
    }

    private byte[] page(int ref) {
        return pages[ref >>> UNITS_PER_PAGE_SHIFT];
    }

    long location(int ref) {
        return (long) LONG.get(page(ref), offset(ref)) >>> 8;
    }

    /** One 8-byte store, so a racing reader sees the old or the new location (or retries). */
    void setLocation(int ref, long location) {
        byte[] page = page(ref);
        int off = offset(ref);
        LONG.set(page, off, (location << 8) | (page[off] & 0xFF));
    }

    int keyLength(int ref) {
        byte[] page = page(ref);
        int off = offset(ref);
        int b = page[off] & 0xFF;
        if (b < 0x80) {
            return b;
        }
        return ((page[off + 8] & 0xFF) << 16) | ((page[off + 9] & 0xFF) << 8) | (page[off + 10] & 0xFF);
    }

    private static int keyStart(byte[] page, int off) {
        return (page[off] & 0x80) == 0 ? off + 8 : off + 11;
    }

    /** A fresh copy of the entry's key. */
    byte[] key(int ref) {
        byte[] page = page(ref);
        int start = keyStart(page, offset(ref));
        int len = keyLength(ref);
        return Arrays.copyOfRange(page, start, start + len);
    }

    /** Copies the entry's key into {@code dst} from {@code at}; returns its length. */
    int copyKey(int ref, byte[] dst, int at) {
        byte[] page = page(ref);
        int start = keyStart(page, offset(ref));
        int len = keyLength(ref);
        System.arraycopy(page, start, dst, at, len);
        return len;
    }

    boolean keyEquals(int ref, byte[] key) {
        byte[] page = page(ref);
        int start = keyStart(page, offset(ref));
        int len = keyLength(ref);
        return len == key.length && Arrays.equals(page, start, start + len, key, 0, len);
    }

    /** Sign of (entry key - key), comparing from byte {@code from} on (the bytes before are known equal). */
    int compare(int ref, byte[] key, int from) {
        byte[] page = page(ref);
        int start = keyStart(page, offset(ref));
        int len = keyLength(ref);
        return Arrays.compareUnsigned(page, start + from, start + len, key, from, key.length);
    }

    /** Sign of (entry key a - entry key b). */
    int compare(int a, int b) {
        byte[] pa = page(a);
        byte[] pb = page(b);
        int sa = keyStart(pa, offset(a));
        int sb = keyStart(pb, offset(b));
        return Arrays.compareUnsigned(pa, sa, sa + keyLength(a), pb, sb, sb + keyLength(b));
    }

    /** Length of the common prefix of the keys of two entries. */
    int commonPrefix(int a, int b) {
        byte[] pa = page(a);
        byte[] pb = page(b);
        int sa = keyStart(pa, offset(a));
        int sb = keyStart(pb, offset(b));
        int la = keyLength(a);
        int lb = keyLength(b);
        int m = Arrays.mismatch(pa, sa, sa + la, pb, sb, sb + lb);
        return m < 0 ? la : m;
    }

    /** Up to 4 key bytes from {@code from} on, big-endian, zero-padded: order-preserving for equal prefixes. */
    int partial(int ref, int from) {
        byte[] page = page(ref);
        int start = keyStart(page, offset(ref));
        int len = keyLength(ref);
        int p = 0;
        for (int i = 0; i < 4; i++) {
            int at = from + i;
            p = (p << 8) | (at < len ? page[start + at] & 0xFF : 0);
        }
        return p;
    }

    /** The key hash of an entry, as {@link KeyHashIndex#hash(byte[], int, int)} computes it. */
    long hash(int ref) {
        byte[] page = page(ref);
        return KeyHashIndex.hash(page, keyStart(page, offset(ref)), keyLength(ref));
    }

    /** Bytes of live entries. */
    long liveBytes() {
        return allocatedBytes - freeBytes;
    }

    /** Bytes held but not used by live entries: free lists and page ends. */
    long wastedBytes() {
        return freeBytes + tailWasteBytes;
    }

    long memoryBytes() {
        long bytes = 16L + 4L * pages.length + 16L + 4L * freeBySize.length;
        for (int i = 0; i <= tailPage; i++) {
            bytes += 16 + pages[i].length;
        }
        for (IntStack s : freeBySize) {
            if (s != null) {
                bytes += s.memoryBytes();
            }
        }
        return bytes;
    }

    /** A growable stack of ints. */
    private static final class IntStack {
        private int[] items = new int[8];
        private int size;

        int size() {
            return size;
        }

        void push(int v) {
            if (size == items.length) {
                items = Arrays.copyOf(items, size * 2);
            }
            items[size++] = v;
        }

        int pop() {
            return items[--size];
        }

        long memoryBytes() {
            return 16 + 16 + 4L * items.length;
        }
    }
}
