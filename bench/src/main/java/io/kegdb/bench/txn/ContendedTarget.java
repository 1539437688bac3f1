package io.kegdb.bench.txn;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A database the contended-update benchmark runs against: its URL, its counter table, and which of its errors
 * mean "conflict, run the transaction again".
 */
enum ContendedTarget {
    /** KegDB embedded, durability=nosync: a commit returns once it is in the page cache. */
    KEGDB_NOSYNC("KegDB nosync", "CREATE TABLE CTR (K VARCHAR PRIMARY KEY, V BIGINT)") {
        @Override
        String url(Path dir) {
            return "jdbc:kegdb:" + dir.resolve("kegdb") + "?durability=nosync";
        }
    },
    /** KegDB embedded with its default durability (sync: a commit returns after the shared fsync). */
    KEGDB_SYNC("KegDB sync", "CREATE TABLE CTR (K VARCHAR PRIMARY KEY, V BIGINT)") {
        @Override
        String url(Path dir) {
            return "jdbc:kegdb:" + dir.resolve("kegdb");
        }
    },
    /** KegDB in memory. */
    KEGDB_MEMORY("KegDB in-memory", "CREATE TABLE CTR (K VARCHAR PRIMARY KEY, V BIGINT)") {
        @Override
        String url(Path dir) {
            return "jdbc:kegdb:mem:contended-" + MEMORY_NAMES.incrementAndGet();
        }
    },
    /** H2 file database with its defaults; waits up to 10 s for a row lock. */
    H2("H2", "CREATE TABLE CTR (K VARCHAR(16) PRIMARY KEY, V BIGINT)") {
        @Override
        String url(Path dir) {
            return "jdbc:h2:file:" + dir.resolve("h2").toAbsolutePath() + ";LOCK_TIMEOUT=10000";
        }

        @Override
        boolean ownConflict(SQLException e) {
            // 90131 concurrent update of a row (MVStore), 40001 deadlock, 50200 lock wait timed out
            return e.getErrorCode() == 90131 || e.getErrorCode() == 50200;
        }
    },
    /** SQLite through sqlite-jdbc with its defaults (rollback journal, synchronous=FULL); busy waits up to 10 s. */
    SQLITE("SQLite", "CREATE TABLE CTR (K TEXT PRIMARY KEY, V INTEGER)") {
        @Override
        String url(Path dir) {
            return "jdbc:sqlite:" + dir.resolve("sqlite.db") + "?busy_timeout=10000";
        }

        @Override
        boolean ownConflict(SQLException e) {
            // SQLITE_BUSY / SQLITE_LOCKED (any extended code): a deferred transaction could not take the write
            // lock, and SQLite returns at once rather than deadlock
            int primary = e.getErrorCode() & 0xff;
            return primary == 5 || primary == 6;
        }
    };

    private static final AtomicInteger MEMORY_NAMES = new AtomicInteger();

    private final String label;
    private final String createTable;

    ContendedTarget(String label, String createTable) {
        this.label = label;
        this.createTable = createTable;
    }

    abstract String url(Path dir);

    String label() {
        return label;
    }

    String createTable() {
        return createTable;
    }

    /** Whether the failed transaction may simply be run again: SQLState 40001, or the database's own code for it. */
    final boolean retryable(SQLException e) {
        return "40001".equals(e.getSQLState()) || ownConflict(e);
    }

    boolean ownConflict(SQLException e) {
        return false;
    }
}
