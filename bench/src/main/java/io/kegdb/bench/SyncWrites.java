package io.kegdb.bench;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/** KegDB puts with {@link Durability#SYNC}: latency of one writer, throughput of many. */
final class SyncWrites {

    /** Keys of writer thread t start at t * STRIDE, so writers never collide. */
    private static final long STRIDE = 1L << 40;

    private final Path parent;
    private final KeySpace keys;
    private final PrintStream progress;

    SyncWrites(Path parent, KeySpace keys, PrintStream progress) {
        this.parent = parent;
        this.keys = keys;
        this.progress = progress;
    }

    /** Latency of SYNC puts from one thread, at most {@code maxOps} or {@code maxNanos}. */
    LatencyHistogram latency(int maxOps, long maxNanos) throws Exception {
        try (ScratchDirectory dir = ScratchDirectory.create(parent, "kegdb-bench-sync-");
             Bitcask db = Bitcask.open(dir.path(), options())) {
            LatencyHistogram h = new LatencyHistogram();
            long deadline = System.nanoTime() + maxNanos;
            for (int i = 0; i < maxOps && System.nanoTime() < deadline; i++) {
                byte[] k = keys.key(i);
                byte[] v = keys.value(i);
                long start = System.nanoTime();
                db.put(k, v, Durability.SYNC);
                h.record(System.nanoTime() - start);
            }
            return h;
        }
    }

    /** Total SYNC puts per second of {@code threads} writers running for {@code nanos}. */
    double throughput(int threads, long nanos) throws Exception {
        try (ScratchDirectory dir = ScratchDirectory.create(parent, "kegdb-bench-sync" + threads + "-");
             Bitcask db = Bitcask.open(dir.path(), options())) {
            if (progress != null) {
                progress.printf("  KegDB SYNC puts, %d writer(s), %.1f s%n", threads, nanos / 1e9);
            }
            CountDownLatch ready = new CountDownLatch(threads);
            CountDownLatch go = new CountDownLatch(1);
            long[] done = new long[threads];
            AtomicReference<Throwable> failure = new AtomicReference<>();
            long[] deadline = new long[1];
            List<Thread> writers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                Thread writer = new Thread(() -> {
                    ready.countDown();
                    try {
                        go.await();
                        long n = 0;
                        while (System.nanoTime() < deadline[0]) {
                            long i = id * STRIDE + n;
                            db.put(keys.key(i), keys.value(i), Durability.SYNC);
                            n++;
                        }
                        done[id] = n;
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, "sync-writer-" + t);
                writers.add(writer);
                writer.start();
            }
            ready.await();
            long start = System.nanoTime();
            deadline[0] = start + nanos;
            go.countDown();
            for (Thread writer : writers) {
                writer.join();
            }
            long elapsed = System.nanoTime() - start;
            if (failure.get() != null) {
                throw new IllegalStateException("a SYNC writer failed", failure.get());
            }
            long total = 0;
            for (long n : done) {
                total += n;
            }
            return total / (elapsed / 1e9);
        }
    }

    private static BitcaskOptions options() {
        return BitcaskOptions.builder().durability(Durability.SYNC).build();
    }
}
