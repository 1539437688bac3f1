package io.kegdb.bench.txn;

import io.kegdb.bench.cluster.LocalCluster;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A database the contended-update benchmark runs against: how a run opens it, its tables' column types, and
 * which of its errors mean "conflict, run the transaction again".
 */
enum ContendedTarget {
    /** KegDB embedded, durability=nosync: a commit returns once it is in the page cache. */
    KEGDB_NOSYNC("KegDB nosync", "VARCHAR", "BIGINT") {
        @Override
        TargetDatabase open(Path dir) {
            return TargetDatabase.at("jdbc:kegdb:" + dir.resolve("kegdb") + "?durability=nosync");
        }
    },
    /** KegDB embedded with its default durability (sync: a commit returns after the shared fsync). */
    KEGDB_SYNC("KegDB sync", "VARCHAR", "BIGINT") {
        @Override
        TargetDatabase open(Path dir) {
            return TargetDatabase.at("jdbc:kegdb:" + dir.resolve("kegdb"));
        }
    },
    /** KegDB in memory. */
    KEGDB_MEMORY("KegDB in-memory", "VARCHAR", "BIGINT") {
        @Override
        TargetDatabase open(Path dir) {
            return TargetDatabase.at("jdbc:kegdb:mem:contended-" + MEMORY_NAMES.incrementAndGet());
        }
    },
    /**
     * Three Raft nodes in this JVM on 127.0.0.1 (each store with its default durability, the log fsynced),
     * reached through the thin client.
     */
    KEGDB_CLUSTER("KegDB 3-node cluster", "VARCHAR", "BIGINT") {
        @Override
        TargetDatabase open(Path dir) throws IOException {
            LocalCluster cluster = LocalCluster.start(dir, CLUSTER_GROUP,
                    b -> b.electionTimeoutMs(600).requestTimeout(Duration.ofSeconds(15)));
            return TargetDatabase.onCluster(cluster, CLUSTER_GROUP);
        }
    },
    /** H2 file database with its defaults; waits up to 10 s for a row lock. */
    H2("H2", "VARCHAR(16)", "BIGINT") {
        @Override
        TargetDatabase open(Path dir) {
            return TargetDatabase.at("jdbc:h2:file:" + dir.resolve("h2").toAbsolutePath() + ";LOCK_TIMEOUT=10000");
        }

        @Override
        boolean ownConflict(SQLException e) {
            // 90131 concurrent update of a row (MVStore), 40001 deadlock, 50200 lock wait timed out
            return e.getErrorCode() == 90131 || e.getErrorCode() == 50200;
        }
    },
    /** SQLite through sqlite-jdbc with its defaults (rollback journal, synchronous=FULL); busy waits up to 10 s. */
    SQLITE("SQLite", "TEXT", "INTEGER") {
        @Override
        TargetDatabase open(Path dir) {
            return TargetDatabase.at("jdbc:sqlite:" + dir.resolve("sqlite.db") + "?busy_timeout=10000");
        }

        @Override
        boolean ownConflict(SQLException e) {
            // SQLITE_BUSY / SQLITE_LOCKED (any extended code): a deferred transaction could not take the write
            // lock, and SQLite returns at once rather than deadlock
            int primary = e.getErrorCode() & 0xff;
            return primary == 5 || primary == 6;
        }

        @Override
        boolean marksReadOnly() {
            // sqlite-jdbc fixes the flag when the connection opens; a read-only SQLite transaction is one that writes nothing
            return false;
        }
    };

    /** The targets of one machine: what the contended-update table runs unless told otherwise. */
    static final List<ContendedTarget> SINGLE_NODE = List.of(KEGDB_NOSYNC, KEGDB_SYNC, KEGDB_MEMORY, H2, SQLITE);

    private static final AtomicInteger MEMORY_NAMES = new AtomicInteger();
    private static final String CLUSTER_GROUP = "contended";

    private final String label;
    private final String keyType;
    private final String valueType;

    ContendedTarget(String label, String keyType, String valueType) {
        this.label = label;
        this.keyType = keyType;
        this.valueType = valueType;
    }

    /** Opens (or starts) a new database for one run, keeping its files under {@code dir}. */
    abstract TargetDatabase open(Path dir) throws IOException;

    String label() {
        return label;
    }

    /** DDL of a table {@code name (K PRIMARY KEY, V)} of a string key and a 64-bit integer value. */
    String createTable(String name) {
        return "CREATE TABLE " + name + " (K " + keyType + " PRIMARY KEY, V " + valueType + ")";
    }

    /** Whether the failed transaction may simply be run again: SQLState 40001, or the database's own code for it. */
    final boolean retryable(SQLException e) {
        return "40001".equals(e.getSQLState()) || ownConflict(e);
    }

    boolean ownConflict(SQLException e) {
        return false;
    }

    /** Whether a pooled connection may be marked read-only for one transaction ({@code setReadOnly}). */
    boolean marksReadOnly() {
        return true;
    }
}
