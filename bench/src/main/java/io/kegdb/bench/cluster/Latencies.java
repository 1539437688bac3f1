package io.kegdb.bench.cluster;

import java.util.Arrays;

/** Operation latencies of one thread, in nanoseconds; merged across threads for percentiles. */
final class Latencies {

    private long[] nanos = new long[1 << 16];
    private int count;

    void add(long n) {
        if (count == nanos.length) {
            nanos = Arrays.copyOf(nanos, count * 2);
        }
        nanos[count++] = n;
    }

    int count() {
        return count;
    }

    static long[] merged(Latencies[] all) {
        int total = 0;
        for (Latencies l : all) {
            total += l.count;
        }
        long[] out = new long[total];
        int at = 0;
        for (Latencies l : all) {
            System.arraycopy(l.nanos, 0, out, at, l.count);
            at += l.count;
        }
        Arrays.sort(out);
        return out;
    }

    /** The {@code p}-th percentile (0..100) of sorted latencies, in microseconds. */
    static double percentileMicros(long[] sorted, double p) {
        if (sorted.length == 0) {
            return Double.NaN;
        }
        int i = (int) Math.min(sorted.length - 1, Math.ceil(p / 100.0 * sorted.length) - 1);
        return sorted[Math.max(0, i)] / 1000.0;
    }
}
