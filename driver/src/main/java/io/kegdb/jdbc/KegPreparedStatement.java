package io.kegdb.jdbc;

import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.SqlStatement;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.math.BigDecimal;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.sql.Array;
import java.sql.Blob;
import java.sql.Clob;
import java.sql.Date;
import java.sql.NClob;
import java.sql.ParameterMetaData;
import java.sql.PreparedStatement;
import java.sql.Ref;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.RowId;
import java.sql.SQLException;
import java.sql.SQLXML;
import java.sql.Time;
import java.sql.Timestamp;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Calendar;
import java.util.List;
import java.util.UUID;

/**
 * A statement prepared once by the session (parsed, validated, planned) and executed with new parameters
 * any number of times. Parameters travel to the SQL layer as String, byte[], Long/Integer, other Numbers,
 * Boolean or null; dates and times as their SQL literal text.
 */
final class KegPreparedStatement extends KegStatement implements PreparedStatement {
    private static final Object UNSET = new Object();

    private final SqlStatement prepared;
    private final Object[] params;
    private final List<Object[]> batch = new ArrayList<>();

    KegPreparedStatement(KegConnection connection, SqlStatement prepared) {
        super(connection);
        this.prepared = prepared;
        this.params = new Object[prepared.parameterCount()];
        Arrays.fill(params, UNSET);
    }

    @Override
    void closeResources() {
        synchronized (connection.lock) {
            prepared.close();
        }
    }

    private List<Object> boundParameters(Object[] values) throws SQLException {
        for (int i = 0; i < values.length; i++) {
            if (values[i] == UNSET) {
                throw JdbcErrors.of(SqlState.PARAMETER_MISSING, "parameter " + (i + 1) + " of " + values.length
                        + " has no value: " + prepared.sql());
            }
        }
        return Arrays.asList(values.clone());
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        checkOpen();
        run(prepared, boundParameters(params), Expect.ROWS, false);
        return currentResult();
    }

    @Override
    public int executeUpdate() throws SQLException {
        return clampCount(executeLargeUpdate());
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        checkOpen();
        run(prepared, boundParameters(params), Expect.COUNT, false);
        return lastUpdateCount();
    }

    @Override
    public boolean execute() throws SQLException {
        checkOpen();
        return run(prepared, boundParameters(params), Expect.ANY, false);
    }

    @Override
    public void addBatch() throws SQLException {
        checkOpen();
        boundParameters(params);
        batch.add(params.clone());
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
        List<Object[]> rows = new ArrayList<>(batch);
        batch.clear();
        long[] counts = new long[rows.size()];
        Deadline limit = startDeadline(); // the query timeout covers the whole batch
        for (int i = 0; i < rows.size(); i++) {
            try {
                run(prepared, Arrays.asList(rows.get(i)), Expect.COUNT, false, limit);
                counts[i] = lastUpdateCount();
            } catch (SQLException e) {
                throw batchFailure(e, counts, i);
            }
        }
        return counts;
    }

    @Override
    public void clearParameters() throws SQLException {
        checkOpen();
        Arrays.fill(params, UNSET);
    }

    private void bind(int index, Object value) throws SQLException {
        checkOpen();
        if (index < 1 || index > params.length) {
            throw JdbcErrors.of(SqlState.INVALID_DESCRIPTOR_INDEX,
                    "parameter index " + index + " out of range 1.." + params.length
                    + " for: " + prepared.sql());
        }
        params[index - 1] = value;
    }

