package io.kegdb.sql.stats;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The statistics of one normalized statement text: calls, time (total and longest of the timed runs), rows,
 * conflicts. Runs are recorded either into its adders (statements run once or a few times) or into the
 * {@link StatementTally} of a statement run often; the totals sum both. Entries are dropped by
 * {@link StatementStatistics} ({@link #evicted()}); a statement that meets a dropped entry looks its text up
 * again.
 */
public final class StatementEntry {

    private final String text;
    private final StatementKind kind;
    private final LongAdder calls = new LongAdder();
    private final LongAdder timedCalls = new LongAdder();
    private final LongAdder nanos = new LongAdder();
    private final AtomicLong maxNanos = new AtomicLong();
    private final LongAdder rows = new LongAdder();
    private final LongAdder conflicts = new LongAdder();
    private final ConcurrentLinkedQueue<StatementTally> tallies = new ConcurrentLinkedQueue<>();
    private volatile boolean evicted;

    StatementEntry(String text) {
        this.text = text;
        this.kind = StatementKind.of(text);
    }

    public String text() {
        return text;
    }

    public StatementKind kind() {
        return kind;
    }

    /**
     * Records one run in the shared adders: how long it took (negative: it was not timed), the rows it returned
     * or changed, its conflicts.
     */
    void record(long elapsedNanos, long rowCount, long conflictCount) {
        calls.increment();
        if (elapsedNanos >= 0) {
            timedCalls.increment();
            nanos.add(elapsedNanos);
            raiseMax(elapsedNanos);
        }
        if (rowCount > 0) {
            rows.add(rowCount);
        }
        if (conflictCount > 0) {
            conflicts.add(conflictCount);
        }
    }

    private void raiseMax(long value) {
        long max = maxNanos.get();
        while (value > max && !maxNanos.compareAndSet(max, value)) {
            max = maxNanos.get();
        }
    }

    /** A new tally of a statement of this text, counted in the totals until {@link #detach}ed. */
    StatementTally attach() {
        StatementTally t = new StatementTally();
        tallies.add(t);
        return t;
    }

    /** Moves what {@code t} counted into the adders and stops reading it. */
    void detach(StatementTally t) {
        if (tallies.remove(t)) {
            calls.add(t.calls());
            timedCalls.add(t.calls()); // its estimate stands for all its runs from now on
            nanos.add(estimate(t.nanos(), t.calls(), t.timedCalls()));
            raiseMax(t.maxNanos());
            rows.add(t.rows());
            conflicts.add(t.conflicts());
        }
    }

    public long calls() {
        long n = calls.sum();
        for (StatementTally t : tallies) {
            n += t.calls();
        }
        return n;
    }

    /**
     * Time all runs took, in nanoseconds: measured where every run was timed, else estimated from the timed ones
     * (their mean times the runs).
     */
    public long totalNanos() {
        long n = estimate(nanos.sum(), calls.sum(), timedCalls.sum());
        for (StatementTally t : tallies) {
            n += estimate(t.nanos(), t.calls(), t.timedCalls());
        }
        return n;
    }

    /** The time of {@code calls} runs of which {@code timed} took {@code timedNanos}. */
    static long estimate(long timedNanos, long calls, long timed) {
        if (timed >= calls) {
            return timedNanos;
        }
        return timed == 0 ? 0 : Math.round(timedNanos * ((double) calls / timed));
    }

    public long maxNanos() {
        long m = maxNanos.get();
        for (StatementTally t : tallies) {
            m = Math.max(m, t.maxNanos());
        }
        return m;
    }

    public long rows() {
        long n = rows.sum();
        for (StatementTally t : tallies) {
            n += t.rows();
        }
        return n;
    }

    public long conflicts() {
        long n = conflicts.sum();
        for (StatementTally t : tallies) {
            n += t.conflicts();
        }
        return n;
    }

    /** True once the table dropped this entry: runs recorded here no longer show. */
    boolean evicted() {
        return evicted;
    }

    void evict() {
        evicted = true;
    }
}
