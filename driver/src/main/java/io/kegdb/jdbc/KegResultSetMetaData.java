package io.kegdb.jdbc;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.SqlState;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Types;
import java.util.List;

/** Column descriptions of a result set, straight from the SQL layer's {@link ColumnInfo}. */
final class KegResultSetMetaData implements ResultSetMetaData {
    private final List<ColumnInfo> columns;

    KegResultSetMetaData(List<ColumnInfo> columns) {
        this.columns = columns;
    }

    private ColumnInfo column(int i) throws SQLException {
        if (i < 1 || i > columns.size()) {
            throw JdbcErrors.of(SqlState.INVALID_DESCRIPTOR_INDEX,
                    "column index " + i + " out of range 1.." + columns.size());
        }
        return columns.get(i - 1);
    }

    @Override
    public int getColumnCount() {
        return columns.size();
    }

    @Override
    public boolean isAutoIncrement(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public boolean isCaseSensitive(int column) throws SQLException {
        return isText(column(column).jdbcType());
    }

    @Override
    public boolean isSearchable(int column) throws SQLException {
        column(column);
        return true;
    }

    @Override
    public boolean isCurrency(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public int isNullable(int column) throws SQLException {
        return column(column).nullable() ? columnNullable : columnNoNulls;
    }

    @Override
    public boolean isSigned(int column) throws SQLException {
        return ColumnValues.isSigned(column(column).jdbcType());
    }

    @Override
    public int getColumnDisplaySize(int column) throws SQLException {
        ColumnInfo c = column(column);
        return switch (c.jdbcType()) {
            case Types.BIGINT -> 20;
            case Types.INTEGER -> 11;
            case Types.SMALLINT -> 6;
            case Types.TINYINT -> 4;
            case Types.BOOLEAN, Types.BIT -> 5;
            case Types.DOUBLE, Types.FLOAT -> 24;
            case Types.REAL -> 15;
            case Types.DATE -> 10;
            case Types.TIME -> 8;
            case Types.TIMESTAMP -> 23;
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> c.precision() > 0 ? Math.min(2 * c.precision(), Integer.MAX_VALUE / 2) : 64;
            default -> c.precision() > 0 ? c.precision() : 64;
        };
    }

    @Override
    public String getColumnLabel(int column) throws SQLException {
        return column(column).name();
    }

    @Override
    public String getColumnName(int column) throws SQLException {
        return column(column).name();
    }

    @Override
    public String getSchemaName(int column) throws SQLException {
        String s = column(column).schema();
        return s == null ? "" : s;
    }

    @Override
    public int getPrecision(int column) throws SQLException {
        return Math.max(0, column(column).precision());
    }

    @Override
    public int getScale(int column) throws SQLException {
        return column(column).scale();
    }

    @Override
    public String getTableName(int column) throws SQLException {
        String t = column(column).table();
        return t == null ? "" : t;
    }

    @Override
    public String getCatalogName(int column) throws SQLException {
        column(column);
        return "";
    }

    @Override
    public int getColumnType(int column) throws SQLException {
        return column(column).jdbcType();
    }

    @Override
    public String getColumnTypeName(int column) throws SQLException {
        return column(column).typeName();
    }

    @Override
    public boolean isReadOnly(int column) throws SQLException {
        return getTableName(column).isEmpty();
    }

    @Override
    public boolean isWritable(int column) throws SQLException {
        return !isReadOnly(column);
    }

    @Override
    public boolean isDefinitelyWritable(int column) throws SQLException {
        column(column);
        return false;
    }

    @Override
    public String getColumnClassName(int column) throws SQLException {
        return ColumnValues.className(column(column).jdbcType());
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        return SelfWrapper.unwrap(this, iface);
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }

    static boolean isText(int jdbcType) {
        return jdbcType == Types.VARCHAR || jdbcType == Types.CHAR || jdbcType == Types.LONGVARCHAR;
    }
}
