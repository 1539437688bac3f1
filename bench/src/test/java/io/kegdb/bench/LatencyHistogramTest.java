package io.kegdb.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LatencyHistogramTest {

    @Test
    void percentilesAreWithinTheBucketError() {
        LatencyHistogram h = new LatencyHistogram();
        for (long v = 1; v <= 100_000; v++) {
            h.record(v * 10);
        }
        assertEquals(100_000, h.count());
        assertEquals(500_005.0, h.meanNanos(), 1e-6);
        assertEquals(1_000_000, h.maxNanos());
        assertEquals(10, h.minNanos());
        assertWithin(500_000, h.percentileNanos(0.50), 0.07);
        assertWithin(990_000, h.percentileNanos(0.99), 0.07);
        assertEquals(1_000_000, h.percentileNanos(1.0));
    }

    @Test
    void smallValuesAreExactAndBucketsCoverEveryValue() {
        LatencyHistogram h = new LatencyHistogram();
        h.record(3);
        assertEquals(3, h.percentileNanos(0.5));
        for (long v : new long[] {0, 1, 15, 16, 17, 31, 32, 33, 1000, 123_456_789L, Long.MAX_VALUE / 2}) {
            int i = LatencyHistogram.index(v);
            assertTrue(LatencyHistogram.upperBound(i) >= v, "bucket " + i + " bound below " + v);
            assertTrue(i == 0 || LatencyHistogram.upperBound(i - 1) < v, "value " + v + " in too high a bucket");
        }
    }

    @Test
    void addMergesCounts() {
        LatencyHistogram a = new LatencyHistogram();
        LatencyHistogram b = new LatencyHistogram();
        a.record(100);
        b.record(300);
        a.add(b);
        assertEquals(2, a.count());
        assertEquals(200.0, a.meanNanos(), 1e-9);
        assertEquals(300, a.maxNanos());
    }

    private static void assertWithin(long expected, long actual, double relative) {
        assertTrue(Math.abs(actual - expected) <= expected * relative,
                "expected about " + expected + " but got " + actual);
    }
}
