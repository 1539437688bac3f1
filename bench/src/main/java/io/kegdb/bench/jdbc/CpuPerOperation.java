package io.kegdb.bench.jdbc;

import io.kegdb.bench.ScratchDirectory;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.Random;

/**
 * CPU time of the calling thread per operation for two of {@link JdbcBenchmark}'s workloads on KegDB
 * (batched insert, 1000 rows per commit; prepared point select), through plain JDBC and nothing else, so that
 * it runs against any build of the driver. Thread CPU time does not grow when other processes take the
 * cores, which is what lets two builds be compared on a shared machine; it leaves out other threads' work
 * (the fsync of a large batch runs on the store's sync thread) and waits.
 *
 * <pre>
 * java -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.kegdb.bench.jdbc.CpuPerOperation
 *      [--rows N] [--selects N] [--rounds N] [--options K=V&amp;...] [--compare K=V&amp;...]
 * </pre>
 *
 * {@code --options} adds connection options to the URL, e.g. {@code statementStatistics=false} to compare a
 * build with its statement statistics on and off (docs/OPERATIONS.md) in runs of their own. {@code --compare}
 * runs each round twice in this JVM, on a connection without the options and on one with them, in turns (which
 * goes first alternates), so that both see the same load; it prints both medians and the median of the
 * rounds' ratios (the speed without the options relative to with them).
 */
public final class CpuPerOperation {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuPerOperation() {
    }

    public static void main(String[] args) throws Exception {
        int rows = 100_000;
        int selects = 300_000;
        int rounds = 7;
        String options = "";
        String compare = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--rows" -> rows = Integer.parseInt(args[i + 1]);
                case "--selects" -> selects = Integer.parseInt(args[i + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--options" -> options = "?" + args[i + 1];
                case "--compare" -> compare = args[i + 1];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        String[] keys = new String[rows];
        String[] values = new String[rows];
        for (int i = 0; i < rows; i++) {
            keys[i] = JdbcWorkloads.key(i);
            values[i] = JdbcWorkloads.value(i);
        }
        Path dir = Files.createTempDirectory("kegdb-cpu-bench");
        int runs = compare == null ? 1 : 2;
        double[][] insert = new double[runs][rounds];
        double[][] select = new double[runs][rounds];
        Connection[] connections = new Connection[runs];
        try {
            connections[0] = DriverManager.getConnection("jdbc:kegdb:" + dir + options);
            if (compare != null) {
                connections[1] = DriverManager.getConnection("jdbc:kegdb:" + dir + "?" + compare);
            }
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < runs; k++) {
                    int which = r % 2 == 0 ? k : runs - 1 - k;
                    Connection c = connections[which];
                    String table = "BENCH" + r + "_" + which;
                    try (Statement s = c.createStatement()) {
                        s.executeUpdate("CREATE TABLE " + table + " (K VARCHAR PRIMARY KEY, V VARCHAR)");
                    }
                    insert[which][r] = batchedInsert(c, table, keys, values);
                    select[which][r] = pointSelect(c, table, keys, selects, r);
                    System.err.printf("round %d%s: insert %.0f ns/row, select %.0f ns/op (thread CPU)%n", r,
                            which == 1 ? " (" + compare + ")" : "", insert[which][r], select[which][r]);
                }
            }
        } finally {
            for (Connection c : connections) {
                if (c != null) {
                    c.close();
                }
            }
            ScratchDirectory.deleteTree(dir);
        }
        // The first two rounds warm the JIT up; the median of the others is reported.
        System.out.printf("batched insert: %.0f ns CPU per row; prepared point select: %.0f ns CPU per select"
                + " (median of rounds 3..%d)%s%n", median(insert[0], 2), median(select[0], 2), rounds,
                options.isEmpty() ? "" : ", options " + options.substring(1));
        if (compare != null) {
            System.out.printf("with %s: batched insert %.0f ns, prepared point select %.0f ns; speed without them"
                    + " relative to with them (their CPU over its), median of the rounds' ratios: insert %.3f,"
                    + " select %.3f%n", compare, median(insert[1], 2),
                    median(select[1], 2), median(ratios(insert), 2), median(ratios(select), 2));
        }
    }

    /** Per round, the second connection's cost over the first's: the first one's speed relative to the second's. */
    private static double[] ratios(double[][] costs) {
        double[] r = new double[costs[0].length];
        for (int i = 0; i < r.length; i++) {
            r[i] = costs[1][i] / costs[0][i];
        }
        return r;
    }

    private static double batchedInsert(Connection c, String table, String[] keys, String[] values)
            throws SQLException {
        c.setAutoCommit(false);
        long start = THREADS.getCurrentThreadCpuTime();
        try (PreparedStatement p = c.prepareStatement("INSERT INTO " + table + " VALUES (?, ?)")) {
            for (int i = 0; i < keys.length; i++) {
                p.setString(1, keys[i]);
                p.setString(2, values[i]);
                p.addBatch();
                if ((i + 1) % 1000 == 0) {
                    p.executeBatch();
                    c.commit();
                }
            }
            p.executeBatch();
            c.commit();
        }
        long cpu = THREADS.getCurrentThreadCpuTime() - start;
        c.setAutoCommit(true);
        return (double) cpu / keys.length;
    }

    private static double pointSelect(Connection c, String table, String[] keys, int selects, int seed)
            throws SQLException {
        Random random = new Random(seed);
        int[] order = new int[selects];
        for (int i = 0; i < selects; i++) {
            order[i] = random.nextInt(keys.length);
        }
        long start = THREADS.getCurrentThreadCpuTime();
        try (PreparedStatement p = c.prepareStatement("SELECT V FROM " + table + " WHERE K = ?")) {
            for (int i : order) {
                p.setString(1, keys[i]);
                try (ResultSet rs = p.executeQuery()) {
                    if (!rs.next()) {
                        throw new IllegalStateException("key " + keys[i] + " not found");
                    }
                }
            }
        }
        return (double) (THREADS.getCurrentThreadCpuTime() - start) / selects;
    }

    private static double median(double[] all, int skip) {
        double[] kept = Arrays.copyOfRange(all, Math.min(skip, all.length - 1), all.length);
        Arrays.sort(kept);
        return kept[kept.length / 2];
    }
}
