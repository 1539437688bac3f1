package io.kegdb.sql;

import java.util.List;

/**
 * A query's rows, counted as they are read; once the last row was read or the result is closed, the run is
 * accounted ({@link ReplanningStatement#finished}), so that a query's time includes reading its rows.
 */
final class MeteredResult implements SqlResult {

    private final SqlResult rows;
    private final ReplanningStatement statement;
    private final long started;
    private final int conflicts;
    private long count;
    private boolean accounted;

    MeteredResult(SqlResult rows, ReplanningStatement statement, long started, int conflicts) {
        this.rows = rows;
        this.statement = statement;
        this.started = started;
        this.conflicts = conflicts;
    }

    @Override
    public boolean isQuery() {
        return true;
    }

    @Override
    public long updateCount() {
        return rows.updateCount();
    }

    @Override
    public List<ColumnInfo> columns() {
        return rows.columns();
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
    public Object get(int index) throws SqlError {
        return rows.get(index);
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
            statement.finished(started, count, conflicts);
        }
    }
}
