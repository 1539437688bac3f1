package io.kegdb.jdbc;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlResult;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.SqlStatement;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.Reader;
import java.io.StringReader;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.SQLXML;
import java.sql.Statement;
import java.sql.Time;
import java.sql.Timestamp;
import java.util.Calendar;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A forward-only, read-only cursor over a {@link SqlResult}. Honours the statement's max rows, query timeout
 * and {@code cancel()} while rows are fetched.
 */
final class KegResultSet extends ReadOnlyResultSet {
    private static final int DEADLINE_CHECK_EVERY = 256;

    private final KegStatement statement;
    private final Object lock;
    private final SqlResult result;
    private final SqlStatement ownedStatement;
    private final List<ColumnInfo> columns;
    private final long maxRows;
    private final long deadlineNanos;
    private Map<String, Integer> columnIndex;
    private long row;
    private boolean onRow;
    private boolean afterLast;
    private boolean wasNull;
    private boolean closed;
    private int fetchSize;

    /**
     * @param statement      the statement that made it, or null for metadata results
     * @param lock           the connection's lock, held while the session is used
     * @param ownedStatement a prepared statement to close with this result set, or null
     * @param deadlineNanos  {@code System.nanoTime()} after which fetching fails with HYT00, or 0 for none
     */
    KegResultSet(KegStatement statement, Object lock, SqlResult result, SqlStatement ownedStatement, long maxRows,
                 long deadlineNanos) {
        this.statement = statement;
        this.lock = lock;
        this.result = result;
        this.ownedStatement = ownedStatement;
        this.columns = result.columns();
        this.maxRows = maxRows;
        this.deadlineNanos = deadlineNanos;
    }

    /** An in-memory result set (metadata, generated keys). */
    static KegResultSet ofRows(KegStatement statement, RowsResult rows) {
        return new KegResultSet(statement, new Object(), rows, null, 0, 0);
    }

    private void checkOpen() throws SQLException {
        if (closed) {
            throw JdbcErrors.closed("result set");
        }
    }

    @Override
    public boolean next() throws SQLException {
        checkOpen();
        if (afterLast) {
            return false;
        }
        if (maxRows > 0 && row >= maxRows) {
            return endOfRows();
        }
        if (statement != null) {
            statement.checkNotCancelled();
        }
        if (deadlineNanos != 0 && (row % DEADLINE_CHECK_EVERY == 0) && System.nanoTime() - deadlineNanos > 0) {
            throw JdbcErrors.of(SqlState.TIMEOUT_EXPIRED, "query timeout reached after " + row + " rows");
        }
        boolean has;
        try {
            synchronized (lock) {
                has = result.next();
            }
        } catch (SqlError e) {
            throw JdbcErrors.from(e);
        } catch (RuntimeException e) {
            throw JdbcErrors.from(e);
        }
        if (!has) {
            return endOfRows();
        }
        row++;
        onRow = true;
        return true;
    }

    private boolean endOfRows() {
        onRow = false;
        afterLast = true;
        return false;
    }

    private Object value(int columnIndex) throws SQLException {
        checkOpen();
        if (columnIndex < 1 || columnIndex > columns.size()) {
            throw JdbcErrors.of(SqlState.INVALID_DESCRIPTOR_INDEX,
                    "column index " + columnIndex + " out of range 1.." + columns.size());
        }
        if (!onRow) {
            throw JdbcErrors.of(SqlState.INVALID_CURSOR_STATE, afterLast ? "no current row: after the last row"
                    : "no current row: call next() first");
        }
        Object v;
        try {
            v = result.get(columnIndex - 1);
        } catch (SqlError e) {
            throw JdbcErrors.from(e);
        } catch (RuntimeException e) {
            throw JdbcErrors.from(e);
        }
        wasNull = v == null;
        return v;
    }

    @Override
    public boolean wasNull() throws SQLException {
        checkOpen();
        return wasNull;
    }

