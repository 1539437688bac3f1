package io.kegdb.bench.txn;

/**
 * What one contended run did: increments acknowledged to the application (autocommit returned, or commit
 * returned), the counters' sum afterwards, transactions retried after a conflict, and the run's length.
 */
record IncrementResult(long acknowledged, long finalSum, long retries, double seconds) implements WorkloadOutcome {

    /** Acknowledged increments missing from the counters (negative: more in the counters than acknowledged). */
    long lost() {
        return acknowledged - finalSum;
    }

    double perSecond() {
        return acknowledged / seconds;
    }

    @Override
    public long committed() {
        return acknowledged;
    }

    @Override
    public String finding() {
        return String.format("%,d of %,d lost", lost(), acknowledged);
    }
}
