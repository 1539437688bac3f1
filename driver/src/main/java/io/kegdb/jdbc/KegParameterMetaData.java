package io.kegdb.jdbc;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.SqlState;

import java.sql.ParameterMetaData;
import java.sql.SQLException;
import java.util.List;

/** Parameter types as the SQL layer inferred them. */
final class KegParameterMetaData implements ParameterMetaData {
    private final List<ColumnInfo> parameters;

    KegParameterMetaData(List<ColumnInfo> parameters) {
        this.parameters = parameters;
    }

    private ColumnInfo parameter(int i) throws SQLException {
        if (i < 1 || i > parameters.size()) {
            throw JdbcErrors.of(SqlState.INVALID_DESCRIPTOR_INDEX,
                    "parameter index " + i + " out of range 1.." + parameters.size());
        }
        return parameters.get(i - 1);
    }

    @Override
    public int getParameterCount() {
        return parameters.size();
    }

    @Override
    public int isNullable(int param) throws SQLException {
        return parameter(param).nullable() ? parameterNullable : parameterNoNulls;
    }

    @Override
    public boolean isSigned(int param) throws SQLException {
        return ColumnValues.isSigned(parameter(param).jdbcType());
    }

    @Override
    public int getPrecision(int param) throws SQLException {
        return Math.max(0, parameter(param).precision());
    }

    @Override
    public int getScale(int param) throws SQLException {
        return parameter(param).scale();
    }

    @Override
    public int getParameterType(int param) throws SQLException {
        return parameter(param).jdbcType();
    }

    @Override
    public String getParameterTypeName(int param) throws SQLException {
        return parameter(param).typeName();
    }

    @Override
    public String getParameterClassName(int param) throws SQLException {
        return ColumnValues.className(parameter(param).jdbcType());
    }

    @Override
    public int getParameterMode(int param) throws SQLException {
        parameter(param);
        return parameterModeIn;
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
