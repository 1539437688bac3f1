package io.kegdb.bench.cluster;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.kegdb.bench.ScratchDirectory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What users cost a TLS cluster: prepared point selects through a HikariCP pool on three nodes in this JVM, once
 * on a cluster without users and once on a cluster with users, logged in as a user with SELECT on the table
 * (every request then carries a ticket its node checks). Alternates over three rounds, then prints the
 * medians and their ratio as a Markdown table.
 *
 * <p>Usage: {@code UsersClusterBench [seconds per phase = 10] [threads = 16] [dir = tmp]}.
 */
public final class UsersClusterBench {

    private static final String GROUP = "kegdb-users-bench";
    private static final int ROUNDS = 3;
    private static final int ROWS = 1000;
    private static final String ADMIN_PASSWORD = "bench-admin-password";

    private UsersClusterBench() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 16;
        Path root = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("kegdb-users-bench");
        try {
            BenchCertificates certs = BenchCertificates.write(root.resolve("certs"));
            run(false, certs, root.resolve("warm-up"), 2, threads);
            List<Double> open = new ArrayList<>();
            List<Double> users = new ArrayList<>();
            for (int round = 1; round <= ROUNDS; round++) {
                for (int k = 0; k < 2; k++) {
                    boolean withUsers = (round % 2 == 0) == (k == 0);
                    double perSecond = run(withUsers, certs, root.resolve((withUsers ? "users-" : "open-") + round),
                            seconds, threads);
                    System.err.printf(Locale.ROOT, "round %d, %s: %.0f selects/s%n", round,
                            withUsers ? "users" : "no users", perSecond);
                    (withUsers ? users : open).add(perSecond);
                }
            }
            double o = median(open);
            double u = median(users);
            System.out.printf(Locale.ROOT, "3 TLS nodes on 127.0.0.1 in one JVM, %d threads on a HikariCP pool of %d,"
                    + " prepared SELECT V FROM T WHERE K = ?, %d rows, %d s per phase%n%n", threads, threads, ROWS, seconds);
            System.out.println("| cluster | selects/s (median of " + ROUNDS + ") |");
            System.out.println("|---|---:|");
            System.out.printf(Locale.ROOT, "| no users (client certificate only) | %.0f |%n", o);
            System.out.printf(Locale.ROOT, "| users (logged in, ticket checked per request) | %.0f |%n", u);
            System.out.printf(Locale.ROOT, "%nusers / no users: %.2f×%n", u / o);
        } finally {
            ScratchDirectory.deleteTree(root);
        }
    }

    private static double run(boolean withUsers, BenchCertificates certs, Path dir, int seconds, int threads)
            throws Exception {
        try (LocalCluster cluster = LocalCluster.start(dir, GROUP,
                b -> b.electionTimeoutMs(1000).tls(certs.node()).adminPassword(withUsers ? ADMIN_PASSWORD : null))) {
            String url = "jdbc:kegdb:raft://" + cluster.peers() + "/" + GROUP + "?" + certs.jdbcOptions();
            try (HikariDataSource setup = pool(url, withUsers ? "admin" : null, ADMIN_PASSWORD, 1);
                 Connection c = setup.getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE T (K VARCHAR PRIMARY KEY, V VARCHAR)");
                try (PreparedStatement insert = c.prepareStatement("INSERT INTO T VALUES (?, ?)")) {
                    for (int i = 0; i < ROWS; i++) {
                        insert.setString(1, "k" + i);
                        insert.setString(2, "value " + i);
                        insert.executeUpdate();
                    }
                }
                if (withUsers) {
                    s.execute("CREATE USER reader PASSWORD 'reader-password'");
                    s.execute("GRANT SELECT ON T TO reader");
                }
            }
            try (HikariDataSource pool = pool(url, withUsers ? "reader" : null, "reader-password", threads)) {
                select(pool, threads, 2); // fills the pool (each connection logs in once) and the caches
                return select(pool, threads, seconds);
            }
        }
    }

    /** Waits for the cluster's leader (and, with users, its first admin) before it returns. */
    private static HikariDataSource pool(String url, String user, String password, int size) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url);
        if (user != null) {
            config.setUsername(user);
            config.setPassword(password);
        }
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(size);
        config.setInitializationFailTimeout(-1);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        HikariDataSource pool = new HikariDataSource(config);
        while (true) {
            try (Connection c = pool.getConnection()) {
                if (c.isValid(5)) {
                    return pool;
                }
            } catch (java.sql.SQLException e) {
                if (System.nanoTime() > deadline) {
                    pool.close();
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    private static double select(HikariDataSource pool, int threads, int seconds) throws InterruptedException {
        AtomicLong done = new AtomicLong();
        AtomicLong errors = new AtomicLong();
        CountDownLatch finished = new CountDownLatch(threads);
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        for (int t = 0; t < threads; t++) {
            new Thread(() -> {
                try (Connection c = pool.getConnection();
                     PreparedStatement select = c.prepareStatement("SELECT V FROM T WHERE K = ?")) {
                    while (System.nanoTime() < end) {
                        select.setString(1, "k" + ThreadLocalRandom.current().nextInt(ROWS));
                        try (ResultSet rs = select.executeQuery()) {
                            if (rs.next()) {
                                done.incrementAndGet();
                            }
                        }
                    }
                } catch (java.sql.SQLException e) {
                    errors.incrementAndGet();
                } finally {
                    finished.countDown();
                }
            }, "bench-select-" + t).start();
        }
        finished.await();
        if (errors.get() > 0) {
            throw new IllegalStateException(errors.get() + " threads failed");
        }
        return done.get() / ((System.nanoTime() - start) / 1e9);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }
}
