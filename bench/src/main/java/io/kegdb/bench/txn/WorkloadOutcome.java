package io.kegdb.bench.txn;

/** What one timed workload run did: transactions or statements committed, conflicts retried, and what it found. */
sealed interface WorkloadOutcome permits IncrementResult, BankResult {

    /** Transactions (or autocommitted statements) the application saw commit. */
    long committed();

    long retries();

    double seconds();

    /** The check the workload makes, in a few words, e.g. "0 of 61,118 lost". */
    String finding();

    default double committedPerSecond() {
        return committed() / seconds();
    }
}
