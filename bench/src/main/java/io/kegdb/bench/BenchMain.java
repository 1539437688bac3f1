package io.kegdb.bench;

import java.util.Arrays;

/**
 * Entry point of the benchmark jar: {@code java -jar kegdb-bench.jar seed [options]} runs the seed workloads
 * ({@link SeedWorkloads}), {@code java -jar kegdb-bench.jar jmh [JMH options]} runs the JMH benchmarks,
 * {@code java -jar kegdb-bench.jar sql [options]} the SQL shapes on KegDB, SQLite and H2
 * ({@link io.kegdb.bench.sql.SqlShapesBenchmark}),
 * {@code java -jar kegdb-bench.jar txn [options]} the contended-update benchmark
 * ({@link io.kegdb.bench.txn.ContendedUpdateBenchmark}).
 */
public final class BenchMain {

    private BenchMain() {
    }

    public static void main(String[] args) throws Exception {
        String command = args.length == 0 ? "" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (command) {
            case "seed" -> SeedWorkloads.main(rest);
            case "jmh" -> org.openjdk.jmh.Main.main(rest);
            case "sql" -> io.kegdb.bench.sql.SqlShapesBenchmark.main(rest);
            case "txn" -> io.kegdb.bench.txn.ContendedUpdateBenchmark.main(rest);
            default -> {
                System.err.println("usage: java -jar kegdb-bench.jar seed [options]   (seed workloads; seed --help)");
                System.err.println("       java -jar kegdb-bench.jar jmh [JMH options] (JMH benchmarks; jmh -h)");
                System.err.println("       java -jar kegdb-bench.jar sql [--rows N] [--seconds S] [--warmup S] [--cold-runs N]"
                        + " [--only kegdb,sqlite,h2] [--dir DIR] (SQL shapes vs SQLite and H2)");
                System.err.println("       java -jar kegdb-bench.jar txn [--table] [options] (contended updates on KegDB, H2, SQLite;"
                        + " --table: the anomaly table; txn --help)");
                System.exit(2);
            }
        }
    }
}
