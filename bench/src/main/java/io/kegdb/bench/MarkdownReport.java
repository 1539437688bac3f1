package io.kegdb.bench;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** Renders measurements as Markdown tables (the format docs/BENCHMARKS.md keeps). */
final class MarkdownReport {

    private MarkdownReport() {
    }

    static String seedTable(List<SeedResult> results) {
        StringBuilder sb = new StringBuilder();
        sb.append("| workload (keys:key B:value B) | engine | put s | put ops/s | get s | get ops/s "
                + "| memory B/key | store-reported B/key | disk MiB | reopen s |\n");
        sb.append("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|\n");
        for (SeedResult r : results) {
            long n = r.workload().keys();
            sb.append(String.format(Locale.ROOT, "| %s | %s | %.3f | %,.0f | %.3f | %,.0f | %.1f | %s | %,.0f | %.3f |%n",
                    r.workload().label(), r.engine().displayName(),
                    r.putNanos() / 1e9, r.putOpsPerSecond(), r.getNanos() / 1e9, r.getOpsPerSecond(),
                    noNegativeZero(r.memoryBytesPerKey()),
                    r.reportedMemoryBytes() < 0 ? "—"
                            : String.format(Locale.ROOT, "%.1f", (double) r.reportedMemoryBytes() / n),
                    r.diskBytes() / (1024.0 * 1024.0), r.reopenNanos() / 1e9));
        }
        return sb.toString();
    }

    /** Heap noise of a few bytes in either direction would print as "-0.0". */
    private static double noNegativeZero(double v) {
        return Math.abs(v) < 0.05 ? 0.0 : v;
    }

    /** KegDB over each peer, per workload: above 1 means KegDB did more operations per second. */
    static String ratioTable(List<SeedResult> results, List<Workload> workloads, List<Engine> engines) {
        if (!engines.contains(Engine.KEGDB) || engines.size() < 2) {
            return "";
        }
        StringBuilder header = new StringBuilder("| workload |");
        StringBuilder rule = new StringBuilder("|---|");
        for (Engine peer : engines) {
            if (peer != Engine.KEGDB) {
                header.append(" put KegDB/").append(peer.displayName())
                        .append(" | get KegDB/").append(peer.displayName()).append(" |");
                rule.append("--:|--:|");
            }
        }
        StringBuilder sb = new StringBuilder(header).append('\n').append(rule).append('\n');
        for (Workload w : workloads) {
            Optional<SeedResult> keg = find(results, w, Engine.KEGDB);
            if (keg.isEmpty()) {
                continue;
            }
            sb.append("| ").append(w.label()).append(" |");
            for (Engine peer : engines) {
                if (peer == Engine.KEGDB) {
                    continue;
                }
                Optional<SeedResult> other = find(results, w, peer);
                if (other.isEmpty()) {
                    sb.append(" — | — |");
                } else {
                    sb.append(String.format(Locale.ROOT, " %.2f× | %.2f× |",
                            keg.get().putOpsPerSecond() / other.get().putOpsPerSecond(),
                            keg.get().getOpsPerSecond() / other.get().getOpsPerSecond()));
                }
            }
            sb.append('\n');
        }
        return sb.toString();
    }

    private static Optional<SeedResult> find(List<SeedResult> results, Workload w, Engine e) {
        return results.stream().filter(r -> r.workload().equals(w) && r.engine() == e).findFirst();
    }

    static String latencyHeader() {
        return "| measurement | ops | p50 µs | p99 µs | p99.9 µs | mean µs | max µs |\n"
                + "|---|--:|--:|--:|--:|--:|--:|\n";
    }

    static String latencyRow(String name, LatencyHistogram h) {
        return String.format(Locale.ROOT, "| %s | %,d | %.1f | %.1f | %.1f | %.1f | %.1f |%n", name, h.count(),
                h.percentileNanos(0.50) / 1e3, h.percentileNanos(0.99) / 1e3, h.percentileNanos(0.999) / 1e3,
                h.meanNanos() / 1e3, h.maxNanos() / 1e3);
    }

    static String throughputTable(int[] writers, double[] opsPerSecond) {
        StringBuilder sb = new StringBuilder("| SYNC writers | puts/s | × 1 writer |\n|--:|--:|--:|\n");
        for (int i = 0; i < writers.length; i++) {
            sb.append(String.format(Locale.ROOT, "| %d | %,.0f | %.1f× |%n", writers[i], opsPerSecond[i],
                    opsPerSecond[i] / opsPerSecond[0]));
        }
        return sb.toString();
    }
}