    @Override
    public int findColumn(String label) throws SQLException {
        checkOpen();
        if (columnIndex == null) {
            Map<String, Integer> exact = new HashMap<>();
            for (int i = columns.size() - 1; i >= 0; i--) {
                exact.put(columns.get(i).name(), i + 1);
            }
            columnIndex = exact;
        }
        Integer i = label == null ? null : columnIndex.get(label);
        if (i == null && label != null) {
            // JDBC labels match case-insensitively; the first matching column wins.
            for (int c = 0; c < columns.size(); c++) {
                if (columns.get(c).name().equalsIgnoreCase(label)) {
                    i = c + 1;
                    break;
                }
            }
        }
        if (i == null) {
            throw JdbcErrors.of(SqlState.COLUMN_NOT_FOUND, "no column '" + label + "' in this result set");
        }
        return i;
    }

    @Override
    public String getString(int c) throws SQLException {
        return ColumnValues.toStringValue(value(c));
    }

    @Override
    public boolean getBoolean(int c) throws SQLException {
        Object v = value(c);
        return v != null && ColumnValues.toBoolean(v);
    }

    @Override
    public byte getByte(int c) throws SQLException {
        Object v = value(c);
        return v == null ? 0 : (byte) ColumnValues.toLong(v);
    }

    @Override
    public short getShort(int c) throws SQLException {
        Object v = value(c);
        return v == null ? 0 : (short) ColumnValues.toLong(v);
    }

    @Override
    public int getInt(int c) throws SQLException {
        Object v = value(c);
        return v == null ? 0 : ColumnValues.toInt(v);
    }

    @Override
    public long getLong(int c) throws SQLException {
        Object v = value(c);
        return v == null ? 0 : ColumnValues.toLong(v);
    }

    @Override
    public float getFloat(int c) throws SQLException {
        Object v = value(c);
        return v == null ? 0 : (float) ColumnValues.toDouble(v);
    }

