package io.kegdb.bench;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.Durability;
import io.kegdb.engine.WriteBatch;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Writes to KegDB: a single put with NO_SYNC and with SYNC, and an atomic batch of 100 puts. Keys cycle over
 * a fixed range of 1M so the keydir stays the same size while the log grows; every iteration starts on a
 * fresh store.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class WriteBenchmarks {

    private static final int KEY_RANGE = 1 << 20;
    private static final int VALUES = 1 << 10;
    private static final int BATCH = 100;

    /** A fresh store per iteration, so the log's size does not carry from one iteration to the next. */
    @State(Scope.Benchmark)
    public static class EmptyStore {
        ScratchDirectory dir;
        Bitcask db;
        byte[][] keys = new byte[KEY_RANGE][];
        byte[][] values = new byte[VALUES][];

        @Setup(Level.Trial)
        public void makeData() {
            KeySpace keySpace = new KeySpace(1, 8, 128);
            for (int i = 0; i < KEY_RANGE; i++) {
                keys[i] = keySpace.key(i);
            }
            for (int i = 0; i < VALUES; i++) {
                values[i] = keySpace.value(i);
            }
        }

        @Setup(Level.Iteration)
        public void open() throws Exception {
            dir = ScratchDirectory.create(BenchStores.parentDirectory(), "kegdb-jmh-write-");
            db = BenchStores.open(dir.path());
        }

        @TearDown(Level.Iteration)
        public void close() throws Exception {
            db.close();
            dir.close();
        }
    }

    /** Where one writer thread is in the key range. */
    @State(Scope.Thread)
    public static class Cursor {
        int next;

        int advance() {
            next = (next + 1) & (KEY_RANGE - 1);
            return next;
        }
    }

    @Benchmark
    public void putNoSync(EmptyStore s, Cursor c) {
        int i = c.advance();
        s.db.put(s.keys[i], s.values[i & (VALUES - 1)], Durability.NO_SYNC);
    }

    @Benchmark
    public void putSync(EmptyStore s, Cursor c) {
        int i = c.advance();
        s.db.put(s.keys[i], s.values[i & (VALUES - 1)], Durability.SYNC);
    }

    /** One atomic batch of 100 puts with NO_SYNC; the score counts batches (×100 for puts). */
    @Benchmark
    public void writeBatch100NoSync(EmptyStore s, Cursor c) {
        s.db.write(batch(s, c), Durability.NO_SYNC);
    }

    /** One atomic batch of 100 puts made durable with one fsync; the score counts batches. */
    @Benchmark
    public void writeBatch100Sync(EmptyStore s, Cursor c) {
        s.db.write(batch(s, c), Durability.SYNC);
    }

    private static WriteBatch batch(EmptyStore s, Cursor c) {
        WriteBatch batch = new WriteBatch();
        for (int j = 0; j < BATCH; j++) {
            int i = c.advance();
            batch.put(s.keys[i], s.values[i & (VALUES - 1)]);
        }
        return batch;
    }
}
