package io.kegdb.bench;

import java.nio.file.Path;
import java.util.Locale;

/** The stores the seed workloads compare. */
enum Engine {
    KEGDB("KegDB") {
        @Override
        StoreUnderTest open(Path dir, Workload w) throws Exception {
            return KegDbStore.open(dir);
        }
    },
    ROCKSDB("RocksDB") {
        @Override
        StoreUnderTest open(Path dir, Workload w) throws Exception {
            return RocksDbStore.open(dir);
        }
    },
    LMDB("LMDB") {
        @Override
        StoreUnderTest open(Path dir, Workload w) {
            return LmdbStore.open(dir, w);
        }
    };

    private final String displayName;

    Engine(String displayName) {
        this.displayName = displayName;
    }

    /** Opens (creating if needed) a store in {@code dir}, an existing directory, sized for {@code w}. */
    abstract StoreUnderTest open(Path dir, Workload w) throws Exception;

    String displayName() {
        return displayName;
    }

    /** Parses a name case-insensitively: kegdb, rocksdb, lmdb. */
    static Engine parse(String name) {
        try {
            return valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("unknown engine '" + name + "'; expected kegdb, rocksdb or lmdb", e);
        }
    }
}
