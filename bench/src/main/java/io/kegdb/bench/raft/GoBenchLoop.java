package io.kegdb.bench.raft;

import java.util.function.Supplier;

/**
 * Go's {@code testing.B} loop: run with n = 1, then grow n (at most 100x, aiming 20% past the target) until a
 * run lasts the target time; the last run's time per operation is the result. Every run gets a fresh fixture.
 */
final class GoBenchLoop {

    private static final int MAX_N = 1_000_000_000;

    private GoBenchLoop() {
    }

    /** The operations of the final run and its nanoseconds per operation. */
    record Result(int n, double nsPerOp) {
    }

    static Result measure(RaftWorkload workload, Supplier<StoreFixture> fixtures, long targetNanos) {
        int n = 1;
        while (true) {
            long nanos;
            try (StoreFixture f = fixtures.get()) {
                nanos = workload.run(f, n);
            }
            if (nanos >= targetNanos || n >= MAX_N) {
                return new Result(n, (double) nanos / n);
            }
            long prev = Math.max(nanos, 1);
            long next = targetNanos * n / prev;
            next += next / 5;
            next = Math.min(next, 100L * n);
            next = Math.max(next, n + 1L);
            n = (int) Math.min(next, MAX_N);
        }
    }
}
