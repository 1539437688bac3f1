package io.kegdb.bench.txn;

import javax.sql.DataSource;

/**
 * The four workloads of the anomaly table, each a check that a database without lost updates or read skew
 * passes: counters end at what was acknowledged, the bank's total stays {@link BankTransfers#TOTAL} and every
 * audit sees it.
 */
enum AnomalyWorkload {
    AUTOCOMMIT_INCREMENT("autocommit `UPDATE ctr SET v = v + 1 WHERE k = ?` (increments lost of acknowledged)") {
        @Override
        WorkloadOutcome run(DataSource pool, ContendedTarget target, int threads, double seconds) throws Exception {
            return increments(pool, target, IncrementMode.AUTOCOMMIT, threads, seconds);
        }
    },
    TRANSACTION_INCREMENT("read-modify-write transaction (SELECT v, UPDATE v = read + 1, commit; SERIALIZABLE,"
            + " 40001 retried) (lost of acknowledged)") {
        @Override
        WorkloadOutcome run(DataSource pool, ContendedTarget target, int threads, double seconds) throws Exception {
            return increments(pool, target, IncrementMode.TRANSACTION, threads, seconds);
        }
    },
    BANK_TRANSFERS("bank: transfers between 10 accounts in SERIALIZABLE transactions, total 1000 (total at the end)") {
        @Override
        WorkloadOutcome run(DataSource pool, ContendedTarget target, int threads, double seconds) throws Exception {
            return bank(pool, target, threads, 0, seconds);
        }
    },
    AUDITS("read-only SERIALIZABLE audit transactions seeing a total ≠ 1000, half the threads auditing while the"
            + " others transfer (count)") {
        @Override
        WorkloadOutcome run(DataSource pool, ContendedTarget target, int threads, double seconds) throws Exception {
            return bank(pool, target, threads, Math.max(1, threads / 2), seconds);
        }
    };

    /** Counters the increment workloads spread their increments over. */
    static final int COUNTERS = 10;

    final String label;

    AnomalyWorkload(String label) {
        this.label = label;
    }

    /** Runs the workload on {@code threads} threads sharing {@code pool} of a new database of {@code target}. */
    abstract WorkloadOutcome run(DataSource pool, ContendedTarget target, int threads, double seconds) throws Exception;

    private static IncrementResult increments(DataSource pool, ContendedTarget target, IncrementMode mode, int threads,
                                              double seconds) throws Exception {
        ContendedIncrements increments = new ContendedIncrements(pool, target);
        increments.createCounters(COUNTERS);
        return increments.run(mode, threads, COUNTERS, seconds);
    }

    private static BankResult bank(DataSource pool, ContendedTarget target, int threads, int auditors, double seconds)
            throws Exception {
        BankTransfers bank = new BankTransfers(pool, target);
        bank.createAccounts();
        return bank.run(threads, auditors, seconds);
    }
}
