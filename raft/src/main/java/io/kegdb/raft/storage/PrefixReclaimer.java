package io.kegdb.raft.storage;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Lock;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Deletes, on a background thread, the log entries and configuration markers below the first log index.
 *
 * <p>The persisted first index already hides them, so the deletes are unsynced batches: a crash that loses
 * some only means they are deleted again after the next open. Once enough bytes are deleted it asks the
 * engine to merge, which drops whole segments that hold nothing live without rewriting them.
 */
final class PrefixReclaimer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(PrefixReclaimer.class);
    private static final int BATCH_KEYS = 1024;

    private final String name;
    private final Lock lock;
    private final Supplier<KvStore> store;
    private final LongSupplier firstIndex;
    private final ExecutorService executor;
    private final AtomicBoolean queued = new AtomicBoolean();
    private volatile boolean closed;
    private long deletedSinceMerge;

    /** @param lock held (shared) around each batch, so closing or resetting the log waits for it */
    PrefixReclaimer(String name, Lock lock, Supplier<KvStore> store, LongSupplier firstIndex) {
        this.name = name;
        this.lock = lock;
        this.store = store;
        this.firstIndex = firstIndex;
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "kegdb-log-reclaim");
            t.setDaemon(true);
            return t;
        });
    }

    /** Schedules a pass unless one is already waiting to start; requests made meanwhile coalesce into it. */
    void request() {
        if (!closed && queued.compareAndSet(false, true)) {
            executor.execute(this::run);
        }
    }

    /** Waits until every pass requested so far has finished; true if that happened within {@code timeout}. */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        try {
            // One thread runs passes in order, so an empty task finishing means all earlier ones have.
            executor.submit(() -> { }).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (RejectedExecutionException e) {
            return true;
        } catch (ExecutionException | TimeoutException e) {
            return false;
        }
    }

    private void run() {
        queued.set(false);
        try {
            while (!closed && deleteBatch() > 0) {
                // one batch per lock hold, so a reset or shutdown never waits long
            }
            if (!closed) {
                mergeIfWorthIt();
            }
        } catch (RuntimeException e) {
            LOG.error("Reclaiming truncated log entries in {} failed; they stay hidden and are retried on the next "
                    + "truncation or open", name, e);
        }
    }

    /** Deletes up to one batch of keys below the first index; the number of keys deleted. */
    private int deleteBatch() {
        lock.lock();
        try {
            KvStore kv = store.get();
            if (kv == null) {
                return 0;
            }
            long first = firstIndex.getAsLong();
            WriteBatch batch = new WriteBatch();
            long bytes = 0;
            try (KvIterator it = kv.scan(null, LogKeys.entry(first))) {
                while (it.hasNext() && batch.size() < BATCH_KEYS) {
                    KeyValue kvp = it.next();
                    batch.delete(kvp.key());
                    bytes += kvp.value().length;
                }
            }
            try (KvIterator it = kv.scan(LogKeys.conf(0), LogKeys.conf(first))) {
                while (it.hasNext() && batch.size() < 2 * BATCH_KEYS) {
                    batch.delete(it.next().key());
                }
            }
            if (!batch.isEmpty()) {
                kv.write(batch, Durability.NO_SYNC);
                deletedSinceMerge += bytes;
            }
            return batch.size();
        } finally {
            lock.unlock();
        }
    }

    /** Merges once a segment's worth of bytes was deleted: then at least one segment can be dropped. */
    private void mergeIfWorthIt() {
        lock.lock();
        try {
            // Only the engine has segments to drop; other stores free space as they delete.
            if (store.get() instanceof Bitcask bitcask && deletedSinceMerge >= bitcask.options().segmentSize()) {
                long start = System.nanoTime();
                bitcask.merge();
                deletedSinceMerge = 0;
                LOG.debug("Merged {} after reclaiming a log prefix in {} ms", name,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            }
        } catch (IOException e) {
            LOG.warn("Merge of {} after a log truncation failed; the engine's scheduled merge retries", name, e);
        } finally {
            lock.unlock();
        }
    }

    /** Lets a running batch finish, then stops the thread. */
    @Override
    public void close() {
        closed = true;
        executor.shutdown();
        try {
            if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
                LOG.warn("Reclaimer of {} did not stop within 30 s", name);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
