package io.kegdb.engine;

import org.junit.jupiter.api.Test;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

class GroupCommitTest {

    @Test
    void concurrentWaitersShareSyncsAndEachIsCovered() throws Exception {
        GroupCommit gc = new GroupCommit();
        AtomicLong appended = new AtomicLong();
        AtomicInteger syncs = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(16);
        try {
            Future<?>[] fs = new Future<?>[16];
            for (int t = 0; t < fs.length; t++) {
                fs[t] = pool.submit(() -> {
                    for (int i = 0; i < 200; i++) {
                        long end = appended.addAndGet(10);
                        gc.await(end, () -> {
                            long covered = appended.get();
                            syncs.incrementAndGet();
                            try {
                                Thread.sleep(1);
                            } catch (InterruptedException e) {
                                throw new java.io.IOException(e);
                            }
                            return covered;
                        });
                    }
                    return null;
                });
            }
            for (Future<?> f : fs) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertTrue(syncs.get() < 16 * 200 / 2, "syncs were shared: " + syncs.get() + " for 3200 writes");
    }

    @Test
    void aLoneWriterPaysOneSync() throws Exception {
        GroupCommit gc = new GroupCommit();
        AtomicInteger syncs = new AtomicInteger();
        gc.await(5, () -> {
            syncs.incrementAndGet();
            return 5;
        });
        gc.await(5, () -> fail("already durable"));
        assertEquals(1, syncs.get());
    }
}
