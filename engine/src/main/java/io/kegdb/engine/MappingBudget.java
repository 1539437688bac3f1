package io.kegdb.engine;

import java.io.IOException;
import java.lang.ref.Cleaner;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Makes every memory mapping of the engine and keeps the number not yet unmapped within a budget.
 *
 * <p>Java unmaps a file mapping only when the garbage collector finds its buffer unreachable (an explicit
 * unmap could pull it from under a reader still using it). Each mapping is one of the process's memory
 * areas, of which Linux allows 65,530 by default ({@code vm.max_map_count}); past that the JVM itself fails
 * (a fatal error, not an exception). With a large heap and little garbage, collections can be rare enough
 * for dropped mappings to pile up that far: a stress test with 4 KiB segments merged every 100 ms crashed
 * its JVM with 65,234 mappings of segment files, most of them dropped long before
 * ({@code io.kegdb.tests.process.MappingChurnTest} reproduces the pile-up). So mappings are counted until
 * they are collected, and past {@link #BUDGET} a collection is requested, as the JDK does itself when
 * direct memory runs out. Under {@code -XX:+DisableExplicitGC} that request does nothing.
 */
final class MappingBudget {

    /**
     * Mappings alive before a collection is requested: a quarter of Linux's default limit, and far above
     * what stores use (at most {@code maxOpenFiles}, 256 by default, sealed segments each, plus writers).
     */
    static final int BUDGET = 16_384;
    /** At most one request per this many new mappings, so that the collector is not asked again and again. */
    private static final int MAPPINGS_BETWEEN_REQUESTS = BUDGET / 8;

    private static final Cleaner CLEANER = Cleaner.create();
    private static final AtomicInteger LIVE = new AtomicInteger();
    private static final AtomicLong MADE = new AtomicLong();
    private static final AtomicLong MADE_AT_LAST_REQUEST = new AtomicLong(Long.MIN_VALUE / 2);

    private MappingBudget() {
    }

    /** {@code channel.map(mode, 0, size)}, counted until the mapping is collected. */
    static MappedByteBuffer map(FileChannel channel, FileChannel.MapMode mode, long size) throws IOException {
        long made = MADE.incrementAndGet();
        if (LIVE.get() >= BUDGET) {
            long last = MADE_AT_LAST_REQUEST.get();
            if (made - last >= MAPPINGS_BETWEEN_REQUESTS && MADE_AT_LAST_REQUEST.compareAndSet(last, made)) {
                System.gc();
            }
        }
        MappedByteBuffer mapping = channel.map(mode, 0, size);
        LIVE.incrementAndGet();
        CLEANER.register(mapping, LIVE::decrementAndGet);
        return mapping;
    }

    /** Mappings made and not yet collected. */
    static int live() {
        return LIVE.get();
    }
}
