package io.kegdb.jdbc;

import io.kegdb.engine.Durability;
import io.kegdb.sql.Isolation;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlSession;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.SqlStatement;

import java.sql.Array;
import java.sql.Blob;
import java.sql.CallableStatement;
import java.sql.ClientInfoStatus;
import java.sql.Clob;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.NClob;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLClientInfoException;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Savepoint;
import java.sql.Statement;
import java.sql.Struct;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.Executor;

/**
 * A connection: one SQL session on a shared store. Autocommit (the default) writes each statement as one
 * atomic batch; with autocommit off, writes are buffered (visible to this connection only) until
 * {@link #commit()} writes them as one atomic batch with {@code SYNC} ({@code NO_SYNC} under
 * {@code durability=nosync}). Isolation is {@link #TRANSACTION_READ_COMMITTED} unless set otherwise; a
 * commit that conflicts with a concurrent one fails with SQLState 40001
 * ({@link java.sql.SQLTransactionRollbackException}), having written nothing: run the transaction again.
 */
final class KegConnection implements Connection {
    /** Held while the session is used: sessions are single-threaded, connections may be shared. */
    final Object lock = new Object();

    private final ConnectionSettings settings;
    private final SharedStore shared;
    private final SqlSession session;
    private final Set<KegStatement> statements = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Properties clientInfo = new Properties();
    private final boolean forcedReadOnly;
    private volatile boolean closed;
    private SQLWarning warnings;
    private int networkTimeoutMillis;

    KegConnection(ConnectionSettings settings, SharedStore shared) {
        this.settings = settings;
        this.shared = shared;
        this.forcedReadOnly = settings.readOnly() || shared.readOnly();
        this.session = shared.database().newSession();
        session.setDurability(settings.durability());
        session.setSlowStatementThreshold(settings.slowStatementMs());
        session.setStatementStatistics(settings.statementStatistics());
        if (forcedReadOnly) {
            session.setReadOnly(true);
        }
    }

    SqlSession session() {
        return session;
    }

    SharedStore shared() {
        return shared;
    }

