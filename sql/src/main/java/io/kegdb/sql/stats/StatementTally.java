package io.kegdb.sql.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One prepared statement's own share of its text's statistics: plain counters written by the one session
 * running the statement at a time (a JDBC statement is used by one thread at a time) and read by anyone with
 * opaque reads, so that counting costs a run a few stores and no atomic instruction. Its
 * {@link StatementEntry} sums its tallies with its own adders.
 */
final class StatementTally {

    private static final VarHandle CALLS;
    private static final VarHandle NANOS;
    private static final VarHandle MAX;
    private static final VarHandle ROWS;
    private static final VarHandle CONFLICTS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CALLS = l.findVarHandle(StatementTally.class, "calls", long.class);
            NANOS = l.findVarHandle(StatementTally.class, "nanos", long.class);
            MAX = l.findVarHandle(StatementTally.class, "maxNanos", long.class);
            ROWS = l.findVarHandle(StatementTally.class, "rows", long.class);
            CONFLICTS = l.findVarHandle(StatementTally.class, "conflicts", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private long calls;
    private long nanos;
    private long maxNanos;
    private long rows;
    private long conflicts;

    /** Called by the owning session only. */
    void record(long elapsedNanos, long rowCount, int conflictCount) {
        CALLS.setOpaque(this, calls + 1);
        NANOS.setOpaque(this, nanos + elapsedNanos);
        if (elapsedNanos > maxNanos) {
            MAX.setOpaque(this, elapsedNanos);
        }
        if (rowCount > 0) {
            ROWS.setOpaque(this, rows + rowCount);
        }
        if (conflictCount > 0) {
            CONFLICTS.setOpaque(this, conflicts + conflictCount);
        }
    }

    long calls() {
        return (long) CALLS.getOpaque(this);
    }

    long nanos() {
        return (long) NANOS.getOpaque(this);
    }

    long maxNanos() {
        return (long) MAX.getOpaque(this);
    }

    long rows() {
        return (long) ROWS.getOpaque(this);
    }

    long conflicts() {
        return (long) CONFLICTS.getOpaque(this);
    }
}
