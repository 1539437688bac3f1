package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import io.kegdb.engine.meter.Meter;

import java.util.List;

/**
 * SQL over one {@link KvStore}: the catalog of key/value tables and the sessions that query them.
 * One per open store; thread-safe. Closing it does not close the store.
 */
public interface SqlDatabase extends AutoCloseable {

    /** Opens the catalog persisted in {@code store}, creating the default schema and table {@code KV} if new. */
    static SqlDatabase open(KvStore store) throws SqlError {
        return KegDatabase.open(store, DatabaseOptions.DEFAULT);
    }

    /**
     * {@link #open(KvStore)} with options: whether other processes share the catalog, and extra SYS tables.
     *
     * @throws IllegalArgumentException if an extra system table's name is taken or it has fewer than two columns
     */
    static SqlDatabase open(KvStore store, DatabaseOptions options) throws SqlError {
        return KegDatabase.open(store, options);
    }

    /** A new session (one per JDBC connection), in autocommit mode, on the default schema. */
    SqlSession newSession();

    /** Name of the schema user tables live in by default ("PUBLIC"). */
    String defaultSchema();

    /** Every schema, "SYS" and "INFORMATION_SCHEMA" included. */
    List<String> schemas();

    /** Every table of every schema (user tables, SYS's and INFORMATION_SCHEMA's views), for metadata browsing. */
    List<TableInfo> tables();

    /** The store under this database. */
    KvStore store();

    /**
     * The meters of this database: the store's ({@link KvStore#meters()}) and the SQL layer's
     * ({@code kegdb.sql.*}: statements by kind, plan cache, conflicts and retries, rows); see docs/OPERATIONS.md.
     */
    List<Meter> meters();

    /** Forgets the statement statistics SYS.STATEMENTS shows. */
    void resetStatementStatistics();

    @Override
    void close();
}
