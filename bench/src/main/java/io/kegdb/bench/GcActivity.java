package io.kegdb.bench;

import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;

/**
 * Garbage-collection count and accumulated time of this JVM, to tell a collector pause from a store stall
 * when a latency maximum stands out.
 */
record GcActivity(long collections, long millis) {

    static GcActivity now() {
        long count = 0;
        long time = 0;
        for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
            count += Math.max(0, gc.getCollectionCount());
            time += Math.max(0, gc.getCollectionTime());
        }
        return new GcActivity(count, time);
    }

    GcActivity since(GcActivity earlier) {
        return new GcActivity(collections - earlier.collections, millis - earlier.millis);
    }
}
