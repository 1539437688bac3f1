package io.kegdb.bench;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
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
import org.openjdk.jmh.infra.Blackhole;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/** Reads of a loaded KegDB store: point get of a present key, of an absent key, and a 100-key range scan. */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xmx4g"})
public class ReadBenchmarks {

    /** Number of precomputed probe keys each thread cycles through (generating keys would be timed too). */
    private static final int PROBES = 1 << 16;

    /** A store holding {@code keys} keys of 8 bytes with 128-byte values. */
    @State(Scope.Benchmark)
    public static class LoadedStore {
        @Param({"1000000"})
        public long keys;

        ScratchDirectory dir;
        Bitcask db;
        KeySpace keySpace;

        @Setup(Level.Trial)
        public void load() throws Exception {
            keySpace = new KeySpace(1, 8, 128);
            dir = ScratchDirectory.create(BenchStores.parentDirectory(), "kegdb-jmh-read-");
            db = BenchStores.open(dir.path());
            BenchStores.fill(db, keySpace, keys);
        }

        @TearDown(Level.Trial)
        public void close() throws Exception {
            db.close();
            dir.close();
        }
    }

    /** Random present and absent keys for one thread. */
    @State(Scope.Thread)
    public static class Probes {
        byte[][] present = new byte[PROBES][];
        byte[][] absent = new byte[PROBES][];
        int next;

        @Setup(Level.Trial)
        public void pick(LoadedStore store) {
            SplittableRandom random = new SplittableRandom(Thread.currentThread().getId());
            for (int i = 0; i < PROBES; i++) {
                present[i] = store.keySpace.key(random.nextLong(store.keys));
                // Keys past the loaded range are distinct from every loaded key.
                absent[i] = store.keySpace.key(store.keys + random.nextLong(store.keys));
            }
        }

        int advance() {
            next = (next + 1) & (PROBES - 1);
            return next;
        }
    }

    @Benchmark
    public byte[] getHit(LoadedStore store, Probes probes) {
        return store.db.get(probes.present[probes.advance()]);
    }

    @Benchmark
    public byte[] getMiss(LoadedStore store, Probes probes) {
        return store.db.get(probes.absent[probes.advance()]);
    }

    /** Opens a scan at a random present key and reads 100 pairs (fewer at the end of the key space). */
    @Benchmark
    public int scan100(LoadedStore store, Probes probes, Blackhole bh) {
        int n = 0;
        try (KvIterator it = store.db.scan(probes.present[probes.advance()], null)) {
            while (n < 100 && it.hasNext()) {
                KeyValue kv = it.next();
                bh.consume(kv);
                n++;
            }
        }
        return n;
    }
}
