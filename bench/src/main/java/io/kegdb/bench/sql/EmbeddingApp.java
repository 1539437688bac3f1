package io.kegdb.bench.sql;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * A small application embedding KegDB, for timing a whole process from outside (docs/BENCHMARKS.md, class-data
 * sharing for applications): opens {@code jdbc:kegdb:DIR} through {@code DriverManager}, creates and fills a
 * 1,000-row table on the first run, then runs a point query and a planned query (a join with a GROUP BY), and
 * exits. Its classpath needs only the driver's single jar and this class.
 */
public final class EmbeddingApp {

    private EmbeddingApp() {
    }

    public static void main(String[] args) throws SQLException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: EmbeddingApp <directory>");
        }
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:" + args[0])) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE IF NOT EXISTS orders (id BIGINT PRIMARY KEY, customer BIGINT)");
                s.executeUpdate("CREATE TABLE IF NOT EXISTS customers (id BIGINT PRIMARY KEY, name VARCHAR)");
            }
            if (count(c, "SELECT COUNT(*) FROM customers") == 0) {
                c.setAutoCommit(false);
                try (PreparedStatement o = c.prepareStatement("INSERT INTO orders VALUES (?, ?)");
                     PreparedStatement cu = c.prepareStatement("INSERT INTO customers VALUES (?, ?)")) {
                    for (int i = 0; i < 1000; i++) {
                        o.setLong(1, i);
                        o.setLong(2, i % 100);
                        o.executeUpdate();
                        if (i < 100) {
                            cu.setLong(1, i);
                            cu.setString(2, "customer " + i);
                            cu.executeUpdate();
                        }
                    }
                }
                c.commit();
                c.setAutoCommit(true);
            }
            long one = count(c, "SELECT COUNT(*) FROM orders WHERE id = 42");
            long groups = count(c, "SELECT COUNT(*) FROM (SELECT c.name, COUNT(*) FROM orders o"
                    + " JOIN customers c ON o.customer = c.id GROUP BY c.name)");
            if (one != 1 || groups != 100) {
                throw new IllegalStateException("unexpected results " + one + ", " + groups);
            }
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }
}
