package io.kegdb.sql;

import io.kegdb.engine.Durability;

/**
 * One connection's view of a {@link SqlDatabase}: statements, and a transaction overlay on the store
 * (buffered writes, read-your-writes; commit = one atomic batch; rollback = discard). Not thread-safe:
 * one thread at a time, as JDBC connections are used.
 */
public interface SqlSession extends AutoCloseable {

    /** Parses, validates and plans {@code sql} once; plans are cached per statement text and catalog version. */
    default SqlStatement prepare(String sql) throws SqlError {
        return prepare(sql, Deadline.none());
    }

    /** {@link #prepare(String)} that stops with SQLState HYT00 once {@code deadline} is reached. */
    SqlStatement prepare(String sql, Deadline deadline) throws SqlError;

    /** Prepares and executes {@code sql} without parameters. */
    SqlResult execute(String sql) throws SqlError;

    /** Autocommit (the default): each statement is written as its own atomic batch with {@link #durability()}. */
    void setAutoCommit(boolean autoCommit) throws SqlError;

    boolean autoCommit();

    /** Durability of autocommitted statements and of {@link #commit()}. */
    void setDurability(Durability durability);

    Durability durability();

    /**
     * The isolation level of the transactions that start from now on (see {@link Isolation});
     * SQLState 25001 while a transaction is open.
     */
    void setIsolation(Isolation isolation) throws SqlError;

    Isolation isolation();

    /** True while writes are buffered and not yet committed. */
    boolean inTransaction();

    /** Writes the buffered writes as one atomic batch; SQLState 40001 or 23505 if a check fails at commit. */
    void commit() throws SqlError;

    /** Discards the buffered writes. */
    void rollback();

    /**
     * Logs this session's statements that take at least {@code millis} milliseconds, through SLF4J at WARN
     * (logger {@code io.kegdb.sql.SlowStatements}) with their normalized text, never their values;
     * 0 (the default) logs none.
     */
    void setSlowStatementThreshold(long millis);

    /**
     * Whether this session's statements are counted (on by default): their calls, time, rows and conflicts in
     * {@code SYS.STATEMENTS} and in the statement meters ({@code kegdb.sql.statements}, {@code .statement.seconds},
     * {@code .rows.*}). Off, a statement reads no clock and records nothing, unless the slow-statement threshold
     * is set, which still times it.
     */
    void setStatementStatistics(boolean on);

    /** A read-only session rejects writes with SQLState 25006. */
    void setReadOnly(boolean readOnly);

    boolean readOnly();

    /** Schema that unqualified table names resolve in. */
    String schema();

    void setSchema(String schema) throws SqlError;

    /** Discards uncommitted writes and releases the session. */
    @Override
    void close();
}
