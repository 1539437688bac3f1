package io.kegdb.bench.txn;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Threads each running one step over and over until a deadline; the first failure of a step ends the run. */
final class TimedWorkers {

    /** One unit of work of worker {@code worker} (0 .. threads - 1). */
    interface Step {
        void run(int worker) throws Exception;
    }

    private TimedWorkers() {
    }

    /** Runs {@code step} on {@code threads} threads for {@code seconds}; returns the seconds the run took. */
    static double run(int threads, double seconds, Step step) throws Exception {
        ExecutorService workers = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        long deadline = start + (long) (seconds * 1e9);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int worker = t;
                running.add(workers.submit(() -> {
                    while (System.nanoTime() < deadline) {
                        step.run(worker);
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get((long) seconds + 120, TimeUnit.SECONDS);
            }
        } finally {
            workers.shutdownNow();
        }
        return (System.nanoTime() - start) / 1e9;
    }
}
