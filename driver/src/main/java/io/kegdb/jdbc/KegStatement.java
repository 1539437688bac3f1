package io.kegdb.jdbc;

import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlResult;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.SqlStatement;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A statement of a {@link KegConnection}: runs SQL text through the connection's session. */
class KegStatement implements Statement {

    /** What a caller of execute needs from the statement. */
    enum Expect { ANY, ROWS, COUNT }

    final KegConnection connection;
    private final List<String> batch = new ArrayList<>();
    private KegResultSet currentResult;
    private long updateCount = -1;
    private long maxRows;
    private int fetchSize;
    private int queryTimeoutSeconds;
    private boolean closeOnCompletion;
    private boolean poolable;
    private volatile boolean cancelled;
    /** The deadline of the statement running or last run: {@link #cancel()} stops it from another thread. */
    private volatile Deadline running;
    private volatile boolean closed;
    private SQLWarning warnings;

    KegStatement(KegConnection connection) {
        this.connection = connection;
    }

    final void checkOpen() throws SQLException {
        if (closed) {
            throw JdbcErrors.closed("statement");
        }
        connection.checkOpen();
    }

    /** Called by result sets while fetching. */
    final void checkNotCancelled() throws SQLException {
        if (cancelled) {
            cancelled = false;
            throw JdbcErrors.of(SqlState.TIMEOUT_EXPIRED, "statement cancelled");
        }
    }

    /** A new deadline for one execution: the query timeout from now, and {@link #cancel()}. */
    final Deadline startDeadline() {
        Deadline d = Deadline.after(TimeUnit.SECONDS.toNanos(queryTimeoutSeconds));
        running = d;
        return d;
    }

    /** Runs {@code prepared} with {@code params}; the result becomes this statement's current result. */
    final boolean run(SqlStatement prepared, List<?> params, Expect expect, boolean ownsPrepared) throws SQLException {
        return run(prepared, params, expect, ownsPrepared, startDeadline());
    }

    /** {@link #run(SqlStatement, List, Expect, boolean)} under a deadline shared by several runs (a batch). */
    final boolean run(SqlStatement prepared, List<?> params, Expect expect, boolean ownsPrepared, Deadline limit)
            throws SQLException {
        closeCurrentResult();
        updateCount = -1;
        cancelled = false;
        String kindProblem = expect == Expect.ROWS && !prepared.isQuery() ? "executeQuery needs a query; use executeUpdate or execute"
                : expect == Expect.COUNT && prepared.isQuery() ? "executeUpdate cannot run a query; use executeQuery or execute"
                : null;
        if (kindProblem != null) {
            if (ownsPrepared) {
                prepared.close();
            }
            throw JdbcErrors.of(SqlState.DYNAMIC_SQL_ERROR, kindProblem + ": " + prepared.sql());
        }
        long deadline = queryTimeoutSeconds > 0 ? System.nanoTime() + TimeUnit.SECONDS.toNanos(queryTimeoutSeconds) : 0;
        SqlResult result;
        try {
            synchronized (connection.lock) {
                result = prepared.execute(params, maxRows, limit);
            }
        } catch (SqlError e) {
            if (ownsPrepared) {
                prepared.close();
            }
            throw JdbcErrors.from(e);
        } catch (RuntimeException e) {
            if (ownsPrepared) {
                prepared.close();
            }
            throw JdbcErrors.from(e);
        }
        if (result.isQuery()) {
            currentResult = new KegResultSet(this, connection.lock, result, ownsPrepared ? prepared : null, maxRows, deadline);
            currentResult.setFetchSize(fetchSize);
            return true;
        }
        updateCount = result.updateCount();
        result.close();
        if (ownsPrepared) {
            prepared.close();
        }
        return false;
    }

