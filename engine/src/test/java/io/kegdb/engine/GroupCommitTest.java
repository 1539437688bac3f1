package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
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
        GroupCommit gc = new GroupCommit(io.kegdb.engine.meter.Histogram.sizes());
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
        GroupCommit gc = new GroupCommit(io.kegdb.engine.meter.Histogram.sizes());
        AtomicInteger syncs = new AtomicInteger();
        gc.await(5, () -> {
            syncs.incrementAndGet();
            return 5;
        });
        gc.await(5, () -> fail("already durable"));
        assertEquals(1, syncs.get());
    }

    @Test
    @Timeout(30)
    void aSyncRunAheadOnAnotherThreadCoversTheWaiterWithoutASyncOfItsOwn() throws Exception {
        GroupCommit gc = new GroupCommit(io.kegdb.engine.meter.Histogram.sizes());
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger syncs = new AtomicInteger();
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            gc.syncAhead(() -> {
                syncs.incrementAndGet();
                await(release);
                return 100;
            }, runner);
            // A second request while that sync runs starts nothing.
            gc.syncAhead(() -> fail("a sync is already in flight"), runner);
            Thread waiter = new Thread(() -> {
                try {
                    gc.await(100, () -> fail("covered by the sync run ahead"));
                } catch (IOException e) {
                    throw new AssertionError(e);
                }
            });
            waiter.start();
            waiter.join(200);
            assertTrue(waiter.isAlive(), "the waiter waits for the sync in flight");
            release.countDown();
            waiter.join(10_000);
            assertFalse(waiter.isAlive());
            assertEquals(1, syncs.get());
        } finally {
            runner.shutdownNow();
        }
    }

    @Test
    @Timeout(30)
    void whenTheSyncRunAheadFailsTheWaiterSyncsItselfAndSeesTheStoresAnswer() throws Exception {
        GroupCommit gc = new GroupCommit(io.kegdb.engine.meter.Histogram.sizes());
        ExecutorService runner = Executors.newSingleThreadExecutor();
        try {
            CountDownLatch ran = new CountDownLatch(1);
            gc.syncAhead(() -> {
                ran.countDown();
                throw new IOException("injected EIO");
            }, runner);
            assertTrue(ran.await(10, TimeUnit.SECONDS));
            IOException seen = assertThrows(IOException.class,
                    () -> gc.await(50, () -> {
                        throw new IOException("an earlier fsync failed");
                    }));
            assertEquals("an earlier fsync failed", seen.getMessage());
        } finally {
            runner.shutdownNow();
        }
    }

    @Test
    @Timeout(30)
    void aRefusedRunnerLeavesTheWaiterToSyncItself() throws Exception {
        GroupCommit gc = new GroupCommit(io.kegdb.engine.meter.Histogram.sizes());
        ExecutorService runner = Executors.newSingleThreadExecutor();
        runner.shutdown();
        gc.syncAhead(() -> fail("the runner is shut down"), runner);
        AtomicInteger syncs = new AtomicInteger();
        gc.await(7, () -> {
            syncs.incrementAndGet();
            return 7;
        });
        assertEquals(1, syncs.get());
    }

    private static void await(CountDownLatch latch) throws IOException {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IOException("test latch timed out");
            }
        } catch (InterruptedException e) {
            throw new IOException(e);
        }
    }
}
