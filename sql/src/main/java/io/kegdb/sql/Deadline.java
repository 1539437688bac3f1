package io.kegdb.sql;

/**
 * When a statement must stop: a time limit (a JDBC query timeout), or {@link #cancel()} from another
 * thread. Planning checks it between phases and at every rule the optimizer tries; execution at the rows
 * it reads from tables and writes. A stopped statement fails with SQLState HYT00.
 */
public final class Deadline {

    /** How many row-level checks share one reading of the clock. */
    private static final int CLOCK_EVERY = 16;

    private final long endNanos;
    private final long timeoutNanos;
    private volatile boolean cancelled;
    private int calls;

    private Deadline(long timeoutNanos) {
        this.timeoutNanos = timeoutNanos;
        this.endNanos = timeoutNanos > 0 ? System.nanoTime() + timeoutNanos : 0;
    }

    /** A deadline {@code timeoutNanos} from now; 0 means no time limit (only {@link #cancel()} stops it). */
    public static Deadline after(long timeoutNanos) {
        if (timeoutNanos < 0) {
            throw new IllegalArgumentException("timeout " + timeoutNanos + " ns is negative");
        }
        return new Deadline(timeoutNanos);
    }

    /** No time limit. */
    public static Deadline none() {
        return new Deadline(0);
    }

    /** Stops the statement at its next check; callable from any thread. */
    public void cancel() {
        cancelled = true;
    }

    /** Whether a time limit was set (a query timeout); without one only {@link #cancel()} stops the statement. */
    public boolean hasTimeLimit() {
        return endNanos != 0;
    }

    /** True once cancelled or past the time limit. */
    public boolean reached() {
        return cancelled || (endNanos != 0 && System.nanoTime() - endNanos >= 0);
    }

    /** Fails with HYT00 if the statement must stop: for planning phases and other coarse steps. */
    public void check() throws SqlError {
        if (reached()) {
            throw error();
        }
    }

    /**
     * {@link #reached()} for per-row loops, from the statement's own thread: reads the clock only every
     * few calls. Once true, {@link #check()} fails.
     */
    public boolean reachedAtRow() {
        return cancelled || (endNanos != 0 && ++calls % CLOCK_EVERY == 0 && System.nanoTime() - endNanos >= 0);
    }

    private SqlError error() {
        return cancelled ? new SqlError(SqlState.TIMEOUT_EXPIRED, "the statement was cancelled")
                : new SqlError(SqlState.TIMEOUT_EXPIRED,
                        "query timeout of " + timeoutNanos / 1_000_000 + " ms reached");
    }
}
