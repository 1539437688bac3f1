package io.kegdb.jdbc;

import java.sql.SQLException;

/** The {@code Wrapper.unwrap} rule every driver object follows: it wraps nothing but itself. */
final class SelfWrapper {
    private SelfWrapper() {
    }

    static <T> T unwrap(Object self, Class<T> iface) throws SQLException {
        if (iface.isInstance(self)) {
            return iface.cast(self);
        }
        throw JdbcErrors.of(JdbcErrors.BAD_VALUE, "not a wrapper for " + iface.getName());
    }
}
