package io.kegdb.bench;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;

/** Process memory as the seed table counts it, read after full garbage collections. */
final class MemoryProbe {

    private MemoryProbe() {
    }

    /**
     * @param heapUsed  Java heap in use after GC
     * @param direct    direct {@code ByteBuffer} memory (off-heap allocations made through the JDK)
     */
    record Snapshot(long heapUsed, long direct) {
    }

    static Snapshot afterGc() {
        long previous = Long.MAX_VALUE;
        // A few rounds: finalization and reference processing can free more on the next cycle.
        for (int i = 0; i < 4; i++) {
            System.gc();
            long used = heap().getUsed();
            if (previous != Long.MAX_VALUE && Math.abs(previous - used) < (1 << 20)) {
                break;
            }
            previous = used;
        }
        return new Snapshot(heap().getUsed(), directBytes());
    }

    private static MemoryUsage heap() {
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    }

    static long directBytes() {
        for (BufferPoolMXBean pool : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (pool.getName().equals("direct")) {
                return pool.getMemoryUsed();
            }
        }
        return 0;
    }
}
