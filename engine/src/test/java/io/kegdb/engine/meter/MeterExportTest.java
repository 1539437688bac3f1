package io.kegdb.engine.meter;

import org.junit.jupiter.api.Test;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class MeterExportTest {

    @Test
    void histogramBucketsAreCumulativeAndScaled() {
        Histogram h = Histogram.nanoseconds();
        h.record(5_000);
        h.record(20_000);
        h.record(20_000_000_000L);
        long[] counts = h.cumulativeCounts();
        assertEquals(1, counts[0]);
        assertEquals(2, counts[1]);
        assertEquals(3, counts[counts.length - 1]);
        assertEquals(2, counts[counts.length - 2]);
        assertEquals(3, h.count());
        assertEquals(20.000025, h.sum(), 1e-9);
        assertEquals(1e-5, h.upperBounds()[0], 1e-15);
    }

    @Test
    void namesAreCheckedAgainstTheirUnit() {
        assertThrows(IllegalArgumentException.class, () -> Meter.gauge("kegdb.engine.live", MeterUnit.BYTES, "x", () -> 1));
        assertThrows(IllegalArgumentException.class, () -> Meter.gauge("engine.keys", MeterUnit.NONE, "x", () -> 1));
        assertThrows(IllegalArgumentException.class, () -> Meter.gauge("kegdb.Engine", MeterUnit.NONE, "x", () -> 1));
    }

    @Test
    void prometheusTextHasOneHeaderPerNameAndTotalsForCounters() {
        Histogram h = Histogram.sizes();
        h.record(3);
        List<Meter> meters = List.of(
                Meter.counter("kegdb.test.writes", MeterUnit.NONE, "Writes.", () -> 7),
                Meter.gauge("kegdb.test.lag", MeterUnit.NONE, "Lag \\ of a \"peer\".", () -> 1).tagged("peer", "a:1"),
                Meter.gauge("kegdb.test.lag", MeterUnit.NONE, "Lag.", () -> 2).tagged("peer", "b\"2"),
                Meter.histogram("kegdb.test.sizes", MeterUnit.NONE, "Sizes.", h));
        StringBuilder out = new StringBuilder();
        PrometheusText.write(meters, Map.of("store", "s"), out);
        String text = out.toString();
        assertTrue(text.contains("# TYPE kegdb_test_writes_total counter\nkegdb_test_writes_total{store=\"s\"} 7\n"), text);
        assertEquals(1, text.split("# TYPE kegdb_test_lag gauge", -1).length - 1, text);
        assertTrue(text.contains("kegdb_test_lag{store=\"s\",peer=\"b\\\"2\"} 2\n"), text);
        assertTrue(text.contains("kegdb_test_sizes_bucket{store=\"s\",le=\"2\"} 0\n"), text);
        assertTrue(text.contains("kegdb_test_sizes_bucket{store=\"s\",le=\"4\"} 1\n"), text);
        assertTrue(text.contains("kegdb_test_sizes_bucket{store=\"s\",le=\"+Inf\"} 1\n"), text);
        assertTrue(text.contains("kegdb_test_sizes_count{store=\"s\"} 1\n"), text);
    }

    @Test
    void anMBeanShowsEveryMeterAndRunsItsOperationsUntilUnregistered() throws Exception {
        AtomicLong writes = new AtomicLong();
        AtomicInteger resets = new AtomicInteger();
        Histogram h = Histogram.nanoseconds();
        MeterMBean bean = new MeterMBean("test", List.of(
                Meter.counter("kegdb.test.writes", MeterUnit.NONE, "Writes.", writes::get),
                Meter.gauge("kegdb.test.lag", MeterUnit.NONE, "Lag.", () -> 3).tagged("peer", "a:1"),
                Meter.histogram("kegdb.test.fsync.seconds", MeterUnit.SECONDS, "Fsyncs.", h)),
                List.of(new MeterMBean.Operation("reset", "Resets.", resets::incrementAndGet)));
        ObjectName name = new ObjectName("io.kegdb.test:type=Test,name=" + ObjectName.quote("/tmp/x,y"));
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try (MeterMBean.Registration r = bean.register(name)) {
            assertEquals(name, r.name());
            assertTrue(server.isRegistered(name));
            assertEquals(0.0, server.getAttribute(name, "test.writes"));
            writes.set(5);
            h.record(1_000_000);
            assertEquals(5.0, server.getAttribute(name, "test.writes"));
            assertEquals(3.0, server.getAttribute(name, "test.lag[peer=a:1]"));
            assertEquals(1.0, server.getAttribute(name, "test.fsync.seconds.count"));
            assertEquals(0.001, (double) server.getAttribute(name, "test.fsync.seconds.sum"), 1e-12);
            server.invoke(name, "reset", new Object[0], new String[0]);
            assertEquals(1, resets.get());
            assertEquals(4, server.getMBeanInfo(name).getAttributes().length);
        }
        assertFalse(server.isRegistered(name));
    }
}
