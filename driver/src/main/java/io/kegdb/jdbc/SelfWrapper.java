package io.kegdb.jdbc;

import io.kegdb.sql.SqlState;

import java.sql.SQLException;

/** The {@code Wrapper.unwrap} rule every driver object follows: it wraps nothing but itself. */
final class SelfWrapper {
    private SelfWrapper() {
    }

    static <T> T unwrap(Object self, Class<T> iface) throws SQLException {
        if (iface.isInstance(self)) {
            return iface.cast(self);
        }
        throw JdbcErrors.of(SqlState.INVALID_PARAMETER_VALUE, "not a wrapper for " + iface.getName());
    }
}