    ConnectionSettings settings() {
        return settings;
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw JdbcErrors.closed("connection");
        }
    }

    private <S extends KegStatement> S track(S statement) {
        synchronized (statements) {
            statements.add(statement);
        }
        return statement;
    }

    void statementClosed(KegStatement statement) {
        synchronized (statements) {
            statements.remove(statement);
        }
    }

    @Override
    public Statement createStatement() throws SQLException {
        checkOpen();
        return track(new KegStatement(this));
    }

    @Override
    public PreparedStatement prepareStatement(String sql) throws SQLException {
        checkOpen();
        if (sql == null) {
            throw JdbcErrors.of(SqlState.SYNTAX_ERROR, "SQL text is null");
        }
        SqlStatement prepared;
        try {
            synchronized (lock) {
                prepared = session.prepare(sql);
            }
        } catch (SqlError e) {
            throw JdbcErrors.from(e);
        } catch (RuntimeException e) {
            throw JdbcErrors.from(e);
        }
        return track(new KegPreparedStatement(this, prepared));
    }

    @Override
    public CallableStatement prepareCall(String sql) throws SQLException {
        throw JdbcErrors.unsupported("stored procedures (prepareCall)");
    }

    @Override
    public String nativeSQL(String sql) throws SQLException {
        checkOpen();
        return sql;
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SQLException {
        checkOpen();
        synchronized (lock) {
            if (autoCommit == session.autoCommit()) {
                return;
            }
            try {
                if (autoCommit && session.inTransaction()) {
                    session.commit(); // JDBC: switching autocommit on commits the open transaction
                }
                session.setAutoCommit(autoCommit);
            } catch (SqlError e) {
                throw JdbcErrors.from(e);
            } catch (RuntimeException e) {
                throw JdbcErrors.from(e);
            }
        }
    }

    @Override
    public boolean getAutoCommit() throws SQLException {
        checkOpen();
        return session.autoCommit();
    }

    @Override
    public void commit() throws SQLException {
        checkOpen();
        synchronized (lock) {
            if (session.autoCommit()) {
                throw JdbcErrors.of(SqlState.INVALID_TRANSACTION_STATE,
                        "commit() while autocommit is on: every statement is already committed");
            }
            try {
                session.commit();
            } catch (SqlError e) {
                throw JdbcErrors.from(e);
            } catch (RuntimeException e) {
                throw JdbcErrors.from(e);
            }
        }
    }

    @Override
    public void rollback() throws SQLException {
        checkOpen();
        synchronized (lock) {
            if (session.autoCommit()) {
                throw JdbcErrors.of(SqlState.INVALID_TRANSACTION_STATE,
                        "rollback() while autocommit is on: nothing to roll back");
            }
            try {
                session.rollback();
            } catch (RuntimeException e) {
                throw JdbcErrors.from(e);
            }
        }
    }

    @Override
    public void close() throws SQLException {
        if (closed) {
            return;
        }
        closed = true;
        release();
    }

    /** Closes statements, discards uncommitted writes and drops the store reference. */
    private void release() {
        List<KegStatement> open;
        synchronized (statements) {
            open = List.copyOf(statements);
            statements.clear();
        }
        synchronized (lock) {
            try {
                for (KegStatement s : open) {
                    s.closeQuietly();
                }
                session.close();
            } finally {
                StoreRegistry.instance().release(shared);
            }
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public DatabaseMetaData getMetaData() throws SQLException {
        checkOpen();
        return new KegDatabaseMetaData(this);
    }

    /**
     * A hint per JDBC: {@code true} makes the connection reject writes (SQLState 25006); {@code false} is
     * ignored on a connection opened with {@code readOnly=true}.
     */
    @Override
    public void setReadOnly(boolean readOnly) throws SQLException {
        checkOpen();
        synchronized (lock) {
            session.setReadOnly(readOnly || forcedReadOnly);
        }
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        checkOpen();
        return session.readOnly();
    }

    /** KegDB has no catalogs; ignored as JDBC prescribes. */
    @Override
    public void setCatalog(String catalog) throws SQLException {
        checkOpen();
    }

    @Override
    public String getCatalog() throws SQLException {
        checkOpen();
        return null;
    }

    /**
     * READ_COMMITTED (the default), REPEATABLE_READ (snapshot isolation) and SERIALIZABLE are provided as
     * documented in docs/JDBC.md; READ_UNCOMMITTED is answered with READ_COMMITTED and a warning, as JDBC
     * allows a stricter level. The level applies from the next transaction; changing it inside an open
     * transaction fails with SQLState 25001.
     */
    @Override
    public void setTransactionIsolation(int level) throws SQLException {
        checkOpen();
        Isolation isolation = switch (level) {
            case TRANSACTION_READ_COMMITTED -> Isolation.READ_COMMITTED;
            case TRANSACTION_REPEATABLE_READ -> Isolation.REPEATABLE_READ;
            case TRANSACTION_SERIALIZABLE -> Isolation.SERIALIZABLE;
            case TRANSACTION_READ_UNCOMMITTED, TRANSACTION_NONE -> {
                warn("isolation level " + level + " is not offered; the connection uses READ_COMMITTED, which is"
                        + " stricter");
                yield Isolation.READ_COMMITTED;
            }
            default -> throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "unknown isolation level " + level);
        };
        synchronized (lock) {
            try {
                session.setIsolation(isolation);
            } catch (SqlError e) {
                throw JdbcErrors.from(e);
            }
        }
    }

    @Override
    public int getTransactionIsolation() throws SQLException {
        checkOpen();
        synchronized (lock) {
            return switch (session.isolation()) {
                case READ_COMMITTED -> TRANSACTION_READ_COMMITTED;
                case REPEATABLE_READ -> TRANSACTION_REPEATABLE_READ;
                case SERIALIZABLE -> TRANSACTION_SERIALIZABLE;
            };
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

    private void warn(String message) {
        SQLWarning w = new SQLWarning(message, SqlState.WARNING);
        if (warnings == null) {
            warnings = w;
        } else {
            warnings.setNextWarning(w);
        }
    }

    /** Scrollable or updatable result sets are downgraded to forward-only, read-only, with a warning. */
    private void checkResultSetKind(int type, int concurrency, int holdability) throws SQLException {
        if (type != ResultSet.TYPE_FORWARD_ONLY) {
            if (type != ResultSet.TYPE_SCROLL_INSENSITIVE && type != ResultSet.TYPE_SCROLL_SENSITIVE) {
                throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "unknown result set type " + type);
            }
            warn("result set type " + type + " downgraded to TYPE_FORWARD_ONLY");
        }
        if (concurrency != ResultSet.CONCUR_READ_ONLY) {
            if (concurrency != ResultSet.CONCUR_UPDATABLE) {
                throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "unknown result set concurrency " + concurrency);
            }
            warn("result set concurrency CONCUR_UPDATABLE downgraded to CONCUR_READ_ONLY");
        }
        if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT && holdability != ResultSet.CLOSE_CURSORS_AT_COMMIT) {
            throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "unknown result set holdability " + holdability);
        }
    }

    @Override
    public Statement createStatement(int type, int concurrency) throws SQLException {
        return createStatement(type, concurrency, ResultSet.HOLD_CURSORS_OVER_COMMIT);
    }

    @Override
    public Statement createStatement(int type, int concurrency, int holdability) throws SQLException {
        checkOpen();
        checkResultSetKind(type, concurrency, holdability);
        return createStatement();
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int type, int concurrency) throws SQLException {
        return prepareStatement(sql, type, concurrency, ResultSet.HOLD_CURSORS_OVER_COMMIT);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int type, int concurrency, int holdability)
            throws SQLException {
        checkOpen();
        checkResultSetKind(type, concurrency, holdability);
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int autoGeneratedKeys) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, int[] columnIndexes) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public PreparedStatement prepareStatement(String sql, String[] columnNames) throws SQLException {
        return prepareStatement(sql);
    }

    @Override
    public CallableStatement prepareCall(String sql, int type, int concurrency) throws SQLException {
        return prepareCall(sql);
    }

    @Override
    public CallableStatement prepareCall(String sql, int type, int concurrency, int holdability)
            throws SQLException {
        return prepareCall(sql);
    }

    @Override
    public Map<String, Class<?>> getTypeMap() throws SQLException {
        checkOpen();
        return new HashMap<>();
    }

    @Override
    public void setTypeMap(Map<String, Class<?>> map) throws SQLException {
        checkOpen();
        if (map != null && !map.isEmpty()) {
            throw JdbcErrors.unsupported("user-defined type maps");
        }
    }

    @Override
    public void setHoldability(int holdability) throws SQLException {
        checkOpen();
        if (holdability != ResultSet.HOLD_CURSORS_OVER_COMMIT) {
            throw JdbcErrors.unsupported("holdability other than HOLD_CURSORS_OVER_COMMIT");
        }
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return ResultSet.HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public Savepoint setSavepoint() throws SQLException {
        throw JdbcErrors.unsupported("savepoints");
    }

    @Override
    public Savepoint setSavepoint(String name) throws SQLException {
        throw JdbcErrors.unsupported("savepoints");
    }

    @Override
    public void rollback(Savepoint savepoint) throws SQLException {
        throw JdbcErrors.unsupported("savepoints");
    }

    @Override
    public void releaseSavepoint(Savepoint savepoint) throws SQLException {
        throw JdbcErrors.unsupported("savepoints");
    }

    @Override
    public Clob createClob() throws SQLException {
        throw JdbcErrors.unsupported("Clob (use strings)");
    }

    @Override
    public Blob createBlob() throws SQLException {
        throw JdbcErrors.unsupported("Blob (use byte arrays)");
    }

    @Override
    public NClob createNClob() throws SQLException {
        throw JdbcErrors.unsupported("NClob (use strings)");
    }

    @Override
    public SQLXML createSQLXML() throws SQLException {
        throw JdbcErrors.unsupported("SQLXML");
    }

    /** Fast: no round trip exists in an embedded database, so a connection is valid while it is open. */
    @Override
    public boolean isValid(int timeout) throws SQLException {
        if (timeout < 0) {
            throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "timeout " + timeout + " is negative");
        }
        return !closed;
    }

    @Override
    public void setClientInfo(String name, String value) throws SQLClientInfoException {
        if (closed) {
            throw new SQLClientInfoException("connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST, 0,
                    Map.of(name, ClientInfoStatus.REASON_UNKNOWN));
        }
        synchronized (clientInfo) {
            if (value == null) {
                clientInfo.remove(name);
            } else {
                clientInfo.setProperty(name, value);
            }
        }
    }

    @Override
    public void setClientInfo(Properties properties) throws SQLClientInfoException {
        if (closed) {
            Map<String, ClientInfoStatus> failed = new HashMap<>();
            for (String name : properties.stringPropertyNames()) {
                failed.put(name, ClientInfoStatus.REASON_UNKNOWN);
            }
            throw new SQLClientInfoException("connection is closed", SqlState.CONNECTION_DOES_NOT_EXIST, 0, failed);
        }
        synchronized (clientInfo) {
            clientInfo.clear();
            for (String name : properties.stringPropertyNames()) {
                clientInfo.setProperty(name, properties.getProperty(name));
            }
        }
    }

    @Override
    public String getClientInfo(String name) throws SQLException {
        checkOpen();
        synchronized (clientInfo) {
            return clientInfo.getProperty(name);
        }
    }

    @Override
    public Properties getClientInfo() throws SQLException {
        checkOpen();
        synchronized (clientInfo) {
            Properties copy = new Properties();
            copy.putAll(clientInfo);
            return copy;
        }
    }

    @Override
    public Array createArrayOf(String typeName, Object[] elements) throws SQLException {
        throw JdbcErrors.unsupported("ARRAY values");
    }

    @Override
    public Struct createStruct(String typeName, Object[] attributes) throws SQLException {
        throw JdbcErrors.unsupported("STRUCT values");
    }

    @Override
    public void setSchema(String schema) throws SQLException {
        checkOpen();
        if (schema == null) {
            throw JdbcErrors.of(SqlState.INVALID_SCHEMA_NAME, "schema name is null");
        }
        synchronized (lock) {
            try {
                session.setSchema(schema);
            } catch (SqlError e) {
                throw JdbcErrors.from(e);
            } catch (RuntimeException e) {
                throw JdbcErrors.from(e);
            }
        }
    }

    @Override
    public String getSchema() throws SQLException {
        checkOpen();
        return session.schema();
    }

    /** Closes the connection now; resources are released on {@code executor} once a running call ends. */
    @Override
    public void abort(Executor executor) throws SQLException {
        if (executor == null) {
            throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "executor is null");
        }
        if (closed) {
            return;
        }
        closed = true;
        executor.execute(this::release);
    }

    /** Remembered for pools; an embedded connection has no network to time out. */
    @Override
    public void setNetworkTimeout(Executor executor, int milliseconds) throws SQLException {
        checkOpen();
        if (milliseconds < 0) {
            throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "network timeout " + milliseconds + " is negative");
        }
        networkTimeoutMillis = milliseconds;
    }

    @Override
    public int getNetworkTimeout() throws SQLException {
        checkOpen();
        return networkTimeoutMillis;
    }

    Durability durability() {
        return settings.durability();
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return SelfWrapper.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    @Override
    public String toString() {
        return "KegConnection[" + settings.storeName() + (closed ? ", closed" : "") + "]";
    }
}
