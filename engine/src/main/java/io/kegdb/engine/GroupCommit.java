package io.kegdb.engine;

import io.kegdb.engine.meter.Histogram;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Lets concurrent SYNC writers share fsyncs. A writer whose bytes are not yet durable either runs a sync
 * (if none is in flight) or parks until one covers its write. After each sync the syncing thread wakes
 * exactly the writers it covered, and hands the next sync to the oldest writer still waiting; nobody else
 * wakes up. One writer alone pays exactly one fsync; with many, each sync covers everything appended
 * while the previous one ran.
 */
final class GroupCommit {

    /** Syncs everything appended so far and returns the position it covered. */
    interface Syncer {
        long sync() throws IOException;
    }

    private record Waiter(long position, Thread thread) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final PriorityQueue<Waiter> waiters = new PriorityQueue<>((a, b) -> Long.compare(a.position, b.position));
    private volatile long durable;
    private boolean syncing;
    /** Writers made durable by each sync. */
    private final Histogram batchSizes;

    GroupCommit(Histogram batchSizes) {
        this.batchSizes = batchSizes;
    }

    /** Returns once every byte before {@code position} is durable. */
    void await(long position, Syncer syncer) throws IOException {
        if (durable >= position) {
            return;
        }
        Waiter me = null;
        lock.lock();
        try {
            while (durable < position) {
                if (!syncing) {
                    syncing = true;
                    if (me != null) {
                        waiters.remove(me);
                        me = null;
                    }
                    lock.unlock();
                    runSync(syncer, 1);
                    lock.lock();
                } else {
                    if (me == null) {
                        me = new Waiter(position, Thread.currentThread());
                        waiters.add(me);
                    }
                    lock.unlock();
                    LockSupport.park(this);
                    if (durable >= position) {
                        // The usual wake-up: covered by a sync, and already taken off the queue by the
                        // syncing thread (or about to be, as durable says). Returning without the lock
                        // keeps dozens of woken writers from queueing on it behind the thread still
                        // waking the others.
                        return;
                    }
                    lock.lock();
                    if (Thread.interrupted()) {
                        waiters.remove(me);
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted while waiting for fsync");
                    }
                }
            }
            if (me != null) {
                waiters.remove(me);
            }
        } finally {
            if (lock.isHeldByCurrentThread()) {
                lock.unlock();
            }
        }
    }

    /**
     * Starts a sync on {@code runner} now unless one is in flight, so that it overlaps what the caller does
     * next (a large write updating the keydir); the caller then {@link #await}s it as usual. A failed sync
     * is left to the waiters: the next one runs a sync of its own and gets the error.
     */
    void syncAhead(Syncer syncer, Executor runner) {
        lock.lock();
        try {
            if (syncing) {
                return;
            }
            syncing = true;
        } finally {
            lock.unlock();
        }
        try {
            runner.execute(() -> {
                try {
                    runSync(syncer, 0);
                } catch (IOException e) {
                    // the store recorded the failure; the waiter that syncs next reports it
                }
            });
        } catch (RejectedExecutionException closing) {
            lock.lock();
            try {
                syncing = false;
                wakeCovered();
            } finally {
                lock.unlock();
            }
        }
    }

    /**
     * Runs one sync (the caller set {@code syncing} and holds no lock), then records what it covered, wakes
     * the covered waiters and hands the next sync to the oldest one still waiting. {@code self}: 1 when the
     * syncing thread is itself a writer waiting for the sync, 0 for the sync thread of {@link #syncAhead}.
     */
    private void runSync(Syncer syncer, int self) throws IOException {
        long covered = 0;
        try {
            covered = syncer.sync();
        } finally {
            List<Thread> woken;
            lock.lock();
            try {
                syncing = false;
                if (covered > durable) {
                    durable = covered;
                }
                int before = waiters.size();
                woken = takeCovered();
                if (covered > 0) {
                    // The writers it covered: those taken off the queue, and the syncing one; a sync ahead of
                    // a large batch covers at least the writer that started it, which may not have queued.
                    batchSizes.record(Math.max(1, before - waiters.size() + self));
                }
            } finally {
                lock.unlock();
            }
            // Wake them without the lock: dozens of unparks are system calls, and writers queueing for the
            // next sync should not wait behind them.
            for (Thread t : woken) {
                LockSupport.unpark(t);
            }
        }
    }

    /**
     * Under the lock: takes every waiter now durable off the queue and returns their threads, and the oldest
     * one still waiting (to run the next sync) after them; the caller wakes them.
     */
    private List<Thread> takeCovered() {
        List<Thread> threads = new ArrayList<>();
        Waiter w;
        while ((w = waiters.peek()) != null && w.position <= durable) {
            waiters.poll();
            threads.add(w.thread);
        }
        if (w != null && !syncing) {
            threads.add(w.thread);
        }
        return threads;
    }

    private void wakeCovered() {
        for (Thread t : takeCovered()) {
            LockSupport.unpark(t);
        }
    }

    /** Records that everything before {@code position} is durable (a sealed segment was synced). */
    void markDurable(long position) {
        lock.lock();
        try {
            if (position > durable) {
                durable = position;
            }
            wakeCovered();
        } finally {
            lock.unlock();
        }
    }
}
