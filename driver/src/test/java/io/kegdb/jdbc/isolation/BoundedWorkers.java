package io.kegdb.jdbc.isolation;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Runs workers concurrently, each on its own connection, each repeating its step until a deadline. */
final class BoundedWorkers {

    /** One iteration of a worker on its connection; {@code worker} numbers the workers from 0. */
    @FunctionalInterface
    interface Step {
        void run(Connection c, int worker) throws SQLException;
    }

    /** Opens a worker's connection. */
    @FunctionalInterface
    interface Opener {
        Connection open(int worker) throws SQLException;
    }

    private BoundedWorkers() {
    }

    /** Runs {@code workers} workers for {@code time}; rethrows the first worker failure. */
    static void run(int workers, Duration time, Opener opener, Step step) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(workers);
        long deadline = System.nanoTime() + time.toNanos();
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int w = 0; w < workers; w++) {
                int id = w;
                running.add(pool.submit(() -> {
                    try (Connection c = opener.open(id)) {
                        while (System.nanoTime() < deadline) {
                            step.run(c, id);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : running) {
                f.get(time.toSeconds() + 60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Runs {@code transaction} on {@code c} (autocommit off) and commits, retrying from the start after a
     * serialization failure; returns the number of retries.
     */
    static int retryingTransaction(Connection c, SerializationFailure.SqlAction transaction) throws SQLException {
        for (int retries = 0; ; retries++) {
            try {
                transaction.run();
                c.commit();
                return retries;
            } catch (SQLException e) {
                c.rollback();
                if (!SerializationFailure.is(e)) {
                    throw e;
                }
            }
        }
    }
}