    private boolean runText(String sql, Expect expect) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw JdbcErrors.of(SqlState.SYNTAX_ERROR, "SQL text is null");
        }
        SqlStatement prepared;
        Deadline limit = startDeadline(); // the timeout covers planning the text too
        try {
            synchronized (connection.lock) {
                prepared = connection.session().prepare(sql, limit);
            }
        } catch (SqlError e) {
            throw JdbcErrors.from(e);
        } catch (RuntimeException e) {
            throw JdbcErrors.from(e);
        }
        return run(prepared, List.of(), expect, true, limit);
    }

    final void closeCurrentResult() {
        KegResultSet r = currentResult;
        currentResult = null;
        if (r != null) {
            r.close();
        }
    }

    /** A result set of this statement closed itself. */
    final void resultClosed(KegResultSet r) {
        if (currentResult == r) {
            currentResult = null;
            if (closeOnCompletion && !closed) {
                try {
                    close();
                } catch (SQLException e) {
                    // closing a statement whose connection is gone; nothing left to release
                }
            }
        }
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        runText(sql, Expect.ROWS);
        return currentResult;
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        runText(sql, Expect.COUNT);
        return clampCount(updateCount);
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        runText(sql, Expect.COUNT);
        return updateCount;
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        return runText(sql, Expect.ANY);
    }

    static int clampCount(long count) {
        return count > Integer.MAX_VALUE ? Statement.SUCCESS_NO_INFO : (int) count;
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        closeCurrentResult();
        connection.statementClosed(this);
        closeResources();
    }

    /** Releases what a subclass holds (a prepared statement). */
    void closeResources() {
    }

    /** Closed by the connection closing. */
    final void closeQuietly() {
        if (!closed) {
            closed = true;
            closeCurrentResult();
            closeResources();
        }
    }

    @Override
    public int getMaxFieldSize() throws SQLException {
        checkOpen();
        return 0;
    }

    @Override
    public void setMaxFieldSize(int max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "max field size " + max + " is negative");
        }
        // accepted: values are returned whole
    }

    @Override
    public int getMaxRows() throws SQLException {
        checkOpen();
        return (int) Math.min(maxRows, Integer.MAX_VALUE);
    }

    @Override
    public void setMaxRows(int max) throws SQLException {
        setLargeMaxRows(max);
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    @Override
    public void setLargeMaxRows(long max) throws SQLException {
        checkOpen();
        if (max < 0) {
            throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "max rows " + max + " is negative");
        }
        maxRows = max;
    }

    @Override
    public void setEscapeProcessing(boolean enable) throws SQLException {
        checkOpen();
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeoutSeconds;
    }

    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "query timeout " + seconds + " is negative");
        }
        queryTimeoutSeconds = seconds;
    }

    /** Stops the running statement, or the current result set's fetching, at its next row (HYT00). */
    @Override
    public void cancel() throws SQLException {
        checkOpen();
        Deadline d = running;
        if (d != null) {
            d.cancel();
        }
        if (currentResult != null) {
            cancelled = true;
        }
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return warnings;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
        warnings = null;
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        throw JdbcErrors.unsupported("named cursors");
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        return currentResult;
    }

    @Override
    public int getUpdateCount() throws SQLException {
        checkOpen();
        return clampCount(updateCount);
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        return updateCount;
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        return getMoreResults(CLOSE_CURRENT_RESULT);
    }

    @Override
    public boolean getMoreResults(int current) throws SQLException {
        checkOpen();
        if (current != KEEP_CURRENT_RESULT) {
            closeCurrentResult();
        }
        currentResult = null;
        updateCount = -1;
        return false;
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != ResultSet.FETCH_FORWARD) {
            throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE,
                    "only FETCH_FORWARD is possible; result sets are forward-only");
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return ResultSet.FETCH_FORWARD;
    }

    /** Accepted: rows are produced one at a time from the store anyway. */
    @Override
    public void setFetchSize(int rows) throws SQLException {
        checkOpen();
        if (rows < 0) {
            throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "fetch size " + rows + " is negative");
        }
        fetchSize = rows;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public int getResultSetConcurrency() throws SQLException {
        checkOpen();
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetType() throws SQLException {
        checkOpen();
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        batch.add(sql);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batch.clear();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        long[] counts = executeLargeBatch();
        int[] result = new int[counts.length];
        for (int i = 0; i < counts.length; i++) {
            result[i] = clampCount(counts[i]);
        }
        return result;
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        List<String> todo = new ArrayList<>(batch);
        batch.clear();
        long[] counts = new long[todo.size()];
        for (int i = 0; i < todo.size(); i++) {
            try {
                runText(todo.get(i), Expect.COUNT);
                counts[i] = updateCount;
            } catch (SQLException e) {
                throw batchFailure(e, counts, i);
            }
        }
        updateCount = -1;
        return counts;
    }

    /** Processing stops at the first failure; the counts of the statements before it are reported. */
    static BatchUpdateException batchFailure(SQLException e, long[] counts, int failedAt) {
        long[] done = java.util.Arrays.copyOf(counts, failedAt);
        return new BatchUpdateException("batch entry " + failedAt + " failed: " + e.getMessage(), e.getSQLState(),
                e.getErrorCode(), done, e);
    }

    @Override
    public Connection getConnection() throws SQLException {
        checkOpen();
        return connection;
    }

    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        checkOpen();
        return KegResultSet.ofRows(this, new RowsResult(new RowsResult.Shape().text("K").columns(), List.of()));
    }

    @Override
    public int executeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, String[] columnNames) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql, int autoGeneratedKeys) throws SQLException {
        return executeLargeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql, int[] columnIndexes) throws SQLException {
        return executeLargeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql, String[] columnNames) throws SQLException {
        return executeLargeUpdate(sql);
    }

    @Override
    public boolean execute(String sql, int autoGeneratedKeys) throws SQLException {
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, int[] columnIndexes) throws SQLException {
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, String[] columnNames) throws SQLException {
        return execute(sql);
    }

    @Override
    public int getResultSetHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void setPoolable(boolean poolable) throws SQLException {
        checkOpen();
        this.poolable = poolable;
    }

    @Override
    public boolean isPoolable() throws SQLException {
        checkOpen();
        return poolable;
    }

    @Override
    public void closeOnCompletion() throws SQLException {
        checkOpen();
        closeOnCompletion = true;
    }

    @Override
    public boolean isCloseOnCompletion() throws SQLException {
        checkOpen();
        return closeOnCompletion;
    }

    final long lastUpdateCount() {
        return updateCount;
    }

    final KegResultSet currentResult() {
        return currentResult;
    }

    final long maxRows() {
        return maxRows;
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return SelfWrapper.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
