package io.kegdb.bench.cluster;

import io.kegdb.bench.ScratchDirectory;
import io.kegdb.raft.storage.KegRaftServiceFactory;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * SQL over JDBC on three Raft nodes (Bitcask log) in this JVM, one client thread: batched INSERTs in
 * 1,000-row transactions, and point SELECTs and INSERTs sent as text and prepared, text and prepared taking
 * turns statement by statement (so that a loaded machine slows both alike) and timed apart. Each round runs
 * every phase once, in a rotating order; the table gives each rate's median over the rounds, the
 * text/prepared ratio of each round's interleaved phase (median), and the round trips per statement
 * (requests the thin client sent, {@code kegdb.raft.client.requests}; "n/a" where the driver has no such
 * meter).
 *
 * <p>Usage: {@code ClusterSqlBench [seconds per phase = 5] [rounds = 3] [dir = tmp] [phases = all]}, phases a
 * comma-separated list of {@code batch}, {@code select}, {@code insert} (the batch phase leaves a large store
 * behind, which later phases then run on).
 */
public final class ClusterSqlBench {

    private static final String GROUP = "kegdb-sql-bench";
    private static final int BATCH = 1000;
    private static final int POINT_KEYS = 10_000;

    private ClusterSqlBench() {
    }

    private interface Phase {
        /** Runs for about {@code nanos}; returns the rows or statements done, and the nanoseconds they took. */
        long[] run(Connection c, long nanos) throws SQLException;
    }

    /** Statements of one kind within an interleaved phase: how many, and the time they took. */
    private static final class Tally {
        long count;
        long nanos;

        void add(long started) {
            count++;
            nanos += System.nanoTime() - started;
        }
    }

