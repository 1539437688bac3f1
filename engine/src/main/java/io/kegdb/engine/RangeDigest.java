package io.kegdb.engine;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A 64-bit digest of the (key, value) pairs of a key range: what a reader saw, to be compared with what the
 * range holds when a batch is applied ({@link WriteBatch#expectRange}). Each pair is hashed on its own and
 * the hashes are summed, so the order pairs are added in does not matter (a descending scan digests as an
 * ascending one). The same bytes give the same digest on every JVM, so replicas applying a replicated batch
 * agree. Not thread-safe.
 */
public final class RangeDigest {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long SEED = 0x6A09E667F3BCC909L;

    private long sum;
    private long count;

    /** Adds a pair of the range (each pair once, in any order). */
    public void add(byte[] key, byte[] value) {
        sum += finish(bytes(bytes(SEED, key), value));
        count++;
    }

    /** The digest of the pairs added so far. */
    public long value() {
        return finish(sum ^ finish(count + SEED));
    }

    /** The digest of every pair {@code pairs} yields; closes it. */
    public static long of(KvIterator pairs) {
        try (pairs) {
            RangeDigest d = new RangeDigest();
            while (pairs.hasNext()) {
                KeyValue kv = pairs.next();
                d.add(kv.key(), kv.value());
            }
            return d.value();
        }
    }

    /** Mixes the length and then every byte of {@code b}: the length keeps (ab, c) apart from (a, bc). */
    private static long bytes(long h, byte[] b) {
        int n = b.length;
        h = step(h, n);
        int i = 0;
        for (; i + 8 <= n; i += 8) {
            h = step(h, (long) LONGS.get(b, i));
        }
        long tail = 0;
        for (int shift = 0; i < n; i++, shift += 8) {
            tail |= (b[i] & 0xFFL) << shift;
        }
        return step(h, tail);
    }

    private static long step(long h, long word) {
        return Long.rotateLeft(h ^ finish(word * 0xC2B2AE3D27D4EB4FL), 27) * 0x9E3779B97F4A7C15L + 0x52DCE729L;
    }

    private static long finish(long h) {
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 33);
    }
}
