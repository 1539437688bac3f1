package io.kegdb.bench.raft;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The seed's Raft store benchmark on KegDB's {@code BitcaskLogStorage} and SOFAJRaft's
 * {@code RocksDBLogStorage}, without and with sync, in one run: prints each result as it is measured, then a
 * Markdown table of ns/op and the Bitcask/RocksDB ratio.
 *
 * <p>Both stores run in one loop, taking turns (see {@link GoBenchLoop}), so that contention from elsewhere
 * on the machine hits both alike. Every measurement is repeated in rounds and the median is reported.
 *
 * <p>Arguments: seconds per measured run (default 1), rounds (default 3), data directory (default
 * {@code target/raft-bench}), optionally a comma-separated list of operations to run (default all).
 * Run it with {@code mvn -B -q -pl bench -am -DskipTests -Draft-bench verify}.
 */
public final class RaftLogStoreBench {

    /** Goal for the ratio: half RocksDB's time, or 1.1x where an fsync sets the floor for both. */
    static double goal(RaftWorkload workload, boolean sync) {
        return sync && workload.writes ? 1.1 : 0.5;
    }

    private RaftLogStoreBench() {
    }

    public static void main(String[] args) {
        double seconds = args.length > 0 ? Double.parseDouble(args[0]) : 1;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dataDir = Path.of(args.length > 2 ? args[2] : "target/raft-bench");
        Set<String> only = args.length > 3 ? Set.of(args[3].split(",")) : null;
        long target = (long) (seconds * 1e9);
        PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);

        Map<Boolean, Map<RaftWorkload, Map<RaftStore, Double>>> results = new LinkedHashMap<>();
        for (boolean sync : new boolean[] {false, true}) {
            Map<RaftWorkload, Map<RaftStore, Double>> byWorkload = new EnumMap<>(RaftWorkload.class);
            Function<RaftStore, StoreFixture> fixtures = store -> new StoreFixture(store, sync, dataDir);
            results.put(sync, byWorkload);
            for (RaftWorkload workload : RaftWorkload.values()) {
                if (only != null && !only.contains(workload.label)) {
                    continue;
                }
                Map<RaftStore, double[]> samples = new EnumMap<>(RaftStore.class);
                for (int round = 0; round < rounds; round++) {
                    Map<RaftStore, GoBenchLoop.Result> measured = GoBenchLoop.measure(workload, fixtures, target);
                    int r = round;
                    measured.forEach((store, result) -> {
                        samples.computeIfAbsent(store, k -> new double[rounds])[r] = result.nsPerOp();
                        out.printf(Locale.ROOT, "%-20s %-7s %-12s %10d %14.1f ns/op%n", store.label,
                                sync ? "sync" : "nosync", workload.label, result.n(), result.nsPerOp());
                    });
                }
                Map<RaftStore, Double> byStore = new EnumMap<>(RaftStore.class);
                samples.forEach((store, ns) -> byStore.put(store, median(ns)));
                byWorkload.put(workload, byStore);
            }
        }
        out.println();
        out.println(table(results));
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    static String table(Map<Boolean, Map<RaftWorkload, Map<RaftStore, Double>>> results) {
        StringBuilder sb = new StringBuilder();
        sb.append("| Operation | Mode | BitcaskLogStorage ns/op | RocksDBLogStorage ns/op | Ratio | Goal (✗ = missed) |\n");
        sb.append("|---|---|---:|---:|---:|---:|\n");
        results.forEach((sync, byWorkload) -> byWorkload.forEach((workload, byStore) -> {
            double bitcask = byStore.get(RaftStore.BITCASK);
            double rocks = byStore.get(RaftStore.ROCKSDB);
            double ratio = bitcask / rocks;
            double goal = goal(workload, sync);
            String goalText = workload.memoryOnBoth ? "— (field read on both)"
                    : String.format(Locale.ROOT, "≤ %.1f%s", goal, ratio <= goal ? "" : " ✗");
            sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %.2f | %s |%n", workload.label,
                    sync ? "sync" : "nosync", format(bitcask), format(rocks), ratio, goalText));
        }));
        return sb.toString();
    }

    private static String format(double ns) {
        return ns >= 100 ? String.format(Locale.ROOT, "%,.0f", ns) : String.format(Locale.ROOT, "%.1f", ns);
    }
}
