package io.kegdb.sql;

import io.kegdb.sql.stats.StatementStatistics;

import java.util.List;
import java.util.Objects;

/**
 * How {@link SqlDatabase#open(io.kegdb.engine.KvStore, DatabaseOptions)} treats its store.
 *
 * @param sharedCatalog true when other processes may change the catalog in the same store (a replicated
 *                      store): the catalog version is then read from the store before each statement is
 *                      prepared, and the catalog re-read when it moved. False for a store this database alone
 *                      writes (a local directory, in memory), where that read is skipped
 * @param systemTables  tables added to schema SYS beside the built-in ones
 * @param statementCapacity statement texts SYS.STATEMENTS keeps at most (the least used are dropped)
 * @param users        runs CREATE USER, GRANT and the like (a cluster's); null where there are no users (an
 *                     embedded store, which its directory's file permissions protect)
 */
public record DatabaseOptions(boolean sharedCatalog, List<SystemTableSource> systemTables, int statementCapacity,
                              UserAdministration users) {

    /** A store only this database writes, no extra system tables. */
    public static final DatabaseOptions DEFAULT = new DatabaseOptions(false, List.of());

    /** Options without users. */
    public DatabaseOptions(boolean sharedCatalog, List<SystemTableSource> systemTables, int statementCapacity) {
        this(sharedCatalog, systemTables, statementCapacity, null);
    }

    public DatabaseOptions {
        systemTables = List.copyOf(Objects.requireNonNull(systemTables, "systemTables"));
        if (statementCapacity < 1) {
            throw new IllegalArgumentException("statementCapacity must be positive: " + statementCapacity);
        }
    }

    /** Options with the default statement capacity ({@value StatementStatistics#DEFAULT_CAPACITY} texts). */
    public DatabaseOptions(boolean sharedCatalog, List<SystemTableSource> systemTables) {
        this(sharedCatalog, systemTables, StatementStatistics.DEFAULT_CAPACITY, null);
    }

    /** These options with {@code users} running the user statements. */
    public DatabaseOptions withUsers(UserAdministration users) {
        return new DatabaseOptions(sharedCatalog, systemTables, statementCapacity, users);
    }
}
