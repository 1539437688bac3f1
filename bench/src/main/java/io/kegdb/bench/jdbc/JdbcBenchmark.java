package io.kegdb.bench.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import io.kegdb.bench.ScratchDirectory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The same JDBC work on KegDB, SQLite and H2, each through a HikariCP pool, in one run; prints a Markdown table
 * of operations per second.
 *
 * <pre>
 * mvn -B -q -pl bench -am -DskipTests package
 * java -cp "bench/target/classes:$(cat bench/target/classpath.txt)" io.kegdb.bench.jdbc.JdbcBenchmark [--rows N] [--rounds N]
 *      [--warmup-rounds N] [--durable N] [--selects N] [--adhoc N] [--only kegdb,sqlite,h2] [--dir DIR]
 *      [--kegdb-options K=V&amp;...]
 * </pre>
 */
public final class JdbcBenchmark {

    /** The measured workloads, in table order. */
    enum Workload {
        BATCHED_INSERT("insert, batched, 1000 rows per transaction"),
        AUTOCOMMIT_INSERT("insert, autocommit, one row per transaction"),
        PREPARED_SELECT_1("point select, prepared, 1 thread"),
        PREPARED_SELECT_2("point select, prepared, 2 threads"),
        ADHOC_SELECT("point select, ad hoc SQL with a literal");

        final String label;

        Workload(String label) {
            this.label = label;
        }
    }

    private int rows = 200_000;
    /** Timed rounds of the batched insert, each into a new table; the median is reported. */
    private int rounds = 5;
    /**
     * Untimed rounds before them, the same work: a JIT-compiled database is measured warm, as JMH measures.
     * None, with one round and one database per JVM, measures a fresh JVM's first batched insert.
     */
    private int warmUpRounds = 2;
    private int durable = 2_000;
    private int selects = 200_000;
    private int adhoc = 50_000;
    private List<JdbcTarget> targets = List.of(JdbcTarget.values());
    private Path dir;
    /** Connection options added to KegDB's URL ({@code --kegdb-options}), e.g. {@code statementStatistics=false}. */
    private String kegdbOptions = "";

