package io.kegdb.jdbc.isolation;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** The few statements the isolation tests run on a {@code (K VARCHAR PRIMARY KEY, V BIGINT)} table. */
final class Rows {

    private Rows() {
    }

    /** V of row {@code key}, or null when there is no such row. */
    static Long value(Connection c, String table, String key) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT V FROM " + table + " WHERE K = ?")) {
            p.setString(1, key);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getLong(1) : null;
            }
        }
    }

    /** Sets V of row {@code key}; returns the update count. */
    static int set(Connection c, String table, String key, long value) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("UPDATE " + table + " SET V = ? WHERE K = ?")) {
            p.setLong(1, value);
            p.setString(2, key);
            return p.executeUpdate();
        }
    }

    static void insert(Connection c, String table, String key, long value) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
            p.setString(1, key);
            p.setLong(2, value);
            p.executeUpdate();
        }
    }

    /** A single-row aggregate query's value. */
    static long aggregate(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            if (!rs.next()) {
                throw new AssertionError("no row from " + sql);
            }
            return rs.getLong(1);
        }
    }

    static long sum(Connection c, String table) throws SQLException {
        return aggregate(c, "SELECT COALESCE(SUM(V), 0) FROM " + table);
    }
}
