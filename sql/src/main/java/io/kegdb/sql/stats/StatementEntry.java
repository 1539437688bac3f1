package io.kegdb.sql.stats;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * The statistics of one normalized statement text: calls, time (total and longest), rows, conflicts. Updated
 * by every session running the text without a lock; a prepared statement keeps its entry and looks it up
 * again only once it was evicted ({@link #evicted()}).
 */
public final class StatementEntry {

    private final String text;
    private final StatementKind kind;
    private final LongAdder calls = new LongAdder();
    private final LongAdder nanos = new LongAdder();
    private final AtomicLong maxNanos = new AtomicLong();
    private final LongAdder rows = new LongAdder();
    private final LongAdder conflicts = new LongAdder();
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

    /** Records one run: how long it took, the rows it returned or changed, the conflicts it met. */
    void record(long elapsedNanos, long rowCount, int conflictCount) {
        calls.increment();
        nanos.add(elapsedNanos);
        long max = maxNanos.get();
        while (elapsedNanos > max && !maxNanos.compareAndSet(max, elapsedNanos)) {
            max = maxNanos.get();
        }
        if (rowCount > 0) {
            rows.add(rowCount);
        }
        if (conflictCount > 0) {
            conflicts.add(conflictCount);
        }
    }

    public long calls() {
        return calls.sum();
    }

    public long totalNanos() {
        return nanos.sum();
    }

    public long maxNanos() {
        return maxNanos.get();
    }

    public long rows() {
        return rows.sum();
    }

    public long conflicts() {
        return conflicts.sum();
    }

    /** True once the table dropped this entry: runs recorded here no longer show. */
    boolean evicted() {
        return evicted;
    }

    void evict() {
        evicted = true;
    }
}
