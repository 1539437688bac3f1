package io.kegdb.jdbc;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.KvStore;
import io.kegdb.raft.tool.NodeMonitor;
import io.kegdb.sql.DatabaseOptions;
import io.kegdb.sql.SqlDatabase;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The stores this JVM has open, one per directory (by real path) or in-memory name, each shared by all its
 * connections and closed when the last of them closes.
 */
final class StoreRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(StoreRegistry.class);
    private static final StoreRegistry INSTANCE = new StoreRegistry();

    private final Map<String, SharedStore> open = new HashMap<>();

    /** Opens an engine store for a directory URL. */
    @FunctionalInterface
    interface EngineOpener {
        KvStore open(Path dir, BitcaskOptions options) throws IOException;
    }

    /** {@link Bitcask#open(Path, BitcaskOptions)}, unless a test put its own (the power-loss tests do). */
    private EngineOpener engine = Bitcask::open;

    static StoreRegistry instance() {
        return INSTANCE;
    }

    /** Opens directory stores with {@code opener} from now on; returns the one it replaces. Tests only. */
    synchronized EngineOpener openEnginesWith(EngineOpener opener) {
        EngineOpener previous = engine;
        engine = opener;
        return previous;
    }

    /**
     * The shared store {@code settings} name, opened if needed; the caller must {@link #release} it once. A
     * connection to a cluster's store opened before logs in (a slow password check on a node) outside this
     * registry's lock, so that a pool's connections log in side by side.
     */
    SharedStore acquire(ConnectionSettings settings) throws SQLException {
        boolean[] opened = new boolean[1];
        SharedStore shared = acquireLocked(settings, opened);
        if (!opened[0] && settings.raft() != null && settings.raft().isClient()) {
            try {
                RaftStores.login(shared.store(), settings); // every connection proves its password
            } catch (SQLException | RuntimeException e) {
                release(shared);
                throw e;
            }
        }
        return shared;
    }

    private synchronized SharedStore acquireLocked(ConnectionSettings settings, boolean[] opened) throws SQLException {
        boolean client = settings.raft() != null && settings.raft().isClient();
        // A cluster's client is shared by the connections of one user only: its requests carry that user's ticket.
        String key = client ? settings.raft().clientRegistryKey() + (settings.sqlUser() == null ? ""
                : "&user=" + settings.sqlUser())
                : settings.inMemory() ? "mem:" + settings.memoryName()
                : realDirectory(settings.directory(), settings.readOnly()).toString();
        SharedStore shared = open.get(key);
        if (shared == null) {
            shared = openStore(key, settings); // a cluster's client logs in before it reads the catalog
            open.put(key, shared);
            opened[0] = true;
        } else {
            checkCompatible(shared, settings);
        }
        shared.retain();
        return shared;
    }

    /** The store open under {@code key} now, or null. */
    synchronized SharedStore current(String key) {
        return open.get(key);
    }

    /** Drops one reference; the last closes the store. */
    synchronized void release(SharedStore shared) {
        if (shared.release() > 0) {
            return;
        }
        open.remove(shared.key());
        try {
            shared.close();
            LOG.debug("closed store {}", shared.key());
        } catch (RuntimeException e) {
            LOG.warn("closing store {} failed", shared.key(), e);
        }
    }

    private static Path realDirectory(Path dir, boolean readOnly) throws SQLException {
        if (readOnly && !Files.isDirectory(dir)) {
            throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "database directory " + dir
                    + " does not exist (readOnly=true opens an existing database only)");
        }
        try {
            Files.createDirectories(dir);
            return dir.toRealPath();
        } catch (IOException | SecurityException e) {
            throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "cannot create database directory " + dir + ": " + e, e);
        }
    }

    private SharedStore openStore(String key, ConnectionSettings settings) throws SQLException {
        KvStore store;
        boolean storeReadOnly = !settings.inMemory() && settings.readOnly();
        if (settings.raft() != null) {
            store = RaftStores.open(settings.raft(), settings.raft().isClient() ? null : Path.of(key));
            if (settings.raft().isClient()) {
                try {
                    RaftStores.login(store, settings);
                } catch (SQLException | RuntimeException e) {
                    store.close();
                    throw e;
                }
            }
        } else if (settings.inMemory()) {
            store = KvStore.inMemory();
        } else {
            try {
                store = engine.open(Path.of(key), settings.engineOptions());
            } catch (IOException | RuntimeException e) {
                throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "cannot open database " + key + ": " + e.getMessage(), e);
            }
        }
        try {
            SqlDatabase database = SqlDatabase.open(store, settings.raft() == null ? DatabaseOptions.DEFAULT
                    : RaftStores.databaseOptions(store));
            LOG.debug("opened store {} with {}", key, settings.engineOptions());
            NodeMonitor node = settings.raft() == null ? null : RaftStores.monitor(store, settings.raft(), Path.of(key));
            return new SharedStore(key, store, database, storeReadOnly, settings.engineOptions(), settings.raft(), node);
        } catch (SqlError | RuntimeException e) {
            try {
                store.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            io.kegdb.raft.ReplicationException replication = RaftStores.replicationCause(e);
            if (replication != null) {
                throw JdbcErrors.of(RaftStores.sqlState(replication), "cannot read the SQL catalog of " + key + ": "
                        + replication.getMessage(), e);
            }
            if (e instanceof SqlError sqlError) {
                throw JdbcErrors.of(sqlError.sqlState(), "cannot open the SQL catalog of " + key + ": "
                        + sqlError.getMessage(), sqlError);
            }
            throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "cannot open the SQL catalog of " + key + ": " + e, e);
        }
    }

    private static String describe(RaftSettings raft) {
        return raft == null ? "as a local store" : "as member " + raft.self() + " of raft group " + raft.group()
                + " (raft.peers=" + raft.peers() + ", raft.timeout=" + raft.requestTimeout().toMillis() + "ms, readConsistency="
                + raft.readConsistency().name().toLowerCase(java.util.Locale.ROOT) + ", raft.electionTimeoutMs="
                + raft.electionTimeoutMs() + ")";
    }

    /** A second connection may not silently get a store configured differently from what it asked for. */
    private static void checkCompatible(SharedStore shared, ConnectionSettings settings) throws SQLException {
        if (shared.readOnly() && !settings.readOnly()) {
            throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "database " + shared.key() + " is open read-only in this JVM"
                    + " (opened with readOnly=true); close those connections or add readOnly=true");
        }
        if (!Objects.equals(shared.raft(), settings.raft())) {
            // One directory is one store: its Raft node runs with the settings of the connection that opened it.
            throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE, "database " + shared.key()
                    + " is already open in this JVM " + describe(shared.raft()) + ", not " + describe(settings.raft())
                    + "; connect with the same Raft options");
        }
        for (Map.Entry<ConnectionOption, String> e : settings.explicitEngine().entrySet()) {
            ConnectionOption option = e.getKey();
            Object current = option.valueIn(shared.engineOptions());
            if (!current.equals(option.valueIn(settings.engineOptions()))) {
                throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE,
                        "database " + shared.key() + " is already open in this JVM with "
                        + option.key() + "=" + current + ", not " + e.getValue());
            }
        }
    }
}
