package io.kegdb.sql;

import java.util.List;

/** A prepared statement of a {@link SqlSession}; execute it any number of times with new parameters. */
public interface SqlStatement extends AutoCloseable {

    /** The SQL text. */
    String sql();

    /** True for statements that return rows. */
    boolean isQuery();

    /** Number of {@code ?} parameters. */
    int parameterCount();

    /** Type of each parameter as far as validation could infer it (JDBC type codes in {@link ColumnInfo}). */
    List<ColumnInfo> parameters();

    /** Result columns of a query; empty otherwise. */
    List<ColumnInfo> columns();

    /**
     * Runs the statement with {@code params} (index 0 is the first {@code ?}; String, byte[], Long/Integer,
     * other Numbers, Boolean, or null). {@code maxRows} 0 means no limit.
     */
    default SqlResult execute(List<?> params, long maxRows) throws SqlError {
        return execute(params, maxRows, Deadline.none());
    }

    /**
     * {@link #execute(List, long)} that stops with SQLState HYT00 once {@code deadline} is reached: while
     * it runs, and while the rows of a query are read from the result.
     */
    SqlResult execute(List<?> params, long maxRows, Deadline deadline) throws SqlError;

    @Override
    void close();
}
