package io.kegdb.bench.txn;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Threads incrementing counters of one table through a pool, each increment on a connection borrowed for it;
 * counts what was acknowledged and compares it with the counters afterwards.
 */
final class ContendedIncrements {

    private final DataSource pool;
    private final ContendedTarget target;

    ContendedIncrements(DataSource pool, ContendedTarget target) {
        this.pool = pool;
        this.target = target;
    }

    /** Creates the counter table with {@code keys} counters at 0. */
    void createCounters(int keys) throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            s.executeUpdate(target.createTable());
            try (PreparedStatement p = c.prepareStatement("INSERT INTO CTR VALUES (?, 0)")) {
                for (int k = 0; k < keys; k++) {
                    p.setString(1, key(k));
                    p.executeUpdate();
                }
            }
        }
    }

    private static String key(int k) {
        return "k" + k;
    }

    /** {@code threads} threads increment random counters of {@code keys} for {@code seconds}. */
    IncrementResult run(IncrementMode mode, int threads, int keys, double seconds) throws Exception {
        AtomicLong acknowledged = new AtomicLong();
        AtomicLong retries = new AtomicLong();
        ExecutorService workers = Executors.newFixedThreadPool(threads);
        long start = System.nanoTime();
        long deadline = start + (long) (seconds * 1e9);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                running.add(workers.submit(() -> {
                    while (System.nanoTime() < deadline) {
                        String key = key(ThreadLocalRandom.current().nextInt(keys));
                        retries.addAndGet(mode == IncrementMode.AUTOCOMMIT ? autocommitIncrement(key) : transactionalIncrement(key));
                        acknowledged.incrementAndGet();
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
        double elapsed = (System.nanoTime() - start) / 1e9;
        return new IncrementResult(acknowledged.get(), sum(), retries.get(), elapsed);
    }

    /** Returns the retries it took (a busy SQLite may refuse an autocommitted statement too). */
    private long autocommitIncrement(String key) throws SQLException {
        for (long retries = 0; ; retries++) {
            try (Connection c = pool.getConnection();
                 PreparedStatement p = c.prepareStatement("UPDATE CTR SET V = V + 1 WHERE K = ?")) {
                c.setAutoCommit(true);
                p.setString(1, key);
                if (p.executeUpdate() != 1) {
                    throw new IllegalStateException("counter " + key + " missing");
                }
                return retries;
            } catch (SQLException e) {
                if (!target.retryable(e)) {
                    throw e;
                }
            }
        }
    }

    private long transactionalIncrement(String key) throws SQLException {
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            c.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
            try (PreparedStatement read = c.prepareStatement("SELECT V FROM CTR WHERE K = ?");
                 PreparedStatement write = c.prepareStatement("UPDATE CTR SET V = ? WHERE K = ?")) {
                for (long retries = 0; ; retries++) {
                    try {
                        read.setString(1, key);
                        long v;
                        try (ResultSet rs = read.executeQuery()) {
                            if (!rs.next()) {
                                throw new IllegalStateException("counter " + key + " missing");
                            }
                            v = rs.getLong(1);
                        }
                        write.setLong(1, v + 1);
                        write.setString(2, key);
                        write.executeUpdate();
                        c.commit();
                        return retries;
                    } catch (SQLException e) {
                        c.rollback();
                        if (!target.retryable(e)) {
                            throw e;
                        }
                    }
                }
            } finally {
                c.setAutoCommit(true);
            }
        }
    }

    private long sum() throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT SUM(V) FROM CTR")) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
