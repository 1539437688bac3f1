package io.kegdb.bench;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;

/** Opening and filling the KegDB stores the JMH benchmarks run against. */
final class BenchStores {

    /** Parent of the scratch directories; {@code -Dkegdb.bench.dir=PATH} overrides the temp directory. */
    static Path parentDirectory() {
        return Path.of(System.getProperty("kegdb.bench.dir", System.getProperty("java.io.tmpdir")));
    }

    /** Default options, NO_SYNC by default, no scheduled merges (they would add noise to a measurement). */
    static Bitcask open(Path dir) throws IOException {
        return Bitcask.open(dir, BitcaskOptions.builder().durability(Durability.NO_SYNC)
                .mergeInterval(Duration.ZERO).build());
    }

    /** Puts keys 0..n-1 of {@code keys}. */
    static void fill(Bitcask db, KeySpace keys, long n) {
        for (long i = 0; i < n; i++) {
            db.put(keys.key(i), keys.value(i), Durability.NO_SYNC);
        }
    }

    private BenchStores() {
    }
}
