package io.kegdb.jdbc;

import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.meter.Meter;
import io.kegdb.engine.meter.MeterMBean;
import io.kegdb.raft.tool.NodeMonitor;
import io.kegdb.sql.SqlDatabase;

import java.util.HashMap;
import java.util.Map;

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
    /** The database's meters by {@link #meterId}. */
    private final Map<String, Meter> meters = new HashMap<>();
    /** The store's MBean, or null if JMX refused it. */
    private final MeterMBean.Registration mbean;
    /** An embedded cluster member's node: its meters and MBean; null for any other store. */
    private final NodeMonitor node;
    private int references;

    SharedStore(String key, KvStore store, SqlDatabase database, boolean readOnly,
                BitcaskOptions engineOptions, RaftSettings raft, NodeMonitor node) {
        this.key = key;
        this.store = store;
        this.database = database;
        this.readOnly = readOnly;
        this.engineOptions = engineOptions;
        this.raft = raft;
        this.node = node;
        for (Meter m : database.meters()) {
            meters.put(meterId(m), m);
        }
        this.mbean = StoreJmx.register(key, database);
    }

    /** The Raft settings the store was opened with, or null for a local store. */
    RaftSettings raft() {
        return raft;
    }

    /** A meter's name and tags: what tells it apart from the store's other meters. */
    static String meterId(Meter m) {
        return m.name() + m.tags();
    }

    /** The meter of this store with {@code id} ({@link #meterId}), or null. */
    Meter meter(String id) {
        return meters.get(id);
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

    /** Takes the MBeans off, closes the catalog, then the store (which flushes). */
    void close() {
        try {
            try {
                if (node != null) {
                    node.close();
                }
            } finally {
                if (mbean != null) {
                    mbean.close();
                }
            }
        } finally {
            try {
                database.close();
            } finally {
                store.close();
            }
        }
    }
}
