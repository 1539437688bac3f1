package io.kegdb.bench.txn;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A bank of {@link #ACCOUNTS} accounts holding {@link #TOTAL} in all: threads move random amounts between two
 * accounts in SERIALIZABLE transactions (read both balances, write both), and optionally other threads audit in
 * read-only SERIALIZABLE transactions (sum all balances; marked read-only where the target allows it); every transfer keeps the total, so every audit must
 * see it and so must the sum at the end. Each transaction runs on a connection borrowed from the pool for it.
 */
final class BankTransfers {

    static final int ACCOUNTS = 10;
    static final long TOTAL = 1000;
    private static final int MAX_AMOUNT = 20;

    private final DataSource pool;
    private final ContendedTarget target;
    private final ConflictRetry retry;
    private final ValueTable accounts;

    BankTransfers(DataSource pool, ContendedTarget target) {
        this.pool = pool;
        this.target = target;
        this.retry = new ConflictRetry(target);
        this.accounts = new ValueTable(pool, "ACCT", "acct-");
    }

    void createAccounts() throws SQLException {
        accounts.create(target, ACCOUNTS, TOTAL / ACCOUNTS);
    }

    /** Workers 0 .. {@code threads - auditors - 1} transfer, the others audit, for {@code seconds}. */
    BankResult run(int threads, int auditors, double seconds) throws Exception {
        if (auditors < 0 || auditors >= threads) {
            throw new IllegalArgumentException("auditors " + auditors + " of " + threads + " threads: at least one must transfer");
        }
        int transferors = threads - auditors;
        AtomicLong transfers = new AtomicLong();
        AtomicLong audits = new AtomicLong();
        AtomicLong badAudits = new AtomicLong();
        AtomicLong retries = new AtomicLong();
        double elapsed = TimedWorkers.run(threads, seconds, worker -> {
            if (worker < transferors) {
                retries.addAndGet(transfer());
                transfers.incrementAndGet();
            } else {
                long[] seen = new long[1];
                retries.addAndGet(audit(seen));
                audits.incrementAndGet();
                if (seen[0] != TOTAL) {
                    badAudits.incrementAndGet();
                }
            }
        });
        return new BankResult(transfers.get(), audits.get(), badAudits.get(), accounts.sum(), retries.get(), elapsed);
    }

    /** Moves 1 .. {@link #MAX_AMOUNT} between two different random accounts; returns the retries it took. */
    private long transfer() throws SQLException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        int from = random.nextInt(ACCOUNTS);
        String fromKey = accounts.key(from);
        String toKey = accounts.key((from + 1 + random.nextInt(ACCOUNTS - 1)) % ACCOUNTS);
        long amount = 1 + random.nextInt(MAX_AMOUNT);
        try (Connection c = pool.getConnection()) {
            return retry.serializable(c, () -> {
                accounts.set(c, fromKey, accounts.value(c, fromKey) - amount);
                accounts.set(c, toKey, accounts.value(c, toKey) + amount);
            });
        }
    }

    /** Sums the balances in a read-only transaction into {@code seen[0]}; returns the retries it took. */
    private long audit(long[] seen) throws SQLException {
        try (Connection c = pool.getConnection()) {
            boolean markReadOnly = target.marksReadOnly();
            c.setReadOnly(markReadOnly);
            try {
                return retry.serializable(c, () -> seen[0] = accounts.sum(c));
            } finally {
                if (markReadOnly) {
                    c.setReadOnly(false);
                }
            }
        }
    }
}
