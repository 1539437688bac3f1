package io.kegdb.sql;

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
 */
public record DatabaseOptions(boolean sharedCatalog, List<SystemTableSource> systemTables) {

    /** A store only this database writes, no extra system tables. */
    public static final DatabaseOptions DEFAULT = new DatabaseOptions(false, List.of());

    public DatabaseOptions {
        systemTables = List.copyOf(Objects.requireNonNull(systemTables, "systemTables"));
    }
}
