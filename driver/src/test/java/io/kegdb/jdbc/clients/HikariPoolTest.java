package io.kegdb.jdbc.clients;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.logging.Logger;
import javax.sql.DataSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HikariCP with 8 connections and 8 threads of point reads, committed and rolled-back transactions: no
 * errors, every committed row present and no rolled-back row, and the pool never replaced a connection
 * (Hikari evicts on 08xxx/0A000 states; a replacement would open a ninth physical connection).
 */
class HikariPoolTest {
    private static final int THREADS = 8;
    private static final int OPS_PER_THREAD = 300;

    @TempDir
    Path tmp;

    /** Opens physical connections through DriverManager and counts them. */
    static final class CountingDataSource implements DataSource {
        final String url;
        final AtomicInteger opened = new AtomicInteger();

        CountingDataSource(String url) {
            this.url = url;
        }

        @Override
        public Connection getConnection() throws SQLException {
            opened.incrementAndGet();
            return DriverManager.getConnection(url);
        }

        @Override
        public Connection getConnection(String user, String password) throws SQLException {
            return getConnection();
        }

        @Override
        public PrintWriter getLogWriter() {
            return null;
        }

        @Override
        public void setLogWriter(PrintWriter out) {
        }

        @Override
        public void setLoginTimeout(int seconds) {
        }

        @Override
        public int getLoginTimeout() {
            return 0;
        }

        @Override
        public Logger getParentLogger() throws SQLFeatureNotSupportedException {
            throw new SQLFeatureNotSupportedException();
        }

        @Override
        public <T> T unwrap(Class<T> iface) throws SQLException {
            throw new SQLException("not a wrapper");
        }

        @Override
        public boolean isWrapperFor(Class<?> iface) {
            return false;
        }
    }

    @Test
    void configuredByDataSourceClassName() throws Exception {
        HikariConfig config = new HikariConfig();
        config.setDataSourceClassName("io.kegdb.jdbc.KegDataSource");
        config.addDataSourceProperty("url", "jdbc:kegdb:" + tmp.resolve("by-class-name") + "?durability=nosync");
        config.setMaximumPoolSize(2);
        try (HikariDataSource pool = new HikariDataSource(config);
             Connection c = pool.getConnection();
             PreparedStatement ins = c.prepareStatement("INSERT INTO KV VALUES (?, ?)")) {
            ins.setString(1, "x");
            ins.setString(2, "y");
            assertEquals(1, ins.executeUpdate());
        }
    }

    @Test
    void eightThreadsOnAPoolOfEight() throws Exception {
        CountingDataSource physical = new CountingDataSource("jdbc:kegdb:" + tmp.resolve("pool"));
        HikariConfig config = new HikariConfig();
        config.setDataSource(physical);
        config.setMaximumPoolSize(THREADS);
        config.setMinimumIdle(THREADS);
        config.setConnectionTimeout(30_000);
        config.setPoolName("kegdb-test");
        Set<String> committed = ConcurrentHashMap.newKeySet();
        Set<String> rolledBack = ConcurrentHashMap.newKeySet();
        List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());
        try (HikariDataSource pool = new HikariDataSource(config)) {
            try (Connection c = pool.getConnection(); PreparedStatement seed = c.prepareStatement("INSERT INTO KV VALUES (?, ?)")) {
                for (int i = 0; i < 100; i++) {
                    seed.setString(1, "seed" + i);
                    seed.setString(2, "v" + i);
                    seed.executeUpdate();
                }
            }
            ExecutorService threads = Executors.newFixedThreadPool(THREADS);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(threads.submit(() -> {
                    Random rnd = new Random(thread);
                    for (int op = 0; op < OPS_PER_THREAD; op++) {
                        try {
                            runOne(pool, rnd, thread, op, committed, rolledBack);
                        } catch (Throwable e) {
                            errors.add(e);
                            return;
                        }
                    }
                }));
            }
            threads.shutdown();
            assertTrue(threads.awaitTermination(5, TimeUnit.MINUTES), "workers did not finish");
            for (Future<?> f : futures) {
                f.get();
            }
            assertEquals(List.of(), errors);

            try (Connection c = pool.getConnection()) {
                Set<String> keys = new HashSet<>();
                try (PreparedStatement all = c.prepareStatement("SELECT K FROM KV"); ResultSet rs = all.executeQuery()) {
                    while (rs.next()) {
                        keys.add(rs.getString(1));
                    }
                }
                for (String k : committed) {
                    assertTrue(keys.contains(k), "committed row missing: " + k);
                }
                for (String k : rolledBack) {
                    assertTrue(!keys.contains(k), "rolled-back row present: " + k);
                }
                assertEquals(100 + committed.size(), keys.size());
            }
            // The pool fills to minimumIdle on its own thread; on a busy machine the last connection can
            // still be on its way when the workers finish.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (pool.getHikariPoolMXBean().getTotalConnections() < THREADS && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(THREADS, pool.getHikariPoolMXBean().getTotalConnections());
            assertEquals(THREADS, physical.opened.get(), "the pool replaced (evicted) a connection");
        }
    }

    private static void runOne(HikariDataSource pool, Random rnd, int thread, int op, Set<String> committed,
                               Set<String> rolledBack) throws SQLException {
        int kind = rnd.nextInt(3);
        try (Connection c = pool.getConnection()) {
            if (kind == 0) {
                try (PreparedStatement sel = c.prepareStatement("SELECT V FROM KV WHERE K = ?")) {
                    int i = rnd.nextInt(100);
                    sel.setString(1, "seed" + i);
                    try (ResultSet rs = sel.executeQuery()) {
                        if (!rs.next() || !("v" + i).equals(rs.getString(1))) {
                            throw new AssertionError("seed row " + i + " wrong");
                        }
                    }
                }
                return;
            }
            c.setAutoCommit(false);
            String key = "t" + thread + "-" + op;
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO KV VALUES (?, ?)")) {
                ins.setString(1, key);
                ins.setString(2, "a");
                ins.executeUpdate();
                ins.setString(1, key + "b");
                ins.executeUpdate();
            }
            if (kind == 1) {
                c.commit();
                committed.add(key);
                committed.add(key + "b");
            } else {
                c.rollback();
                rolledBack.add(key);
                rolledBack.add(key + "b");
            }
            // returned to the pool with autocommit off: Hikari resets it
        }
    }
}
