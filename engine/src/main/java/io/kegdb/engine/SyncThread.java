package io.kegdb.engine;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * The thread that runs the fsync of a large SYNC write while its writer goes on updating the keydir (see
 * {@link GroupCommit#syncAhead}): one task at a time, handed over with a single unpark. The wake-up is
 * what delays the fsync; a pool's queue and condition made it 70 to 140 µs on the development machine
 * (timed inside the batched inserts of {@code io.kegdb.bench.jdbc.JdbcBenchmark}),
 * this 15 to 55. (A thread spinning for the task instead was slower: on two cores it took the CPU from the
 * compiler and the writer.)
 */
final class SyncThread implements Executor {

    private final Thread thread;
    private final AtomicReference<Runnable> task = new AtomicReference<>();
    private volatile boolean closed;

    SyncThread(String name) {
        thread = new Thread(this::run, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** Runs {@code command} on this thread; refused while another is pending or after close. */
    @Override
    public void execute(Runnable command) {
        if (closed) {
            throw new RejectedExecutionException(thread.getName() + " is closed");
        }
        if (!task.compareAndSet(null, command)) {
            throw new RejectedExecutionException(thread.getName() + " already has a task");
        }
        LockSupport.unpark(thread);
    }

    private void run() {
        // A task handed over before close still runs: a writer may be waiting for it.
        while (!closed || task.get() != null) {
            Runnable next = task.getAndSet(null);
            if (next != null) {
                next.run();
            } else {
                LockSupport.park(this);
            }
        }
    }

    /** Stops the thread once the task handed over, if any, has run. */
    void close() throws InterruptedException {
        closed = true;
        LockSupport.unpark(thread);
        thread.join(TimeUnit.SECONDS.toMillis(60));
    }
}