    /** The SQL layer's parameter form of a Java value. */
    static Object parameterValue(Object x) throws SQLException {
        if (x == null || x instanceof String || x instanceof byte[] || x instanceof Number || x instanceof Boolean) {
            return x;
        }
        if (x instanceof java.util.Date || x instanceof Temporal || x instanceof Character || x instanceof UUID) {
            return x.toString();
        }
        if (x instanceof Enum<?> e) {
            return e.name();
        }
        throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "parameters of type " + x.getClass().getName()
                + " are not supported (use String, byte[], numbers, Boolean, dates)");
    }

    @Override
    public void setNull(int i, int sqlType) throws SQLException {
        bind(i, null);
    }

    @Override
    public void setNull(int i, int sqlType, String typeName) throws SQLException {
        bind(i, null);
    }

    @Override
    public void setBoolean(int i, boolean x) throws SQLException {
        bind(i, x);
    }

    @Override
    public void setByte(int i, byte x) throws SQLException {
        bind(i, (int) x);
    }

    @Override
    public void setShort(int i, short x) throws SQLException {
        bind(i, (int) x);
    }

    @Override
    public void setInt(int i, int x) throws SQLException {
        bind(i, x);
    }

    @Override
    public void setLong(int i, long x) throws SQLException {
        bind(i, x);
    }

    @Override
    public void setFloat(int i, float x) throws SQLException {
        bind(i, (double) x);
    }

    @Override
    public void setDouble(int i, double x) throws SQLException {
        bind(i, x);
    }

    @Override
    public void setBigDecimal(int i, BigDecimal x) throws SQLException {
        bind(i, x);
    }

    @Override
    public void setString(int i, String x) throws SQLException {
        bind(i, x);
    }

    @Override
    public void setNString(int i, String x) throws SQLException {
        bind(i, x);
    }

    @Override
    public void setBytes(int i, byte[] x) throws SQLException {
        bind(i, x == null ? null : x.clone());
    }

    @Override
    public void setDate(int i, Date x) throws SQLException {
        bind(i, parameterValue(x));
    }

    @Override
    public void setDate(int i, Date x, Calendar cal) throws SQLException {
        bind(i, parameterValue(x));
    }

    @Override
    public void setTime(int i, Time x) throws SQLException {
        bind(i, parameterValue(x));
    }

    @Override
    public void setTime(int i, Time x, Calendar cal) throws SQLException {
        bind(i, parameterValue(x));
    }

    @Override
    public void setTimestamp(int i, Timestamp x) throws SQLException {
        bind(i, parameterValue(x));
    }

    @Override
    public void setTimestamp(int i, Timestamp x, Calendar cal) throws SQLException {
        bind(i, parameterValue(x));
    }

    @Override
    public void setObject(int i, Object x) throws SQLException {
        bind(i, parameterValue(x));
    }

    @Override
    public void setObject(int i, Object x, int targetSqlType) throws SQLException {
        bind(i, x == null ? null : parameterValue(ColumnValues.toJdbcObject(x, targetSqlType)));
    }

    @Override
    public void setObject(int i, Object x, int targetSqlType, int scaleOrLength) throws SQLException {
        setObject(i, x, targetSqlType);
    }

    @Override
    public void setURL(int i, URL x) throws SQLException {
        bind(i, x == null ? null : x.toString());
    }

    @Override
    public void setAsciiStream(int i, InputStream x, int length) throws SQLException {
        setAsciiStream(i, x, (long) length);
    }

    @Override
    public void setAsciiStream(int i, InputStream x, long length) throws SQLException {
        bind(i, x == null ? null : new String(readBytes(x, length), StandardCharsets.US_ASCII));
    }

    @Override
    public void setAsciiStream(int i, InputStream x) throws SQLException {
        setAsciiStream(i, x, -1L);
    }

    @Override
    @Deprecated
    public void setUnicodeStream(int i, InputStream x, int length) throws SQLException {
        bind(i, x == null ? null : new String(readBytes(x, length), StandardCharsets.UTF_16BE));
    }

    @Override
    public void setBinaryStream(int i, InputStream x, int length) throws SQLException {
        setBinaryStream(i, x, (long) length);
    }

    @Override
    public void setBinaryStream(int i, InputStream x, long length) throws SQLException {
        bind(i, x == null ? null : readBytes(x, length));
    }

    @Override
    public void setBinaryStream(int i, InputStream x) throws SQLException {
        setBinaryStream(i, x, -1L);
    }

    @Override
    public void setCharacterStream(int i, Reader r, int length) throws SQLException {
        setCharacterStream(i, r, (long) length);
    }

    @Override
    public void setCharacterStream(int i, Reader r, long length) throws SQLException {
        bind(i, r == null ? null : readChars(r, length));
    }

    @Override
    public void setCharacterStream(int i, Reader r) throws SQLException {
        setCharacterStream(i, r, -1L);
    }

    @Override
    public void setNCharacterStream(int i, Reader r, long length) throws SQLException {
        setCharacterStream(i, r, length);
    }

    @Override
    public void setNCharacterStream(int i, Reader r) throws SQLException {
        setCharacterStream(i, r, -1L);
    }

    @Override
    public void setBlob(int i, InputStream x, long length) throws SQLException {
        setBinaryStream(i, x, length);
    }

    @Override
    public void setBlob(int i, InputStream x) throws SQLException {
        setBinaryStream(i, x, -1L);
    }

    @Override
    public void setBlob(int i, Blob x) throws SQLException {
        bind(i, x == null ? null : x.getBytes(1, (int) x.length()));
    }

    @Override
    public void setClob(int i, Reader r, long length) throws SQLException {
        setCharacterStream(i, r, length);
    }

    @Override
    public void setClob(int i, Reader r) throws SQLException {
        setCharacterStream(i, r, -1L);
    }

    @Override
    public void setClob(int i, Clob x) throws SQLException {
        bind(i, x == null ? null : x.getSubString(1, (int) x.length()));
    }

    @Override
    public void setNClob(int i, NClob x) throws SQLException {
        setClob(i, x);
    }

    @Override
    public void setNClob(int i, Reader r, long length) throws SQLException {
        setCharacterStream(i, r, length);
    }

    @Override
    public void setNClob(int i, Reader r) throws SQLException {
        setCharacterStream(i, r, -1L);
    }

    @Override
    public void setRef(int i, Ref x) throws SQLException {
        throw JdbcErrors.unsupported("REF parameters");
    }

    @Override
    public void setArray(int i, Array x) throws SQLException {
        throw JdbcErrors.unsupported("ARRAY parameters");
    }

    @Override
    public void setRowId(int i, RowId x) throws SQLException {
        throw JdbcErrors.unsupported("ROWID parameters");
    }

    @Override
    public void setSQLXML(int i, SQLXML x) throws SQLException {
        throw JdbcErrors.unsupported("SQLXML parameters");
    }

    private static byte[] readBytes(InputStream in, long length) throws SQLException {
        try {
            return length < 0 ? in.readAllBytes() : in.readNBytes(Math.toIntExact(length));
        } catch (IOException | ArithmeticException e) {
            throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "cannot read parameter stream: " + e.getMessage(), e);
        }
    }

    private static String readChars(Reader r, long length) throws SQLException {
        try {
            StringBuilder sb = new StringBuilder();
            char[] buf = new char[8192];
            long remaining = length < 0 ? Long.MAX_VALUE : length;
            int n;
            while (remaining > 0 && (n = r.read(buf, 0, (int) Math.min(buf.length, remaining))) > 0) {
                sb.append(buf, 0, n);
                remaining -= n;
            }
            return sb.toString();
        } catch (IOException e) {
            throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "cannot read parameter reader: " + e.getMessage(), e);
        }
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        checkOpen();
        return prepared.isQuery() ? new KegResultSetMetaData(prepared.columns()) : null;
    }

    @Override
    public ParameterMetaData getParameterMetaData() throws SQLException {
        checkOpen();
        return new KegParameterMetaData(prepared.parameters());
    }

    private SQLException textOnPrepared() {
        return JdbcErrors.of(SqlState.FUNCTION_SEQUENCE_ERROR,
                "SQL text cannot be passed to a PreparedStatement's execute methods");
    }

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        throw textOnPrepared();
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        throw textOnPrepared();
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        throw textOnPrepared();
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        throw textOnPrepared();
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        throw textOnPrepared();
    }

    @Override
    public String toString() {
        return prepared.sql();
    }
}
