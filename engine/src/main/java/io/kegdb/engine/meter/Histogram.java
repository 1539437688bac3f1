package io.kegdb.engine.meter;

import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;

/**
 * Observations in fixed cumulative buckets: {@link #record} is a short scan of the bounds and two
 * {@link LongAdder} increments, with no lock and no allocation, so it may sit on a write path. Values are
 * recorded as longs in a raw unit (nanoseconds, counts) and exported in the meter's base unit by
 * {@link #scale()}.
 */
public final class Histogram {

    private final long[] bounds;
    private final double scale;
    /** One per bound, plus the last for values above every bound. */
    private final LongAdder[] buckets;
    private final LongAdder sum = new LongAdder();

    /**
     * @param bounds ascending inclusive upper bounds in the raw unit
     * @param scale  what one raw unit is in the base unit (1e-9 for nanoseconds exported as seconds)
     */
    public Histogram(long[] bounds, double scale) {
        for (int i = 1; i < bounds.length; i++) {
            if (bounds[i] <= bounds[i - 1]) {
                throw new IllegalArgumentException("bounds must ascend: " + Arrays.toString(bounds));
            }
        }
        this.bounds = bounds.clone();
        this.scale = scale;
        this.buckets = new LongAdder[bounds.length + 1];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new LongAdder();
        }
    }

    /** Latencies recorded in nanoseconds, exported in seconds: bounds from 10 µs to 10 s. */
    public static Histogram nanoseconds() {
        return new Histogram(new long[] {10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000,
                5_000_000, 10_000_000, 25_000_000, 50_000_000, 100_000_000, 250_000_000, 500_000_000,
                1_000_000_000, 10_000_000_000L}, 1e-9);
    }

    /** Sizes (counts of things), powers of two from 1 to 1024. */
    public static Histogram sizes() {
        return new Histogram(new long[] {1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024}, 1);
    }

    /** Records one observation of {@code value} raw units. */
    public void record(long value) {
        int i = 0;
        while (i < bounds.length && value > bounds[i]) {
            i++;
        }
        buckets[i].increment();
        sum.add(value);
    }

    /** Observations so far. */
    public long count() {
        long n = 0;
        for (LongAdder b : buckets) {
            n += b.sum();
        }
        return n;
    }

    /** The sum of the observations, in the base unit. */
    public double sum() {
        return sum.sum() * scale;
    }

    /** The upper bounds in the base unit (the last bucket, above them all, is +Inf). */
    public double[] upperBounds() {
        double[] out = new double[bounds.length];
        for (int i = 0; i < bounds.length; i++) {
            out[i] = bounds[i] * scale;
        }
        return out;
    }

    /** Observations at or below each upper bound, cumulative; one more entry for +Inf (= {@link #count()}). */
    public long[] cumulativeCounts() {
        long[] out = new long[buckets.length];
        long running = 0;
        for (int i = 0; i < buckets.length; i++) {
            running += buckets[i].sum();
            out[i] = running;
        }
        return out;
    }

    /** What one raw unit is in the base unit. */
    public double scale() {
        return scale;
    }
}
