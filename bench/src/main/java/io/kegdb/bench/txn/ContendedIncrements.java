package io.kegdb.bench.txn;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Threads incrementing counters of one table through a pool, each increment on a connection borrowed for it;
 * counts what was acknowledged and compares it with the counters afterwards.
 */
final class ContendedIncrements {

    private final DataSource pool;
    private final ContendedTarget target;
    private final ConflictRetry retry;
    private final ValueTable counters;

    ContendedIncrements(DataSource pool, ContendedTarget target) {
        this.pool = pool;
        this.target = target;
        this.retry = new ConflictRetry(target);
        this.counters = new ValueTable(pool, "CTR", "k");
    }

    /** Creates the counter table with {@code keys} counters at 0. */
    void createCounters(int keys) throws SQLException {
        counters.create(target, keys, 0);
    }

    /** {@code threads} threads increment random counters of {@code keys} for {@code seconds}. */
    IncrementResult run(IncrementMode mode, int threads, int keys, double seconds) throws Exception {
        AtomicLong acknowledged = new AtomicLong();
        AtomicLong retries = new AtomicLong();
        double elapsed = TimedWorkers.run(threads, seconds, worker -> {
            String key = counters.key(ThreadLocalRandom.current().nextInt(keys));
            retries.addAndGet(mode == IncrementMode.AUTOCOMMIT ? autocommitIncrement(key) : transactionalIncrement(key));
            acknowledged.incrementAndGet();
        });
        return new IncrementResult(acknowledged.get(), counters.sum(), retries.get(), elapsed);
    }

    /** Returns the retries it took (a busy SQLite may refuse an autocommitted statement too). */
    private long autocommitIncrement(String key) throws SQLException {
        return retry.untilDone(() -> {
            try (Connection c = pool.getConnection();
                 PreparedStatement p = c.prepareStatement("UPDATE " + counters.name() + " SET V = V + 1 WHERE K = ?")) {
                c.setAutoCommit(true);
                p.setString(1, key);
                if (p.executeUpdate() != 1) {
                    throw new IllegalStateException("counter " + key + " missing");
                }
            }
        });
    }

    private long transactionalIncrement(String key) throws SQLException {
        try (Connection c = pool.getConnection();
             PreparedStatement read = c.prepareStatement("SELECT V FROM " + counters.name() + " WHERE K = ?");
             PreparedStatement write = c.prepareStatement("UPDATE " + counters.name() + " SET V = ? WHERE K = ?")) {
            return retry.serializable(c, () -> {
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
            });
        }
    }
}
