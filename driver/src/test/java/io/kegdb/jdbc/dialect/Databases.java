package io.kegdb.jdbc.dialect;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** Fresh in-memory KegDB and H2 databases for the dialect tests, and small helpers to run SQL on them. */
final class Databases {

    private static final AtomicLong NAMES = new AtomicLong();

    private Databases() {
    }

    static Connection kegdb() throws SQLException {
        return DriverManager.getConnection("jdbc:kegdb:mem:dialect" + NAMES.incrementAndGet());
    }

    static Connection h2() throws SQLException {
        return DriverManager.getConnection("jdbc:h2:mem:dialect" + NAMES.incrementAndGet());
    }

    static void exec(Connection c, String... sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String q : sql) {
                s.execute(q);
            }
        }
    }

    static int update(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            return ps.executeUpdate();
        }
    }

    /** Every row as its columns' {@code getObject} values, in result order. */
    static List<List<Object>> rows(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                List<List<Object>> out = new ArrayList<>();
                int n = rs.getMetaData().getColumnCount();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= n; i++) {
                        row.add(rs.getObject(i));
                    }
                    out.add(row);
                }
                return out;
            }
        }
    }

    /** The SQLState a statement fails with, or null if it succeeds. */
    static String failure(Connection c, String sql, Object... params) {
        try {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int i = 0; i < params.length; i++) {
                    ps.setObject(i + 1, params[i]);
                }
                ps.execute();
            }
            return null;
        } catch (SQLException e) {
            return e.getSQLState();
        }
    }
}
