package io.kegdb.bench.jdbc;

import java.io.IOException;
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
import java.util.Comparator;
import java.util.Random;
import java.util.stream.Stream;

/**
 * CPU time of the calling thread per operation for two of {@link JdbcBenchmark}'s workloads on KegDB
 * (batched insert, 1000 rows per commit; prepared point select), through plain JDBC and nothing else, so that
 * it runs against any build of the driver. Thread CPU time does not grow when other processes take the
 * cores, which is what lets two builds be compared on a shared machine; it leaves out other threads' work
 * (the fsync of a large batch runs on the store's sync thread) and waits.
 *
 * <pre>
 * java -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.kegdb.bench.jdbc.CpuPerOperation
 *      [--rows N] [--selects N] [--rounds N] [--options K=V&amp;...]
 * </pre>
 *
 * {@code --options} adds connection options to the URL, e.g. {@code statementStatistics=false} to compare a
 * build with its statement statistics on and off (docs/OPERATIONS.md).
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
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--rows" -> rows = Integer.parseInt(args[i + 1]);
                case "--selects" -> selects = Integer.parseInt(args[i + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--options" -> options = "?" + args[i + 1];
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
        double[] insert = new double[rounds];
        double[] select = new double[rounds];
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:" + dir + options)) {
            for (int r = 0; r < rounds; r++) {
                String table = "BENCH" + r;
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("CREATE TABLE " + table + " (K VARCHAR PRIMARY KEY, V VARCHAR)");
                }
                insert[r] = batchedInsert(c, table, keys, values);
                select[r] = pointSelect(c, table, keys, selects, r);
                System.err.printf("round %d: insert %.0f ns/row, select %.0f ns/op (thread CPU)%n", r, insert[r],
                        select[r]);
            }
        } finally {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // a temporary directory
            }
        }
        // The first two rounds warm the JIT up; the median of the others is reported.
        System.out.printf("batched insert: %.0f ns CPU per row; prepared point select: %.0f ns CPU per select"
                + " (median of rounds 3..%d)%s%n", median(insert, 2), median(select, 2), rounds,
                options.isEmpty() ? "" : ", options " + options.substring(1));
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
