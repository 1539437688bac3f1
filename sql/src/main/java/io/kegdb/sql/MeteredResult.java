package io.kegdb.sql;

/**
 * A query's rows, counted as they are read; once the last row was read or the result is closed, the run is
 * accounted ({@link ReplanningStatement#finished}), so that a query's time includes reading its rows.
 */
final class MeteredResult extends ForwardingResult {

    private final ReplanningStatement statement;
    private final long started;
    /** Whether the run was timed (from {@link #started}). */
    private final boolean timed;
    private final int conflicts;
    /** Whether the run goes into the statement statistics (else it was timed for the slow log only). */
    private final boolean counted;
    private long count;
    private boolean accounted;

    MeteredResult(SqlResult rows, ReplanningStatement statement, long started, boolean timed, int conflicts,
                  boolean counted) {
        super(rows);
        this.statement = statement;
        this.started = started;
        this.timed = timed;
        this.conflicts = conflicts;
        this.counted = counted;
    }

    @Override
    public boolean next() throws SqlError {
        boolean more;
        try {
            more = rows.next();
        } catch (SqlError | RuntimeException e) {
            account();
            throw e;
        }
        if (more) {
            count++;
        } else {
            account();
        }
        return more;
    }

    @Override
    public void close() {
        try {
            rows.close();
        } finally {
            account();
        }
    }

    private void account() {
        if (!accounted) {
            accounted = true;
            statement.finished(started, timed, count, conflicts, counted);
        }
    }
}
