package io.kegdb.sql.plan;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlResult;
import io.kegdb.sql.SqlState;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.linq4j.Enumerator;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.List;

/** Rows of a query, read lazily from an enumerator, values converted to the API's Java types. */
public final class EnumeratorResult implements SqlResult {

    private final List<ColumnInfo> columns;
    private final Enumerator<?> rows;
    private final long maxRows;
    private long produced;
    private Object[] current;
    private boolean closed;

    public EnumeratorResult(List<ColumnInfo> columns, Enumerator<?> rows, long maxRows) {
        this.columns = columns;
        this.rows = rows;
        this.maxRows = maxRows;
    }

    @Override
    public boolean isQuery() {
        return true;
    }

    @Override
    public long updateCount() {
        return -1;
    }

    @Override
    public List<ColumnInfo> columns() {
        return columns;
    }

    @Override
    public boolean next() throws SqlError {
        if (closed || (maxRows > 0 && produced >= maxRows)) {
            current = null;
            return false;
        }
        try {
            if (!rows.moveNext()) {
                current = null;
                close();
                return false;
            }
            Object row = rows.current();
            current = row instanceof Object[] a && (columns.size() != 1 || a.length == 1) ? a : new Object[] {row};
            produced++;
            return true;
        } catch (RuntimeException | AssertionError | StackOverflowError | LinkageError e) {
            close();
            throw SqlErrors.translate(e);
        }
    }

    @Override
    public Object get(int index) throws SqlError {
        if (current == null) {
            throw new SqlError(SqlState.INVALID_CURSOR_STATE, "no current row");
        }
        if (index < 0 || index >= columns.size()) {
            throw new SqlError(SqlState.INVALID_DESCRIPTOR_INDEX,
                    "column index " + index + " out of range 0.." + (columns.size() - 1));
        }
        return external(current[index], columns.get(index).typeName());
    }

    /** Calcite's internal value to the API's type (byte[], java.time). */
    static Object external(Object v, String typeName) {
        if (v == null) {
            return null;
        }
        if (v instanceof ByteString b) {
            return b.getBytes();
        }
        switch (typeName) {
            case "DATE":
                return v instanceof Number n ? LocalDate.ofEpochDay(n.longValue()) : v;
            case "TIME":
                return v instanceof Number n ? LocalTime.ofNanoOfDay(n.longValue() * 1_000_000L) : v;
            case "TIMESTAMP":
                return v instanceof Number n
                        ? LocalDateTime.ofEpochSecond(Math.floorDiv(n.longValue(), 1000),
                                Math.floorMod(n.longValue(), 1000) * 1_000_000, ZoneOffset.UTC)
                        : v;
            default:
                return v;
        }
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            rows.close();
        }
    }
}
