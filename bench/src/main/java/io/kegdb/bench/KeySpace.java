package io.kegdb.bench;

import java.util.SplittableRandom;

/**
 * Reproducible benchmark data without holding it in memory: key {@code i} is derived from {@code i} by a
 * bijective 64-bit mix, so keys look random, are distinct for distinct {@code i}, and can be regenerated for
 * the read phase instead of being kept on the heap (which would pollute the memory measurement).
 *
 * <p>Values carry their key's index in the first 8 bytes so a read can check it got the right value; the
 * rest is a slice of a fixed random pool.
 */
final class KeySpace {

    static final int MIN_KEY_SIZE = 8;
    static final int MIN_VALUE_SIZE = 8;
    static final int MAX_VALUE_SIZE = 1 << 20;

    private static final int POOL_SIZE = 1 << 21;

    private final long seed;
    private final int keySize;
    private final int valueSize;
    private final byte[] pool;

    KeySpace(long seed, int keySize, int valueSize) {
        if (keySize < MIN_KEY_SIZE) {
            throw new IllegalArgumentException("keySize " + keySize + " is below " + MIN_KEY_SIZE
                    + " (needed to keep keys distinct)");
        }
        if (valueSize < MIN_VALUE_SIZE || valueSize > MAX_VALUE_SIZE) {
            throw new IllegalArgumentException("valueSize " + valueSize + " outside ["
                    + MIN_VALUE_SIZE + ", " + MAX_VALUE_SIZE + "]");
        }
        this.seed = seed;
        this.keySize = keySize;
        this.valueSize = valueSize;
        this.pool = new byte[POOL_SIZE];
        new SplittableRandom(seed).nextBytes(pool);
    }

    KeySpace(long seed, Workload w) {
        this(seed, w.keySize(), w.valueSize());
    }

    int keySize() {
        return keySize;
    }

    int valueSize() {
        return valueSize;
    }

    /** Key number {@code i}; distinct from every other {@code i}. */
    byte[] key(long i) {
        byte[] k = new byte[keySize];
        writeKey(i, k);
        return k;
    }

    /** Writes key number {@code i} into {@code target}, which must be {@link #keySize()} long. */
    void writeKey(long i, byte[] target) {
        long h = mix(i + seed);
        putLong(target, 0, h);
        int pos = 8;
        long filler = h;
        while (pos < keySize) {
            filler = mix(filler + 0x9E3779B97F4A7C15L);
            for (int b = 0; b < 8 && pos < keySize; b++, pos++) {
                target[pos] = (byte) (filler >>> (56 - 8 * b));
            }
        }
    }

    /** The value stored under key number {@code i}. */
    byte[] value(long i) {
        byte[] v = new byte[valueSize];
        int offset = (int) Long.remainderUnsigned(mix(i ^ 0x5DEECE66DL), POOL_SIZE - valueSize);
        System.arraycopy(pool, offset, v, 0, valueSize);
        putLong(v, 0, i);
        return v;
    }

    /** Whether {@code value} is what {@link #value(long)} gives for {@code i} (checks length and index stamp). */
    boolean matches(long i, byte[] value) {
        return value != null && value.length == valueSize && getLong(value, 0) == i;
    }

    /** The splitmix64 finalizer: a bijection on 64-bit values with good avalanche. */
    static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    private static void putLong(byte[] b, int off, long v) {
        for (int j = 0; j < 8; j++) {
            b[off + j] = (byte) (v >>> (56 - 8 * j));
        }
    }

    private static long getLong(byte[] b, int off) {
        long v = 0;
        for (int j = 0; j < 8; j++) {
            v = (v << 8) | (b[off + j] & 0xFF);
        }
        return v;
    }
}
