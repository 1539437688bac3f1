package io.kegdb.bench.raft;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Go's {@code testing.B} loop, run on every store at once: run with n = 1, then grow n (at most 100x, aiming
 * 20% past the target) until the slower store's share of a run lasts the target time; the last run's time per
 * operation is the result. Every run gets fresh fixtures.
 *
 * <p>Within a run the stores take turns, a block of operations each, every block timed on its own: a burst of
 * disk or CPU contention from elsewhere on the machine hits both stores alike. Writes alternate every
 * operation; reads, which take nanoseconds, in blocks long enough that the clock's cost vanishes.
 */
final class GoBenchLoop {

    private static final int MAX_N = 1_000_000_000;
    private static final int READ_BLOCK = 4096;

    /** Keeps results alive so the JIT cannot drop the measured calls. */
    static volatile long blackhole;

    private GoBenchLoop() {
    }

    /** The operations of the final run and its nanoseconds per operation. */
    record Result(int n, double nsPerOp) {
    }

    static Map<RaftStore, Result> measure(RaftWorkload workload, Function<RaftStore, StoreFixture> fixtures,
                                          long targetNanos) {
        RaftStore[] stores = RaftStore.values();
        int block = workload.writes ? 1 : READ_BLOCK;
        int n = 1;
        while (true) {
            long[] nanos = new long[stores.length];
            StoreFixture[] f = new StoreFixture[stores.length];
            long sink = 0;
            try {
                for (int s = 0; s < stores.length; s++) {
                    f[s] = fixtures.apply(stores[s]);
                    workload.setup(f[s], n);
                }
                for (int from = 1, turn = 0; from <= n; from += block, turn++) {
                    int to = (int) Math.min((long) from + block - 1, n);
                    for (int k = 0; k < stores.length; k++) {
                        int s = (turn + k) % stores.length;
                        StoreFixture fixture = f[s];
                        long start = System.nanoTime();
                        for (int i = from; i <= to; i++) {
                            sink += workload.op(fixture, i);
                        }
                        nanos[s] += System.nanoTime() - start;
                    }
                }
            } finally {
                for (StoreFixture fixture : f) {
                    if (fixture != null) {
                        fixture.close();
                    }
                }
            }
            blackhole += sink;
            long slowest = 0;
            for (long t : nanos) {
                slowest = Math.max(slowest, t);
            }
            if (slowest >= targetNanos || n >= MAX_N) {
                Map<RaftStore, Result> results = new EnumMap<>(RaftStore.class);
                for (int s = 0; s < stores.length; s++) {
                    results.put(stores[s], new Result(n, (double) nanos[s] / n));
                }
                return results;
            }
            n = next(n, slowest, targetNanos);
        }
    }

    private static int next(int n, long nanos, long targetNanos) {
        long prev = Math.max(nanos, 1);
        long next = targetNanos * n / prev;
        next += next / 5;
        next = Math.min(next, 100L * n);
        next = Math.max(next, n + 1L);
        return (int) Math.min(next, MAX_N);
    }
}
