package io.kegdb.sql.stats;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * One prepared statement's own share of its text's statistics: plain counters written by the one session
 * running the statement at a time (a JDBC statement is used by one thread at a time) and read by anyone with
 * opaque reads, so that counting costs a run a few stores and no atomic instruction. Only some runs are timed
 * ({@link StatementRecorder}); the time of all is estimated from theirs ({@link StatementEntry#estimate}). Its
 * {@link StatementEntry} sums its tallies with its own adders.
 */
final class StatementTally {

    private static final VarHandle CALLS;
    private static final VarHandle TIMED;
    private static final VarHandle NANOS;
    private static final VarHandle MAX;
    private static final VarHandle ROWS;
    private static final VarHandle CONFLICTS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CALLS = l.findVarHandle(StatementTally.class, "calls", long.class);
            TIMED = l.findVarHandle(StatementTally.class, "timedCalls", long.class);
            NANOS = l.findVarHandle(StatementTally.class, "nanos", long.class);
            MAX = l.findVarHandle(StatementTally.class, "maxNanos", long.class);
            ROWS = l.findVarHandle(StatementTally.class, "rows", long.class);
            CONFLICTS = l.findVarHandle(StatementTally.class, "conflicts", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private long calls;
    private long timedCalls;
    private long nanos;
    private long maxNanos;
    private long rows;
    private long conflicts;

    /** Called by the owning session only; {@code elapsedNanos} is negative for a run that was not timed. */
    void record(long elapsedNanos, long rowCount, int conflictCount) {
        CALLS.setOpaque(this, calls + 1);
        if (elapsedNanos >= 0) {
            TIMED.setOpaque(this, timedCalls + 1);
            NANOS.setOpaque(this, nanos + elapsedNanos);
            if (elapsedNanos > maxNanos) {
                MAX.setOpaque(this, elapsedNanos);
            }
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

    long timedCalls() {
        return (long) TIMED.getOpaque(this);
    }

    /** Time of the timed runs. */
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
