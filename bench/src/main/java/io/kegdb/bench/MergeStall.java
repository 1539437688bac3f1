package io.kegdb.bench;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.BitcaskStats;
import io.kegdb.engine.Durability;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;

/**
 * Foreground NO_SYNC put latency while a merge runs: load N keys into small segments, overwrite them all
 * (half the bytes become garbage), record put latency for a while without a merge, then start
 * {@link Bitcask#merge()} on another thread and record put latency until it finishes.
 */
final class MergeStall {

    /** Largest segment size used: small segments, so the load seals many that the merge can rewrite. */
    static final long MAX_SEGMENT_BYTES = 32L << 20;
    /** Per-record bytes assumed when sizing segments (8 B key, 128 B value, header). */
    private static final long RECORD_BYTES_ESTIMATE = 160;
    private static final long MAX_RECORDING_NANOS = Duration.ofMinutes(5).toNanos();

    /**
     * @param baseline         put latencies before the merge
     * @param duringMerge      put latencies while the merge ran
     * @param mergeNanos       how long the merge took
     * @param before           store stats when the merge started
     * @param after            store stats after it
     * @param baselineGc       collector activity while the baseline was recorded
     * @param mergeGc          collector activity while the merge ran
     */
    record Result(long keys, long segmentBytes, LatencyHistogram baseline, LatencyHistogram duringMerge, long mergeNanos,
                  BitcaskStats before, BitcaskStats after, GcActivity baselineGc, GcActivity mergeGc) {
    }

    private final Path parent;
    private final KeySpace keys;
    private final long seed;
    private final PrintStream progress;

    MergeStall(Path parent, KeySpace keys, long seed, PrintStream progress) {
        this.parent = parent;
        this.keys = keys;
        this.seed = seed;
        this.progress = progress;
    }

    Result run(long n, long baselineNanos) throws Exception {
        long segmentBytes = segmentBytes(n);
        BitcaskOptions options = BitcaskOptions.builder().durability(Durability.NO_SYNC)
                .segmentSize(segmentBytes).mergeInterval(Duration.ZERO).build();
        ExecutorService mergeThread = Executors.newSingleThreadExecutor(r -> new Thread(r, "bench-merge"));
        try (ScratchDirectory dir = ScratchDirectory.create(parent, "kegdb-bench-merge-");
             Bitcask db = Bitcask.open(dir.path(), options)) {
            StoreUnderTest view = KegDbStore.over(db); // not closed here: the try block owns db
            SeedRun.load(view, keys, n, Progress.of(progress, "KegDB merge setup: load", n));
            SeedRun.load(view, keys, n, Progress.of(progress, "KegDB merge setup: overwrite", n));
            SplittableRandom order = new SplittableRandom(seed);

            LatencyHistogram baseline = new LatencyHistogram();
            GcActivity gcBeforeBaseline = GcActivity.now();
            long end = System.nanoTime() + baselineNanos;
            while (System.nanoTime() < end) {
                timedOverwrite(db, order, n, baseline);
            }

            GcActivity baselineGc = GcActivity.now().since(gcBeforeBaseline);
            BitcaskStats before = db.stats();
            if (progress != null) {
                progress.printf("  KegDB merge: %d segments, %,d live bytes, %,d dead bytes; merging%n",
                        before.segments(), before.liveBytes(), before.deadBytes());
            }
            LatencyHistogram during = new LatencyHistogram();
            GcActivity gcBeforeMerge = GcActivity.now();
            long start = System.nanoTime();
            CompletableFuture<Void> merge = CompletableFuture.runAsync(() -> {
                try {
                    db.merge();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }, mergeThread);
            long stopRecording = start + MAX_RECORDING_NANOS;
            while (!merge.isDone() && System.nanoTime() < stopRecording) {
                timedOverwrite(db, order, n, during);
            }
            try {
                merge.get();
            } catch (ExecutionException e) {
                throw new IllegalStateException("merge failed", e.getCause());
            }
            long mergeNanos = System.nanoTime() - start;
            GcActivity mergeGc = GcActivity.now().since(gcBeforeMerge);
            return new Result(n, segmentBytes, baseline, during, mergeNanos, before, db.stats(), baselineGc, mergeGc);
        } finally {
            mergeThread.shutdownNow();
        }
    }

    /** About eight segments' worth of writes in the load and overwrite, at most 32 MiB each. */
    static long segmentBytes(long keys) {
        return Math.max(64 << 10, Math.min(MAX_SEGMENT_BYTES, keys * RECORD_BYTES_ESTIMATE / 4));
    }

    private void timedOverwrite(Bitcask db, SplittableRandom order, long n, LatencyHistogram h) {
        long k = order.nextLong(n);
        byte[] key = keys.key(k);
        byte[] value = keys.value(k);
        long start = System.nanoTime();
        db.put(key, value, Durability.NO_SYNC);
        h.record(System.nanoTime() - start);
    }
}