    @Override
    public double getDouble(int c) throws SQLException {
        Object v = value(c);
        return v == null ? 0 : ColumnValues.toDouble(v);
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(int c, int scale) throws SQLException {
        BigDecimal d = getBigDecimal(c);
        return d == null ? null : d.setScale(scale, RoundingMode.HALF_UP);
    }

    @Override
    public BigDecimal getBigDecimal(int c) throws SQLException {
        Object v = value(c);
        return v == null ? null : ColumnValues.toBigDecimal(v);
    }

    @Override
    public byte[] getBytes(int c) throws SQLException {
        Object v = value(c);
        return v == null ? null : ColumnValues.toBytes(v);
    }

    @Override
    public Date getDate(int c) throws SQLException {
        Object v = value(c);
        return v == null ? null : ColumnValues.toDate(v);
    }

    @Override
    public Time getTime(int c) throws SQLException {
        Object v = value(c);
        return v == null ? null : ColumnValues.toTime(v);
    }

    @Override
    public Timestamp getTimestamp(int c) throws SQLException {
        Object v = value(c);
        return v == null ? null : ColumnValues.toTimestamp(v);
    }

    @Override
    public InputStream getAsciiStream(int c) throws SQLException {
        String s = getString(c);
        return s == null ? null : new ByteArrayInputStream(s.getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(int c) throws SQLException {
        String s = getString(c);
        return s == null ? null : new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_16BE));
    }

    @Override
    public InputStream getBinaryStream(int c) throws SQLException {
        byte[] b = getBytes(c);
        return b == null ? null : new ByteArrayInputStream(b);
    }

    @Override
    public String getString(String l) throws SQLException {
        return getString(findColumn(l));
    }

    @Override
    public boolean getBoolean(String l) throws SQLException {
        return getBoolean(findColumn(l));
    }

    @Override
    public byte getByte(String l) throws SQLException {
        return getByte(findColumn(l));
    }

    @Override
    public short getShort(String l) throws SQLException {
        return getShort(findColumn(l));
    }

    @Override
    public int getInt(String l) throws SQLException {
        return getInt(findColumn(l));
    }

    @Override
    public long getLong(String l) throws SQLException {
        return getLong(findColumn(l));
    }

    @Override
    public float getFloat(String l) throws SQLException {
        return getFloat(findColumn(l));
    }

    @Override
    public double getDouble(String l) throws SQLException {
        return getDouble(findColumn(l));
    }

    @Override
    @Deprecated
    public BigDecimal getBigDecimal(String l, int scale) throws SQLException {
        return getBigDecimal(findColumn(l), scale);
    }

    @Override
    public byte[] getBytes(String l) throws SQLException {
        return getBytes(findColumn(l));
    }

    @Override
    public Date getDate(String l) throws SQLException {
        return getDate(findColumn(l));
    }

    @Override
    public Time getTime(String l) throws SQLException {
        return getTime(findColumn(l));
    }

    @Override
    public Timestamp getTimestamp(String l) throws SQLException {
        return getTimestamp(findColumn(l));
    }

    @Override
    public InputStream getAsciiStream(String l) throws SQLException {
        return getAsciiStream(findColumn(l));
    }

    @Override
    @Deprecated
    public InputStream getUnicodeStream(String l) throws SQLException {
        return getUnicodeStream(findColumn(l));
    }

    @Override
    public InputStream getBinaryStream(String l) throws SQLException {
        return getBinaryStream(findColumn(l));
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() throws SQLException {
        checkOpen();
    }

    @Override
    public String getCursorName() throws SQLException {
        throw JdbcErrors.unsupported("named cursors");
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return new KegResultSetMetaData(columns);
    }

    @Override
    public Object getObject(int c) throws SQLException {
        return ColumnValues.toJdbcObject(value(c), columns.get(c - 1).jdbcType());
    }

    @Override
    public Object getObject(String l) throws SQLException {
        return getObject(findColumn(l));
    }

    @Override
    public Reader getCharacterStream(int c) throws SQLException {
        String s = getString(c);
        return s == null ? null : new StringReader(s);
    }

    @Override
    public Reader getCharacterStream(String l) throws SQLException {
        return getCharacterStream(findColumn(l));
    }

    @Override
    public BigDecimal getBigDecimal(String l) throws SQLException {
        return getBigDecimal(findColumn(l));
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        checkOpen();
        return row == 0 && !afterLast;
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        checkOpen();
        return afterLast && row > 0;
    }

    @Override
    public boolean isFirst() throws SQLException {
        checkOpen();
        return onRow && row == 1;
    }

    @Override
    public boolean isLast() throws SQLException {
        throw JdbcErrors.unsupported("isLast() on a forward-only result set");
    }

    @Override
    public void beforeFirst() throws SQLException {
        throw forwardOnly("beforeFirst");
    }

    @Override
    public void afterLast() throws SQLException {
        throw forwardOnly("afterLast");
    }

    @Override
    public boolean first() throws SQLException {
        throw forwardOnly("first");
    }

    @Override
    public boolean last() throws SQLException {
        throw forwardOnly("last");
    }

    @Override
    public int getRow() throws SQLException {
        checkOpen();
        return onRow ? (int) Math.min(row, Integer.MAX_VALUE) : 0;
    }

    @Override
    public boolean absolute(int r) throws SQLException {
        throw forwardOnly("absolute");
    }

    @Override
    public boolean relative(int r) throws SQLException {
        throw forwardOnly("relative");
    }

    @Override
    public boolean previous() throws SQLException {
        throw forwardOnly("previous");
    }

    private SQLException forwardOnly(String method) {
        return JdbcErrors.of(SqlState.INVALID_CURSOR_STATE,
                method + "() needs a scrollable result set; KegDB's are TYPE_FORWARD_ONLY");
    }

    @Override
    public void setFetchDirection(int direction) throws SQLException {
        checkOpen();
        if (direction != FETCH_FORWARD) {
            throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE,
                    "only FETCH_FORWARD is possible on a forward-only result set");
        }
    }

    @Override
    public int getFetchDirection() throws SQLException {
        checkOpen();
        return FETCH_FORWARD;
    }

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
    public int getType() throws SQLException {
        checkOpen();
        return TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() throws SQLException {
        checkOpen();
        return CONCUR_READ_ONLY;
    }

    @Override
    public Statement getStatement() throws SQLException {
        checkOpen();
        return statement;
    }

    @Override
    public Object getObject(int c, Map<String, Class<?>> map) throws SQLException {
        return getObject(c);
    }

    @Override
    public Ref getRef(int c) throws SQLException {
        throw JdbcErrors.unsupported("REF values");
    }

    @Override
    public Blob getBlob(int c) throws SQLException {
        throw JdbcErrors.unsupported("Blob (use getBytes)");
    }

    @Override
    public Clob getClob(int c) throws SQLException {
        throw JdbcErrors.unsupported("Clob (use getString)");
    }

    @Override
    public Array getArray(int c) throws SQLException {
        throw JdbcErrors.unsupported("ARRAY values");
    }

    @Override
    public Object getObject(String l, Map<String, Class<?>> map) throws SQLException {
        return getObject(findColumn(l));
    }

    @Override
    public Ref getRef(String l) throws SQLException {
        return getRef(findColumn(l));
    }

    @Override
    public Blob getBlob(String l) throws SQLException {
        return getBlob(findColumn(l));
    }

    @Override
    public Clob getClob(String l) throws SQLException {
        return getClob(findColumn(l));
    }

    @Override
    public Array getArray(String l) throws SQLException {
        return getArray(findColumn(l));
    }

    @Override
    public Date getDate(int c, Calendar cal) throws SQLException {
        return getDate(c);
    }

    @Override
    public Date getDate(String l, Calendar cal) throws SQLException {
        return getDate(findColumn(l));
    }

    @Override
    public Time getTime(int c, Calendar cal) throws SQLException {
        return getTime(c);
    }

    @Override
    public Time getTime(String l, Calendar cal) throws SQLException {
        return getTime(findColumn(l));
    }

    @Override
    public Timestamp getTimestamp(int c, Calendar cal) throws SQLException {
        return getTimestamp(c);
    }

    @Override
    public Timestamp getTimestamp(String l, Calendar cal) throws SQLException {
        return getTimestamp(findColumn(l));
    }

    @Override
    public java.net.URL getURL(int c) throws SQLException {
        String s = getString(c);
        if (s == null) {
            return null;
        }
        try {
            return new java.net.URI(s).toURL();
        } catch (Exception e) {
            throw JdbcErrors.of(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST, "not a URL: " + s, e);
        }
    }

    @Override
    public java.net.URL getURL(String l) throws SQLException {
        return getURL(findColumn(l));
    }

    @Override
    public RowId getRowId(int c) throws SQLException {
        throw JdbcErrors.unsupported("ROWID");
    }

    @Override
    public RowId getRowId(String l) throws SQLException {
        return getRowId(findColumn(l));
    }

    @Override
    public int getHoldability() throws SQLException {
        checkOpen();
        return HOLD_CURSORS_OVER_COMMIT;
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public NClob getNClob(int c) throws SQLException {
        throw JdbcErrors.unsupported("NClob (use getString)");
    }

    @Override
    public NClob getNClob(String l) throws SQLException {
        return getNClob(findColumn(l));
    }

    @Override
    public SQLXML getSQLXML(int c) throws SQLException {
        throw JdbcErrors.unsupported("SQLXML");
    }

    @Override
    public SQLXML getSQLXML(String l) throws SQLException {
        return getSQLXML(findColumn(l));
    }

    @Override
    public String getNString(int c) throws SQLException {
        return getString(c);
    }

    @Override
    public String getNString(String l) throws SQLException {
        return getString(findColumn(l));
    }

    @Override
    public Reader getNCharacterStream(int c) throws SQLException {
        return getCharacterStream(c);
    }

    @Override
    public Reader getNCharacterStream(String l) throws SQLException {
        return getCharacterStream(findColumn(l));
    }

    @Override
    public <T> T getObject(int c, Class<T> type) throws SQLException {
        if (type == null) {
            throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "type is null");
        }
        return ColumnValues.toType(value(c), type);
    }

    @Override
    public <T> T getObject(String l, Class<T> type) throws SQLException {
        return getObject(findColumn(l), type);
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        onRow = false;
        synchronized (lock) {
            try {
                result.close();
            } finally {
                if (ownedStatement != null) {
                    ownedStatement.close();
                }
            }
        }
        if (statement != null) {
            statement.resultClosed(this);
        }
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
        return "KegResultSet[" + columns.size() + " columns, row " + row + (closed ? ", closed" : "") + "]";
    }
}
