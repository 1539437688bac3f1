package io.kegdb.bench.txn;

import javax.sql.DataSource;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** A table {@code (K, V)} on a target, reached through a pool: rows {@code <prefix>0 .. <prefix>n-1}. */
final class ValueTable {

    private final DataSource pool;
    private final String name;
    private final String keyPrefix;

    ValueTable(DataSource pool, String name, String keyPrefix) {
        this.pool = pool;
        this.name = name;
        this.keyPrefix = keyPrefix;
    }

    String name() {
        return name;
    }

    /** The key of row {@code i}. */
    String key(int i) {
        return keyPrefix + i;
    }

    /** Creates the table on {@code target} with {@code rows} rows, each holding {@code value}. */
    void create(ContendedTarget target, int rows, long value) throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            c.setAutoCommit(true);
            s.executeUpdate(target.createTable(name));
            try (PreparedStatement p = c.prepareStatement("INSERT INTO " + name + " VALUES (?, ?)")) {
                for (int i = 0; i < rows; i++) {
                    p.setString(1, key(i));
                    p.setLong(2, value);
                    p.executeUpdate();
                }
            }
        }
    }

    /** {@code V} of row {@code key}, read on {@code c}. */
    long value(Connection c, String key) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT V FROM " + name + " WHERE K = ?")) {
            p.setString(1, key);
            try (ResultSet rs = p.executeQuery()) {
                if (!rs.next()) {
                    throw new IllegalStateException("row " + key + " missing from " + name);
                }
                return rs.getLong(1);
            }
        }
    }

    /** Sets {@code V} of row {@code key} on {@code c}. */
    void set(Connection c, String key, long value) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("UPDATE " + name + " SET V = ? WHERE K = ?")) {
            p.setLong(1, value);
            p.setString(2, key);
            if (p.executeUpdate() != 1) {
                throw new IllegalStateException("row " + key + " missing from " + name);
            }
        }
    }

    /** The sum of {@code V} over the table, read on {@code c}. */
    long sum(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT SUM(V) FROM " + name)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** The sum of {@code V} over the table, read on a connection of its own. */
    long sum() throws SQLException {
        try (Connection c = pool.getConnection()) {
            return sum(c);
        }
    }
}
