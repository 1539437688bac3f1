package io.kegdb.jdbc;

import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.KvStore;
import io.kegdb.sql.SqlDatabase;

/**
 * One open store and its SQL catalog, shared by every connection of this JVM to the same directory (or
 * in-memory name). Reference counts are kept by {@link StoreRegistry}.
 */
final class SharedStore {
    private final String key;
    private final KvStore store;
    private final SqlDatabase database;
    private final boolean readOnly;
    private final BitcaskOptions engineOptions;
    private final RaftSettings raft;
    private int references;

    SharedStore(String key, KvStore store, SqlDatabase database, boolean readOnly,
                BitcaskOptions engineOptions, RaftSettings raft) {
        this.key = key;
        this.store = store;
        this.database = database;
        this.readOnly = readOnly;
        this.engineOptions = engineOptions;
        this.raft = raft;
    }

    /** The Raft settings the store was opened with, or null for a local store. */
    RaftSettings raft() {
        return raft;
    }

    String key() {
        return key;
    }

    SqlDatabase database() {
        return database;
    }

    KvStore store() {
        return store;
    }

    /** Whether the store itself was opened read-only (by the connection that opened it). */
    boolean readOnly() {
        return readOnly;
    }

    /** Engine options the store was opened with. */
    BitcaskOptions engineOptions() {
        return engineOptions;
    }

    /** Guarded by the registry's lock. */
    int retain() {
        return ++references;
    }

    /** Guarded by the registry's lock. */
    int release() {
        return --references;
    }

    /** Closes the catalog, then the store (which flushes). */
    void close() {
        try {
            database.close();
        } finally {
            store.close();
        }
    }
}
