package io.kegdb.bench;

import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryUsage;
import java.nio.file.Files;
import java.nio.file.Path;

/** Process memory as the seed table counts it, read after full garbage collections. */
final class MemoryProbe {

    private MemoryProbe() {
    }

    /**
     * @param heapUsed  Java heap in use after GC
     * @param direct    direct {@code ByteBuffer} memory (off-heap allocations made through the JDK)
     * @param rssAnon   anonymous resident memory of the process (heap pages touched, direct and native
     *                  allocations such as RocksDB's memtables and block cache; not file-backed pages such as
     *                  mmap'd data files), -1 where /proc is not available
     */
    record Snapshot(long heapUsed, long direct, long rssAnon) {
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
        return new Snapshot(heap().getUsed(), directBytes(), rssAnonBytes());
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

    static long rssAnonBytes() {
        Path status = Path.of("/proc/self/status");
        if (!Files.isReadable(status)) {
            return -1;
        }
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("RssAnon:")) {
                    String[] parts = line.substring("RssAnon:".length()).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
