package io.kegdb.sql.plan;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.txn.Overlay;
import io.kegdb.sql.txn.ReadView;

import java.nio.file.Path;

/**
 * The session a {@link Plan} runs in, as plans see it: what they read, and how their writes reach the
 * transaction or the store. Implemented by the SQL session; an interface so that plans need not know it.
 */
public interface PlanSession {

    /** The catalog of the session's database (DDL changes it). */
    Catalog catalog();

    /** What statements read: the store, through this session's uncommitted writes. */
    ReadView view();

    /**
     * Marks the statement starting now as a {@code SELECT ... FOR UPDATE} (true) until it has started
     * (false): in a transaction, the rows it reads are checked at commit at every isolation level.
     */
    void readForUpdate(boolean forUpdate);

    /**
     * Marks the statement starting now (true) until it has started (false) as one that writes each key at
     * most once: its statement overlay refuses a second write of a key (see {@link Overlay#writeEachKeyOnce}).
     */
    void writeEachKeyOnce(boolean once);

    /** Fails unless the session is open and not read-only. */
    void checkWritable() throws SqlError;

    /** A statement overlay for a multi-row statement; {@link #finishWrite} keeps it, dropping it discards it. */
    Overlay beginWrite() throws SqlError;

    /** Writes a statement overlay from {@link #beginWrite}: to the store in autocommit, else to the transaction. */
    void finishWrite(Overlay statement) throws SqlError;

    /**
     * INSERT of one row ({@code keyValue} the checked key, for the error message): in autocommit one
     * putIfAbsent batch, else a checked insert into the overlay.
     */
    long insertOne(TableDef def, byte[] key, byte[] value, Object keyValue) throws SqlError;

    /** UPSERT ({@code onlyIfExists} false) or UPDATE by key of one row; returns rows changed. */
    long putOne(byte[] key, byte[] value, boolean onlyIfExists) throws SqlError;

    /** DELETE by key of one row; returns rows changed. */
    long deleteOne(byte[] key) throws SqlError;

    /** BACKUP TO: a hot copy of the store's committed state into {@code target}. */
    void backup(Path target) throws SqlError;
}