    private JdbcBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        JdbcBenchmark bench = new JdbcBenchmark();
        bench.parse(args);
        bench.run();
    }

    private void parse(String[] args) throws IOException {
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--rows" -> rows = Integer.parseInt(value);
                case "--rounds" -> rounds = Integer.parseInt(value);
                case "--warmup-rounds" -> warmUpRounds = Integer.parseInt(value);
                case "--durable" -> durable = Integer.parseInt(value);
                case "--selects" -> selects = Integer.parseInt(value);
                case "--adhoc" -> adhoc = Integer.parseInt(value);
                case "--dir" -> dir = Path.of(value);
                case "--kegdb-options" -> kegdbOptions = value;
                case "--only" -> {
                    List<JdbcTarget> chosen = new ArrayList<>();
                    for (String name : value.split(",")) {
                        chosen.add(JdbcTarget.valueOf(name.trim().toUpperCase(Locale.ROOT)));
                    }
                    targets = chosen;
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (known: --rows --rounds --warmup-rounds --durable --selects --adhoc --only --dir"
                        + " --kegdb-options)");
            }
            i++;
        }
        if (dir == null) {
            dir = Files.createTempDirectory("kegdb-jdbc-bench");
        }
    }

    /** The URL of {@code target}, with {@link #kegdbOptions} for KegDB. */
    private String url(JdbcTarget target, Path targetDir) {
        String url = target.url(targetDir);
        return target == JdbcTarget.KEGDB && !kegdbOptions.isEmpty() ? url + "&" + kegdbOptions : url;
    }

    private void run() throws Exception {
        Map<JdbcTarget, Map<Workload, Double>> results = new EnumMap<>(JdbcTarget.class);
        JdbcWorkloads.RowData data = new JdbcWorkloads.RowData(rows, Math.max(durable, warmUpAutocommits()));
        List<Path> used = new ArrayList<>();
        for (JdbcTarget target : targets) {
            Path targetDir = dir.resolve(target.name().toLowerCase(Locale.ROOT));
            ScratchDirectory.deleteTree(targetDir);
            Files.createDirectories(targetDir);
            used.add(targetDir);
            System.err.printf("%s: %s%n", target.label(), url(target, targetDir));
            results.put(target, runOn(target, targetDir, data));
            // What one database left behind should not be collected while the next is timed.
            System.gc();
        }
        // Deleted only now: freeing a database's blocks (a discard on some disks) would load the disk under the next.
        for (Path p : used) {
            ScratchDirectory.deleteTree(p);
        }
        System.out.print(table(results));
    }

    /** Untimed autocommitted inserts: each costs an fsync, so a hundredth of the rows is enough. */
    private int warmUpAutocommits() {
        return Math.max(1, rows / 100);
    }

    private Map<Workload, Double> runOn(JdbcTarget target, Path targetDir, JdbcWorkloads.RowData data) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(url(target, targetDir));
        config.setMaximumPoolSize(2);
        config.setMinimumIdle(2);
        config.setPoolName("bench-" + target.name().toLowerCase(Locale.ROOT));
        Map<Workload, Double> r = new EnumMap<>(Workload.class);
        try (HikariDataSource pool = new HikariDataSource(config)) {
            JdbcWorkloads w = new JdbcWorkloads(pool, rows, data);
            w.createTable(target.createTable());
            if (warmUpRounds > 0) {
                w.warmUpWrites(target.createTable(), warmUpRounds, warmUpAutocommits());
            }
            double[] perRound = w.batchedInsert(target.createTable(), rounds, 1000);
            System.err.println("  batched insert rounds:" + Arrays.stream(perRound)
                    .mapToObj(v -> String.format(" %,.0f", v)).collect(Collectors.joining()) + " rows/s");
            r.put(Workload.BATCHED_INSERT, report(target, Workload.BATCHED_INSERT, median(perRound)));
            r.put(Workload.AUTOCOMMIT_INSERT, report(target, Workload.AUTOCOMMIT_INSERT, w.autocommitInserts(durable)));
            r.put(Workload.PREPARED_SELECT_1, report(target, Workload.PREPARED_SELECT_1, w.preparedPointSelects(1, selects)));
            r.put(Workload.PREPARED_SELECT_2, report(target, Workload.PREPARED_SELECT_2, w.preparedPointSelects(2, selects)));
            r.put(Workload.ADHOC_SELECT, report(target, Workload.ADHOC_SELECT, w.adHocPointSelects(adhoc)));
        }
        return r;
    }

    /** The median of the rounds: one slow round (a GC, a disk stall) does not decide. */
    private static double median(double[] perRound) {
        double[] sorted = perRound.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static double report(JdbcTarget target, Workload workload, double opsPerSecond) {
        System.err.printf("  %-45s %,12.0f ops/s%n", workload.label, opsPerSecond);
        return opsPerSecond;
    }

    private String table(Map<JdbcTarget, Map<Workload, Double>> results) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%d rows (%d B keys, %d B values), batched inserts the median of %d rounds; %d autocommit"
                        + " inserts; %d prepared selects per thread; %d ad hoc selects; HikariCP, pool of 2.%n%n", rows,
                JdbcWorkloads.KEY_BYTES, JdbcWorkloads.VALUE_BYTES, rounds, durable, selects, adhoc));
        sb.append("| workload (ops/s) |");
        for (JdbcTarget t : results.keySet()) {
            sb.append(' ').append(t.label()).append(" |");
        }
        boolean ratio = results.containsKey(JdbcTarget.KEGDB) && results.containsKey(JdbcTarget.SQLITE);
        if (ratio) {
            sb.append(" KegDB / SQLite |");
        }
        sb.append('\n').append("|---|");
        results.keySet().forEach(t -> sb.append("---:|"));
        if (ratio) {
            sb.append("---:|");
        }
        sb.append('\n');
        for (Workload w : Workload.values()) {
            sb.append("| ").append(w.label).append(" |");
            for (Map<Workload, Double> r : results.values()) {
                sb.append(String.format(" %,.0f |", r.get(w)));
            }
            if (ratio) {
                sb.append(String.format(" %.2f× |", results.get(JdbcTarget.KEGDB).get(w) / results.get(JdbcTarget.SQLITE).get(w)));
            }
            sb.append('\n');
        }
        return sb.toString();
    }
}
