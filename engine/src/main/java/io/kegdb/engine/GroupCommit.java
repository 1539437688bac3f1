package io.kegdb.engine;

import java.io.IOException;

/**
 * Lets concurrent SYNC writers share fsyncs. Each writer waits until the durable position passes the end
 * of its own write; the first waiter to find no sync in flight runs one for everybody, and those who
 * appended meanwhile are covered by the next one. One writer alone pays exactly one fsync.
 */
final class GroupCommit {

    /** Syncs everything appended so far and returns the position it covered. */
    interface Syncer {
        long sync() throws IOException;
    }

    private final Object monitor = new Object();
    private volatile long durable;
    private boolean syncing;

    /** Returns once every byte before {@code position} is durable. */
    void await(long position, Syncer syncer) throws IOException {
        while (durable < position) {
            synchronized (monitor) {
                while (syncing && durable < position) {
                    try {
                        monitor.wait();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        throw new IOException("interrupted while waiting for fsync", e);
                    }
                }
                if (durable >= position) {
                    return;
                }
                syncing = true;
            }
            long covered = 0;
            try {
                covered = syncer.sync();
            } finally {
                synchronized (monitor) {
                    syncing = false;
                    if (covered > durable) {
                        durable = covered;
                    }
                    monitor.notifyAll();
                }
            }
        }
    }

    /** Records that everything before {@code position} is durable (a sealed segment was synced). */
    void markDurable(long position) {
        synchronized (monitor) {
            if (position > durable) {
                durable = position;
            }
            monitor.notifyAll();
        }
    }
}
