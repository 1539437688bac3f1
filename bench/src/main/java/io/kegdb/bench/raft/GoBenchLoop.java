package io.kegdb.bench.raft;

import java.util.EnumMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Go's {@code testing.B} loop: run with n = 1, then grow n (at most 100x, aiming 20% past the target) until a
 * run lasts the target time; the last run's time per operation is the result. Every run gets fresh fixtures.
 */
final class GoBenchLoop {

    private static final int MAX_N = 1_000_000_000;

    private GoBenchLoop() {
    }

    /** The operations of the final run and its nanoseconds per operation. */
    record Result(int n, double nsPerOp) {
    }

    /** One store on its own. */
    static Result measure(RaftWorkload workload, Function<RaftStore, StoreFixture> fixtures, RaftStore store,
                          long targetNanos) {
        int n = 1;
        while (true) {
            long nanos;
            try (StoreFixture f = fixtures.apply(store)) {
                nanos = workload.run(f, n);
            }
            if (nanos >= targetNanos || n >= MAX_N) {
                return new Result(n, (double) nanos / n);
            }
            n = next(n, nanos, targetNanos);
        }
    }

    /**
     * Every store at once, operation by operation in alternating order, each timed on its own: a burst of
     * disk or CPU contention from elsewhere on the machine hits both stores alike.
     */
    static Map<RaftStore, Result> measurePaired(RaftWorkload workload, Function<RaftStore, StoreFixture> fixtures,
                                                long targetNanos) {
        RaftStore[] stores = RaftStore.values();
        int n = 1;
        while (true) {
            long[] nanos = new long[stores.length];
            StoreFixture[] f = new StoreFixture[stores.length];
            try {
                for (int s = 0; s < stores.length; s++) {
                    f[s] = fixtures.apply(stores[s]);
                    workload.setup(f[s], n);
                }
                for (int i = 1; i <= n; i++) {
                    for (int k = 0; k < stores.length; k++) {
                        int s = (i + k) % stores.length;
                        long start = System.nanoTime();
                        workload.op(f[s], i);
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
