package io.kegdb.bench.txn;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Contended updates: threads incrementing 1 hot counter and 100 hot counters, autocommitted and in
 * read-modify-write transactions retried on conflict, on KegDB (embedded nosync and sync, in-memory), H2 and
 * SQLite in one run, each through a HikariCP pool with one connection per thread. Prints a Markdown table of
 * committed increments per second, lost increments (acknowledged minus the counters' final sum) and retries.
 *
 * <pre>
 * java -jar bench/target/kegdb-bench.jar txn [--seconds S] [--threads N] [--only kegdb_nosync,h2,...] [--dir DIR]
 * </pre>
 */
public final class ContendedUpdateBenchmark {

    static final int[] HOT_KEYS = {1, 100};

    private double seconds = 3;
    private int threads = 16;
    private List<ContendedTarget> targets = List.of(ContendedTarget.values());
    private Path dir;

    /** One row of the table. */
    record Row(ContendedTarget target, IncrementMode mode, int keys, IncrementResult result) {
    }

    private ContendedUpdateBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        ContendedUpdateBenchmark bench = new ContendedUpdateBenchmark();
        bench.parse(args);
        System.out.print(table(bench.run(), bench.threads, bench.seconds));
    }

    private void parse(String[] args) throws IOException {
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            if (value == null && !args[i].equals("--help")) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            switch (args[i]) {
                case "--seconds" -> seconds = Double.parseDouble(value);
                case "--threads" -> threads = Integer.parseInt(value);
                case "--dir" -> dir = Path.of(value);
                case "--only" -> {
                    List<ContendedTarget> chosen = new ArrayList<>();
                    for (String name : value.split(",")) {
                        chosen.add(ContendedTarget.valueOf(name.trim().toUpperCase(Locale.ROOT)));
                    }
                    targets = chosen;
                }
                case "--help" -> {
                    System.err.println("txn [--seconds S (3)] [--threads N (16)] [--only "
                            + String.join(",", Stream.of(ContendedTarget.values()).map(t -> t.name().toLowerCase(Locale.ROOT)).toList())
                            + "] [--dir DIR]");
                    System.exit(0);
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (known: --seconds --threads --only --dir --help)");
            }
            i++;
        }
        if (dir == null) {
            dir = Files.createTempDirectory("kegdb-txn-bench");
        }
    }

    private List<Row> run() throws Exception {
        return runAll(targets, threads, seconds, dir);
    }

    /** Every target, hot-key count and mode, each on a new database under {@code dir}. */
    static List<Row> runAll(List<ContendedTarget> targets, int threads, double seconds, Path dir) throws Exception {
        List<Row> rows = new ArrayList<>();
        int n = 0;
        for (ContendedTarget target : targets) {
            for (IncrementMode mode : IncrementMode.values()) {
                for (int keys : HOT_KEYS) {
                    Path runDir = Files.createDirectories(dir.resolve("run-" + n++));
                    IncrementResult r = runOne(target, mode, keys, threads, seconds, runDir);
                    System.err.printf("%-16s %-42s %3d keys: %,10.0f/s, lost %,d of %,d, %,d retries%n", target.label(),
                            mode.label, keys, r.perSecond(), r.lost(), r.acknowledged(), r.retries());
                    rows.add(new Row(target, mode, keys, r));
                    deleteRecursively(runDir);
                }
            }
        }
        return rows;
    }

    static IncrementResult runOne(ContendedTarget target, IncrementMode mode, int keys, int threads, double seconds,
                                  Path runDir) throws Exception {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(target.url(runDir));
        config.setMaximumPoolSize(threads);
        config.setMinimumIdle(threads);
        config.setPoolName("txn-" + target.name().toLowerCase(Locale.ROOT));
        try (HikariDataSource pool = new HikariDataSource(config)) {
            ContendedIncrements increments = new ContendedIncrements(pool, target);
            increments.createCounters(keys);
            return increments.run(mode, threads, keys, seconds);
        }
    }

    static String table(List<Row> rows, int threads, double seconds) {
        StringBuilder sb = new StringBuilder();
        sb.append(String.format("%d threads, %.1f s per run, HikariCP pool of %d; transactions at SERIALIZABLE,"
                + " retried on conflict.%n%n", threads, seconds, threads));
        sb.append("| database | workload | hot keys | committed increments/s | acknowledged | final sum | lost | retries |\n");
        sb.append("|---|---|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            IncrementResult x = r.result();
            sb.append(String.format("| %s | %s | %d | %,.0f | %,d | %,d | %,d | %,d |%n", r.target().label(), r.mode().label,
                    r.keys(), x.perSecond(), x.acknowledged(), x.finalSum(), x.lost(), x.retries()));
        }
        return sb.toString();
    }

    private static void deleteRecursively(Path p) throws IOException {
        try (Stream<Path> walk = Files.walk(p)) {
            for (Path q : walk.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }
}