    private static long nextId = 1_000_000;

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path root = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("kegdb-cluster-sql-bench");
        Files.createDirectories(root);
        Map<String, Phase> phases = new LinkedHashMap<>();
        phases.put("batched INSERT, 1,000-row transactions (rows/s)", ClusterSqlBench::batchedInsert);
        phases.put("point SELECT", ClusterSqlBench::pointSelects);
        phases.put("INSERT", ClusterSqlBench::inserts);
        if (args.length > 3 && !args[3].equals("all")) {
            List<String> wanted = List.of(args[3].toLowerCase(Locale.ROOT).split(","));
            phases.keySet().removeIf(name -> !wanted.contains(name.startsWith("batched") ? "batch"
                    : name.contains("SELECT") ? "select" : "insert"));
        }
        List<String> names = new ArrayList<>(phases.keySet());
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        Map<String, Double> tripsPerOp = new LinkedHashMap<>();
        try (LocalCluster cluster = LocalCluster.start(root.resolve("cluster"), GROUP,
                b -> b.electionTimeoutMs(1000).serviceFactory(new KegRaftServiceFactory()));
             Connection c = DriverManager.getConnection("jdbc:kegdb:raft://" + cluster.peers() + "/" + GROUP)) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE points (id BIGINT PRIMARY KEY, v VARCHAR)");
                s.executeUpdate("CREATE TABLE loaded (id BIGINT PRIMARY KEY, v VARCHAR)");
            }
            c.setAutoCommit(false);
            try (PreparedStatement p = c.prepareStatement("INSERT INTO points VALUES (?, ?)")) {
                for (int i = 0; i < POINT_KEYS; i++) {
                    p.setLong(1, i);
                    p.setString(2, "value-" + i);
                    p.addBatch();
                    if (i % BATCH == BATCH - 1) {
                        p.executeBatch();
                        c.commit();
                    }
                }
            }
            c.setAutoCommit(true);
            for (String name : names) { // warm-up: every phase once, short
                phases.get(name).run(c, TimeUnit.SECONDS.toNanos(Math.max(1, seconds / 2)));
            }
            for (int round = 0; round < rounds; round++) {
                for (int k = 0; k < names.size(); k++) {
                    String name = names.get((k + round) % names.size());
                    long before = requests();
                    long[] done = phases.get(name).run(c, TimeUnit.SECONDS.toNanos(seconds));
                    long sent = requests() - before;
                    long statements = 0;
                    for (int i = 0; i < done.length; i += 2) {
                        String label = done.length == 2 ? name : name + (i == 0 ? " as text" : " prepared");
                        double rate = done[i] / (done[i + 1] / 1e9);
                        rates.computeIfAbsent(label, x -> new ArrayList<>()).add(rate);
                        statements += name.startsWith("batched") ? done[i] / BATCH : done[i];
                        System.err.printf(Locale.ROOT, "round %d: %s: %,.0f/s%n", round + 1, label, rate);
                    }
                    tripsPerOp.put(name, before < 0 ? Double.NaN : sent / (double) statements);
                }
            }
        } finally {
            ScratchDirectory.deleteTree(root);
        }
        System.out.printf(Locale.ROOT, "3 nodes on 127.0.0.1 in one JVM (Bitcask log), one JDBC client thread, %d s per"
                + " phase, %d rounds in rotating order, medians%n%n", seconds, rounds);
        System.out.println("| phase | per second (median) | rounds | round trips per statement (transaction for the batch) |");
        System.out.println("|---|---:|---|---:|");
        for (String name : rates.keySet()) {
            List<Double> r = rates.get(name);
            StringBuilder each = new StringBuilder();
            for (double v : r) {
                each.append(each.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%,.0f", v));
            }
            double trips = tripsPerOp.get(name.replace(" as text", "").replace(" prepared", ""));
            System.out.printf(Locale.ROOT, "| %s | %,.0f | %s | %s |%n", name, median(r), each,
                    Double.isNaN(trips) ? "n/a" : String.format(Locale.ROOT, "%.2f", trips));
        }
        System.out.println();
        System.out.printf(Locale.ROOT, "text / prepared, interleaved in the same phases: point SELECT %.2f×, INSERT"
                + " %.2f×%n", medianRatio(rates.get("point SELECT as text"), rates.get("point SELECT prepared")),
                medianRatio(rates.get("INSERT as text"), rates.get("INSERT prepared")));
    }

    private static long[] batchedInsert(Connection c, long nanos) throws SQLException {
        long t0 = System.nanoTime();
        long end = t0 + nanos;
        long rows = 0;
        c.setAutoCommit(false);
        try (PreparedStatement p = c.prepareStatement("INSERT INTO loaded VALUES (?, ?)")) {
            while (System.nanoTime() < end) {
                for (int i = 0; i < BATCH; i++) {
                    p.setLong(1, nextId++);
                    p.setString(2, "a value of some thirty bytes..");
                    p.addBatch();
                }
                p.executeBatch();
                c.commit();
                rows += BATCH;
            }
        } finally {
            c.setAutoCommit(true);
        }
        return new long[] {rows, System.nanoTime() - t0};
    }

    /** Point SELECTs, text and prepared taking turns: {text count, text nanos, prepared count, prepared nanos}. */
    private static long[] pointSelects(Connection c, long nanos) throws SQLException {
        long end = System.nanoTime() + nanos;
        Tally text = new Tally();
        Tally prepared = new Tally();
        try (PreparedStatement p = c.prepareStatement("SELECT v FROM points WHERE id = ?");
             Statement s = c.createStatement()) {
            for (long n = 0; System.nanoTime() < end; n++) {
                long id = n % POINT_KEYS;
                long t0 = System.nanoTime();
                ResultSet rs;
                if ((n & 1) == 0) {
                    rs = s.executeQuery("SELECT v FROM points WHERE id = " + id);
                } else {
                    p.setLong(1, id);
                    rs = p.executeQuery();
                }
                try (rs) {
                    if (!rs.next()) {
                        throw new IllegalStateException("row " + id + " missing");
                    }
                }
                ((n & 1) == 0 ? text : prepared).add(t0);
            }
        }
        return new long[] {text.count, text.nanos, prepared.count, prepared.nanos};
    }

    /** Autocommitted INSERTs, text and prepared taking turns, as {@link #pointSelects}. */
    private static long[] inserts(Connection c, long nanos) throws SQLException {
        long end = System.nanoTime() + nanos;
        Tally text = new Tally();
        Tally prepared = new Tally();
        try (PreparedStatement p = c.prepareStatement("INSERT INTO loaded VALUES (?, ?)");
             Statement s = c.createStatement()) {
            for (long n = 0; System.nanoTime() < end; n++) {
                long id = nextId++;
                long t0 = System.nanoTime();
                if ((n & 1) == 0) {
                    s.executeUpdate("INSERT INTO loaded VALUES (" + id + ", 'v')");
                } else {
                    p.setLong(1, id);
                    p.setString(2, "v");
                    p.executeUpdate();
                }
                ((n & 1) == 0 ? text : prepared).add(t0);
            }
        }
        return new long[] {text.count, text.nanos, prepared.count, prepared.nanos};
    }

    /** Requests the bench's thin client sent so far, or -1 when the driver has no such meter. */
    private static long requests() {
        try {
            MBeanServer server = ManagementFactory.getPlatformMBeanServer();
            for (ObjectName n : server.queryNames(new ObjectName("io.kegdb:type=Store,*"), null)) {
                if (n.getKeyProperty("name").contains(GROUP)) {
                    return ((Double) server.getAttribute(n, "raft.client.requests")).longValue();
                }
            }
        } catch (Exception absent) {
            // a driver without the meter
        }
        return -1;
    }

    private static double median(List<Double> values) {
        List<Double> sorted = new ArrayList<>(values);
        sorted.sort(null);
        return sorted.get(sorted.size() / 2);
    }

    /** The median of the per-round ratios a[i] / b[i]. */
    private static double medianRatio(List<Double> a, List<Double> b) {
        List<Double> ratios = new ArrayList<>();
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            ratios.add(a.get(i) / b.get(i));
        }
        return median(ratios);
    }
}
