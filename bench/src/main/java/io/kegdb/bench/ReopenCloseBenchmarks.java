package io.kegdb.bench;

import io.kegdb.engine.Bitcask;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Closing a store that was opened and not written to (a console session that only read, a tool that looked),
 * and opening it: each invocation opens a cleanly closed store of {@code keys} keys (8-byte keys, 128-byte
 * values) and closes it. One shot per invocation, the store's files in the page cache.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 5)
@Measurement(iterations = 20)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class ReopenCloseBenchmarks {

    @State(Scope.Benchmark)
    public static class ClosedStore {
        @Param({"100000"})
        public long keys;

        ScratchDirectory dir;

        @Setup(Level.Trial)
        public void load() throws Exception {
            dir = ScratchDirectory.create(BenchStores.parentDirectory(), "kegdb-jmh-reopen-");
            try (Bitcask db = BenchStores.open(dir.path())) {
                BenchStores.fill(db, new KeySpace(1, 8, 128), keys);
            }
        }

        @TearDown(Level.Trial)
        public void delete() throws Exception {
            dir.close();
        }
    }

    /** The store, opened before each timed close. */
    @State(Scope.Thread)
    public static class OpenStore {
        Bitcask db;

        @Setup(Level.Invocation)
        public void open(ClosedStore store) throws Exception {
            db = BenchStores.open(store.dir.path());
        }

        @TearDown(Level.Invocation)
        public void closeIfOpen() {
            db.close();
        }
    }

    /** Close of the store just opened, nothing written since. */
    @Benchmark
    public void closeUnchanged(OpenStore store) {
        store.db.close();
    }

    /** Open of the cleanly closed store (hints for every segment) and its close, nothing written. */
    @Benchmark
    public void openAndClose(ClosedStore store) throws Exception {
        BenchStores.open(store.dir.path()).close();
    }
}
