package io.kegdb.sql.stats;

import io.kegdb.sql.direct.StatementText;

/**
 * What one prepared statement records its runs through. Its first runs go straight into its text's shared
 * entry (a statement run once, as most ad hoc SQL is, costs no more); from the {@value #SHARED_RUNS}th on it
 * counts into a tally of its own ({@link StatementTally}: plain stores, no atomic instruction), which
 * {@link #close} folds into the entry. Every run is counted; from then on only one in {@value #TIMED_EVERY}
 * is timed ({@link #timesNextRun}), and the others' time is estimated from theirs. The text is normalized at the first run. Used by one thread at a time.
 */
public final class StatementRecorder {

    /** Runs recorded in the shared entry before the statement gets a tally. */
    static final int SHARED_RUNS = 4;
    /**
     * Of the runs counted in a tally, one in this many is timed (the first of them included): two clock reads
     * cost a point select about 4% of its CPU, and a statement run this often is known by its mean.
     */
    static final int TIMED_EVERY = 16;

    private final StatementStatistics statistics;
    private final String sql;
    private StatementEntry entry;
    private StatementTally tally;
    private int runs;
    /** Runs {@link #timesNextRun} was asked about. */
    private long started;
    private boolean closed;

    StatementRecorder(StatementStatistics statistics, String sql) {
        this.statistics = statistics;
        this.sql = sql;
    }

    /**
     * Whether the run starting now is to be timed: each of the statement's first {@value #SHARED_RUNS}, then one
     * in {@value #TIMED_EVERY}. Asked once per run, before it is {@link #record}ed.
     */
    public boolean timesNextRun() {
        long n = ++started;
        return n <= SHARED_RUNS || (n - SHARED_RUNS - 1) % TIMED_EVERY == 0;
    }

    /**
     * Records one run ({@code elapsedNanos} negative: it was not timed); returns the entry it went to (its
     * normalized text and kind).
     */
    public StatementEntry record(long elapsedNanos, long rows, int conflicts) {
        StatementEntry e = entry;
        if (e == null || e.evicted()) {
            tally = null; // an evicted entry's tally is gone with it
            e = statistics.entryOf(sql, e);
            entry = e;
        }
        if (tally != null) {
            tally.record(elapsedNanos, rows, conflicts);
        } else if (closed || ++runs <= SHARED_RUNS) {
            // (a query whose rows are read after its statement closed is recorded in the entry)
            e.record(elapsedNanos, rows, conflicts);
        } else {
            tally = e.attach();
            tally.record(elapsedNanos, rows, conflicts);
        }
        return e;
    }

    /** The statement's normalized text, without recording a run (the slow log of a statement not counted). */
    public String text() {
        return entry != null ? entry.text() : StatementText.normalize(sql);
    }

    /** Folds the statement's tally into its entry; the statement records nothing more. */
    public void close() {
        closed = true;
        if (tally != null) {
            entry.detach(tally);
            tally = null;
        }
    }
}
