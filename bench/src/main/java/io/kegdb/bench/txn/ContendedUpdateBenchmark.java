package io.kegdb.bench.txn;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;

/**
 * Contended updates: threads incrementing 1 hot counter and 100 hot counters, autocommitted and in
 * read-modify-write transactions retried on conflict, on KegDB (embedded nosync and sync, in-memory), H2 and
 * SQLite in one run, each through a HikariCP pool with one connection per thread. Prints a Markdown table of
 * committed increments per second, lost increments (acknowledged minus the counters' final sum) and retries.
 * With {@code --table}, the anomaly table instead ({@link AnomalyTable}): 4 threads by default, on KegDB
 * embedded, in memory and on a 3-node cluster in this JVM, H2 and SQLite.
 *
 * <pre>
 * java -jar bench/target/kegdb-bench.jar txn [--table] [--seconds S] [--threads N] [--only kegdb_nosync,h2,...] [--dir DIR]
 * </pre>
 */
public final class ContendedUpdateBenchmark {

    static final int[] HOT_KEYS = {1, 100};

    private double seconds = 3;
    private boolean anomalyTable;
    private Integer threads;
    private List<ContendedTarget> targets;
    private Path dir;

    /** One row of the table. */
    record Row(ContendedTarget target, IncrementMode mode, int keys, IncrementResult result) {
    }

    private ContendedUpdateBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        ContendedUpdateBenchmark bench = new ContendedUpdateBenchmark();
        bench.parse(args);
        if (bench.anomalyTable) {
            int threads = bench.threads == null ? 4 : bench.threads;
            List<ContendedTarget> targets = bench.targets == null ? AnomalyTable.TARGETS : bench.targets;
            System.out.print(AnomalyTable.format(AnomalyTable.run(targets, threads, bench.seconds, bench.dir), targets,
                    threads, bench.seconds));
        } else {
            int threads = bench.threads == null ? 16 : bench.threads;
            List<ContendedTarget> targets = bench.targets == null ? ContendedTarget.SINGLE_NODE : bench.targets;
            System.out.print(table(runAll(targets, threads, bench.seconds, bench.dir), threads, bench.seconds));
        }
    }

    private void parse(String[] args) throws IOException {
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--table")) {
                anomalyTable = true;
                continue;
            }
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
                    System.err.println("txn [--table] [--seconds S (3)] [--threads N (16; 4 with --table)] [--only "
                            + String.join(",", Stream.of(ContendedTarget.values()).map(t -> t.name().toLowerCase(Locale.ROOT)).toList())
                            + "] [--dir DIR]");
                    System.err.println("  default: 1 and 100 hot counters, autocommitted and in transactions, on "
                            + names(ContendedTarget.SINGLE_NODE));
                    System.err.println("  --table: the anomaly table (lost increments, bank total, wrong audits) on "
                            + names(AnomalyTable.TARGETS));
                    System.exit(0);
                }
                default -> throw new IllegalArgumentException("unknown argument " + args[i]
                        + " (known: --table --seconds --threads --only --dir --help)");
            }
            i++;
        }
        if (dir == null) {
            dir = Files.createTempDirectory("kegdb-txn-bench");
        }
    }

    private static String names(List<ContendedTarget> targets) {
        return String.join(",", targets.stream().map(t -> t.name().toLowerCase(Locale.ROOT)).toList());
    }

    /** Every target, hot-key count and mode, each on a new database under {@code dir}. */
    static List<Row> runAll(List<ContendedTarget> targets, int threads, double seconds, Path dir) throws Exception {
        List<Row> rows = new ArrayList<>();
        int n = 0;
        for (ContendedTarget target : targets) {
            for (IncrementMode mode : IncrementMode.values()) {
                for (int keys : HOT_KEYS) {
                    IncrementResult r = runOne(target, mode, keys, threads, seconds, dir.resolve("run-" + n++));
                    System.err.printf("%-16s %-42s %3d keys: %,10.0f/s, lost %,d of %,d, %,d retries%n", target.label(),
                            mode.label, keys, r.perSecond(), r.lost(), r.acknowledged(), r.retries());
                    rows.add(new Row(target, mode, keys, r));
                }
            }
        }
        return rows;
    }

    static IncrementResult runOne(ContendedTarget target, IncrementMode mode, int keys, int threads, double seconds,
                                  Path runDir) throws Exception {
        return PooledRun.run(target, threads, runDir, pool -> {
            ContendedIncrements increments = new ContendedIncrements(pool, target);
            increments.createCounters(keys);
            return increments.run(mode, threads, keys, seconds);
        });
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
}
