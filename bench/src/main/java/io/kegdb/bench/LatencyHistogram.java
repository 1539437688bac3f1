package io.kegdb.bench;

/**
 * Log-linear histogram of nanosecond latencies: 16 sub-buckets per power of two (at most ~6% relative error
 * on a percentile), constant memory however many samples are recorded. Min, max and mean are exact.
 * Not thread-safe; merge per-thread histograms with {@link #add(LatencyHistogram)}.
 */
final class LatencyHistogram {

    private static final int SUB_BITS = 4;
    private static final int SUB = 1 << SUB_BITS;

    private final long[] counts = new long[64 * SUB];
    private long count;
    private long sum;
    private long min = Long.MAX_VALUE;
    private long max;

    void record(long nanos) {
        long v = Math.max(nanos, 0);
        counts[index(v)]++;
        count++;
        sum += v;
        min = Math.min(min, v);
        max = Math.max(max, v);
    }

    void add(LatencyHistogram other) {
        for (int i = 0; i < counts.length; i++) {
            counts[i] += other.counts[i];
        }
        count += other.count;
        sum += other.sum;
        min = Math.min(min, other.min);
        max = Math.max(max, other.max);
    }

    long count() {
        return count;
    }

    double meanNanos() {
        return count == 0 ? Double.NaN : (double) sum / count;
    }

    long maxNanos() {
        return max;
    }

    long minNanos() {
        return count == 0 ? 0 : min;
    }

    /** The smallest bucket bound at or below which {@code fraction} of the samples lie (clamped to min/max). */
    long percentileNanos(double fraction) {
        if (count == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(fraction * count);
        rank = Math.max(1, Math.min(count, rank));
        long seen = 0;
        for (int i = 0; i < counts.length; i++) {
            seen += counts[i];
            if (seen >= rank) {
                return Math.max(min, Math.min(max, upperBound(i)));
            }
        }
        return max;
    }

    static int index(long v) {
        if (v < SUB) {
            return (int) v;
        }
        int exp = 63 - Long.numberOfLeadingZeros(v);
        int sub = (int) ((v >>> (exp - SUB_BITS)) & (SUB - 1));
        return (exp - SUB_BITS + 1) * SUB + sub;
    }

    /** Largest value mapped to bucket {@code i}. */
    static long upperBound(int i) {
        if (i < SUB) {
            return i;
        }
        int exp = i / SUB + SUB_BITS - 1;
        int sub = i % SUB;
        long base = (1L << exp) | ((long) sub << (exp - SUB_BITS));
        return base + (1L << (exp - SUB_BITS)) - 1;
    }
}
