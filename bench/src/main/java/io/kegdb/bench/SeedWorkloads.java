package io.kegdb.bench;

import java.io.PrintStream;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The seed-workload runner: the go-bitcask table (put N keys, then N random gets) on KegDB, RocksDB and LMDB
 * in one run, with ratios; then KegDB's SYNC put latency against this machine's fsync floor, SYNC throughput
 * with 1, 8 and 64 writers, and put latency while a merge runs. Tables go to stdout as Markdown, progress to
 * stderr. See docs/BENCHMARKS.md for the command and what every number means.
 */
public final class SeedWorkloads {

    static final int[] SYNC_WRITERS = {1, 8, 64};
    private static final int MAX_LATENCY_OPS = 200_000;

    private final RunnerOptions options;
    private final PrintStream out;
    private final PrintStream progress;

    SeedWorkloads(RunnerOptions options, PrintStream out, PrintStream progress) {
        this.options = options;
        this.out = out;
        this.progress = options.progress() ? progress : null;
    }

    public static void main(String[] args) throws Exception {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            System.out.println(RunnerOptions.USAGE);
            return;
        }
        RunnerOptions options;
        try {
            options = RunnerOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.err.println(RunnerOptions.USAGE);
            System.exit(2);
            return;
        }
        new SeedWorkloads(options, System.out, System.err).run();
    }

    /** Runs the chosen parts; returns the seed-table rows. */
    List<SeedResult> run() throws Exception {
        out.println("## Run of " + Instant.now().truncatedTo(ChronoUnit.SECONDS));
        out.println();
        out.println("Machine: " + MachineDescription.describe(options.dir()) + ".");
        out.println();
        List<SeedResult> results = new ArrayList<>();
        if (options.parts().contains(RunnerOptions.Part.SEED)) {
            results = seedTable();
        }
        boolean kegdb = options.engines().contains(Engine.KEGDB);
        if (options.parts().contains(RunnerOptions.Part.SYNC) && kegdb) {
            syncWrites();
        }
        if (options.parts().contains(RunnerOptions.Part.MERGE) && kegdb) {
            mergeStall();
        }
        out.flush();
        return results;
    }

    private List<SeedResult> seedTable() throws Exception {
        SeedRun runner = new SeedRun(options.dir(), options.seed(), progress);
        if (options.warmupKeys() > 0) {
            Workload first = options.workloads().get(0);
            Workload warmup = new Workload(options.warmupKeys(), first.keySize(), first.valueSize());
            for (Engine engine : options.engines()) {
                note("warm-up (untimed): " + engine.displayName() + " " + warmup.label());
                runner.run(engine, warmup);
            }
        }
        List<SeedResult> results = new ArrayList<>();
        for (Workload w : options.workloads()) {
            for (Engine engine : options.engines()) {
                note(engine.displayName() + " " + w.label());
                SeedResult r = runner.run(engine, w);
                note(String.format(Locale.ROOT, "%s %s: put %.2f s, get %.2f s, %.1f B/key",
                        engine.displayName(), w.label(), r.putNanos() / 1e9, r.getNanos() / 1e9, r.memoryBytesPerKey()));
                results.add(r);
            }
        }
        out.println("### Seed workloads (go-bitcask table)");
        out.println();
        out.print(MarkdownReport.seedTable(results));
        String ratios = MarkdownReport.ratioTable(results, options.workloads(), options.engines());
        if (!ratios.isEmpty()) {
            out.println();
            out.println("Ratios (ops/s of KegDB over the peer's; above 1 is KegDB faster):");
            out.println();
            out.print(ratios);
        }
        out.println();
        out.flush();
        return results;
    }

    private void syncWrites() throws Exception {
        KeySpace keys = new KeySpace(options.seed(), 8, 128);
        long nanos = options.phaseNanos();
        note("fsync floor");
        FsyncFloor floor = FsyncFloor.measure(options.dir(), MAX_LATENCY_OPS, nanos);
        SyncWrites sync = new SyncWrites(options.dir(), keys, progress);
        note("KegDB SYNC put latency, 1 writer");
        LatencyHistogram latency = sync.latency(MAX_LATENCY_OPS, nanos);
        double[] throughput = new double[SYNC_WRITERS.length];
        for (int i = 0; i < SYNC_WRITERS.length; i++) {
            throughput[i] = sync.throughput(SYNC_WRITERS[i], nanos);
        }
        out.println("### SYNC writes (8 B keys, 128 B values)");
        out.println();
        out.print(MarkdownReport.latencyHeader());
        out.print(MarkdownReport.latencyRow("fsync floor: append " + FsyncFloor.RECORD_BYTES + " B + fdatasync",
                floor.append()));
        out.print(MarkdownReport.latencyRow("fsync floor: overwrite " + FsyncFloor.RECORD_BYTES + " B + fdatasync",
                floor.overwrite()));
        out.print(MarkdownReport.latencyRow("KegDB put SYNC, 1 writer", latency));
        out.println();
        out.printf(Locale.ROOT, "KegDB SYNC put over the append floor: p50 %.2f×, mean %.2f×; "
                        + "over the overwrite floor: p50 %.2f×, mean %.2f×.%n",
                (double) latency.percentileNanos(0.5) / floor.append().percentileNanos(0.5),
                latency.meanNanos() / floor.append().meanNanos(),
                (double) latency.percentileNanos(0.5) / floor.overwrite().percentileNanos(0.5),
                latency.meanNanos() / floor.overwrite().meanNanos());
        out.println();
        out.print(MarkdownReport.throughputTable(SYNC_WRITERS, throughput));
        out.println();
        out.flush();
    }

    private void mergeStall() throws Exception {
        KeySpace keys = new KeySpace(options.seed(), 8, 128);
        note("KegDB put latency during merge");
        MergeStall.Result r = new MergeStall(options.dir(), keys, options.seed(), progress)
                .run(options.mergeKeys(), options.phaseNanos());
        out.printf(Locale.ROOT, "### NO_SYNC put latency during a merge (%,d keys of 8 B, 128 B values, "
                + "each written twice, %,d KiB segments)%n%n", r.keys(), r.segmentBytes() >> 10);
        out.print(MarkdownReport.latencyHeader());
        out.print(MarkdownReport.latencyRow("put NO_SYNC, no merge running", r.baseline()));
        out.print(MarkdownReport.latencyRow("put NO_SYNC, merge running", r.duringMerge()));
        out.println();
        out.printf(Locale.ROOT, "Merge took %.2f s: %d → %d segments, dead bytes %,d → %,d.%n",
                r.mergeNanos() / 1e9, r.before().segments(), r.after().segments(),
                r.before().deadBytes(), r.after().deadBytes());
        out.printf(Locale.ROOT, "JVM garbage collection: %d collections, %,d ms in all during the baseline; "
                        + "%d collections, %,d ms during the merge.%n%n",
                r.baselineGc().collections(), r.baselineGc().millis(),
                r.mergeGc().collections(), r.mergeGc().millis());
        out.flush();
    }

    private void note(String message) {
        if (progress != null) {
            progress.println("[bench] " + message);
        }
    }
}
