package io.kegdb.examples;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * An application using KegDB through a HikariCP pool: four workers record orders, each order a transaction
 * that inserts the order and updates the customer's running total; then a report.
 *
 * <p>Transactions are READ_COMMITTED: two connections that read and then rewrite the same row can lose one
 * update. So each customer belongs to one worker here, as an application would route a key to one writer.
 *
 * <pre>
 * mvn -B -q -pl examples -am -DskipTests package
 * java -cp "examples/target/classes:$(cat examples/target/classpath.txt)" io.kegdb.examples.HikariExample ./orders-db
 * </pre>
 */
public final class HikariExample {
    private static final int WORKERS = 4;
    private static final int ORDERS_PER_WORKER = 250;

    private HikariExample() {
    }

    public static void main(String[] args) throws Exception {
        String dir = args.length > 0 ? args[0] : "orders-db";
        for (String line : run(dir)) {
            System.out.println(line);
        }
    }

    /** Runs the example on {@code dir} and returns the report lines. */
    static List<String> run(String dir) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:kegdb:" + dir);       // durability=sync: a commit is on disk when it returns
        config.setMaximumPoolSize(WORKERS);
        config.setPoolName("orders");
        try (HikariDataSource pool = new HikariDataSource(config)) {
            createTables(pool);
            ExecutorService workers = Executors.newFixedThreadPool(WORKERS);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < WORKERS; w++) {
                int worker = w;
                done.add(workers.submit(() -> {
                    for (int i = 0; i < ORDERS_PER_WORKER; i++) {
                        recordOrder(pool, worker * 1_000_000L + i, "customer-" + worker + "-" + (i % 5), 1 + i % 7);
                    }
                    return null;
                }));
            }
            for (Future<?> f : done) {
                f.get();
            }
            workers.shutdown();
            return report(pool);
        }
    }

    private static void createTables(HikariDataSource pool) throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE IF NOT EXISTS ORDERS (ID BIGINT PRIMARY KEY, CUSTOMER VARCHAR)");
            s.executeUpdate("CREATE TABLE IF NOT EXISTS TOTALS (CUSTOMER VARCHAR PRIMARY KEY, AMOUNT BIGINT)");
        }
    }

    /** One order: insert it and add to the customer's total, atomically. */
    private static void recordOrder(HikariDataSource pool, long id, String customer, long amount) throws SQLException {
        try (Connection c = pool.getConnection()) {
            c.setAutoCommit(false);
            try (PreparedStatement order = c.prepareStatement("INSERT INTO ORDERS VALUES (?, ?)");
                 PreparedStatement read = c.prepareStatement("SELECT AMOUNT FROM TOTALS WHERE CUSTOMER = ?");
                 PreparedStatement write = c.prepareStatement("UPSERT INTO TOTALS VALUES (?, ?)")) {
                order.setLong(1, id);
                order.setString(2, customer);
                order.executeUpdate();
                long total = amount;
                read.setString(1, customer);
                try (ResultSet rs = read.executeQuery()) {
                    if (rs.next()) {
                        total += rs.getLong(1);
                    }
                }
                write.setString(1, customer);
                write.setLong(2, total);
                write.executeUpdate();
                c.commit();
            } catch (SQLException e) {
                c.rollback();
                throw e;
            }
        }
    }

    private static List<String> report(HikariDataSource pool) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM ORDERS")) {
                rs.next();
                lines.add("orders: " + rs.getLong(1));
            }
            try (ResultSet rs = s.executeQuery("SELECT CUSTOMER, AMOUNT FROM TOTALS ORDER BY CUSTOMER")) {
                while (rs.next()) {
                    lines.add(rs.getString(1) + ": " + rs.getLong(2));
                }
            }
        }
        return lines;
    }
}
