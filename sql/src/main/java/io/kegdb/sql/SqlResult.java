package io.kegdb.sql;

import java.util.List;

/** What executing a statement produced: rows (a forward-only cursor) or an update count. */
public interface SqlResult extends AutoCloseable {

    boolean isQuery();

    /** Rows changed by DML, 0 for DDL, -1 for a query. */
    long updateCount();

    /** Result columns; empty for an update. */
    List<ColumnInfo> columns();

    /** Advances to the next row; false at the end. */
    boolean next() throws SqlError;

    /**
     * Column {@code index} (0-based) of the current row: String, byte[], Long, Integer, Double,
     * java.math.BigDecimal, Boolean, java.time types for dates, or null.
     */
    Object get(int index) throws SqlError;

    @Override
    void close();
}
