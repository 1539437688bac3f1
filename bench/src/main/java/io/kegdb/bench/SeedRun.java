package io.kegdb.bench;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.SplittableRandom;

/** Runs one workload on one engine in a fresh directory: load, measure memory, random gets, reopen. */
final class SeedRun {

    private final Path parent;
    private final long seed;
    private final PrintStream progress;

    /**
     * @param parent   where the scratch directory is made
     * @param seed     seeds keys, values and the read order
     * @param progress stream for progress lines, or null
     */
    SeedRun(Path parent, long seed, PrintStream progress) {
        this.parent = parent;
        this.seed = seed;
        this.progress = progress;
    }

    SeedResult run(Engine engine, Workload w) throws Exception {
        KeySpace keys = new KeySpace(seed, w);
        String label = engine.displayName() + " " + w.label();
        try (ScratchDirectory dir = ScratchDirectory.create(parent, "kegdb-bench-" + engine.name().toLowerCase() + "-")) {
            MemoryProbe.Snapshot before = MemoryProbe.afterGc();
            long putNanos;
            long getNanos;
            MemoryProbe.Snapshot loaded;
            long reported;
            try (StoreUnderTest store = engine.open(dir.path(), w)) {
                putNanos = load(store, keys, w.keys(), Progress.of(progress, label + " put", w.keys()));
                loaded = MemoryProbe.afterGc();
                reported = store.reportedMemoryBytes();
                getNanos = randomGets(store, keys, w.keys(), Progress.of(progress, label + " get", w.keys()));
            }
            long disk = dir.sizeBytes();
            long reopenNanos = reopen(engine, dir.path(), w, keys);
            return new SeedResult(engine, w, putNanos, getNanos, loaded.heapUsed() - before.heapUsed(),
                    loaded.direct() - before.direct(), reported, disk, reopenNanos);
        }
    }

    /** Puts keys 0..n-1; returns the elapsed nanoseconds. */
    static long load(StoreUnderTest store, KeySpace keys, long n, Progress progress) throws Exception {
        long start = System.nanoTime();
        for (long i = 0; i < n; i++) {
            store.put(keys.key(i), keys.value(i));
            progress.at(i);
        }
        return System.nanoTime() - start;
    }

    private long randomGets(StoreUnderTest store, KeySpace keys, long n, Progress progress) throws Exception {
        SplittableRandom order = new SplittableRandom(seed ^ 0x6A09E667F3BCC909L);
        long start = System.nanoTime();
        for (long i = 0; i < n; i++) {
            long k = order.nextLong(n);
            byte[] value = store.get(keys.key(k));
            if (!keys.matches(k, value)) {
                throw new IllegalStateException("get of key #" + k + " returned "
                        + (value == null ? "nothing" : "a wrong value of " + value.length + " bytes"));
            }
            progress.at(i);
        }
        return System.nanoTime() - start;
    }

    private static long reopen(Engine engine, Path dir, Workload w, KeySpace keys) throws Exception {
        long start = System.nanoTime();
        try (StoreUnderTest store = engine.open(dir, w)) {
            long elapsed = System.nanoTime() - start;
            long last = w.keys() - 1;
            if (!keys.matches(last, store.get(keys.key(last)))) {
                throw new IllegalStateException(engine.displayName() + " lost key #" + last + " across reopen");
            }
            return elapsed;
        }
    }
}
