package io.kegdb.sql;

import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyExistsException;
import io.kegdb.engine.KvSnapshot;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import io.kegdb.engine.WriteConflictException;
import io.kegdb.sql.calcite.KvModifier;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.direct.DdlPlan;
import io.kegdb.sql.plan.Plan;
import io.kegdb.sql.plan.PlanSession;
import io.kegdb.sql.plan.SqlErrors;
import io.kegdb.sql.plan.StatementFailure;
import io.kegdb.sql.txn.Overlay;
import io.kegdb.sql.txn.Presence;
import io.kegdb.sql.txn.ReadSet;
import io.kegdb.sql.txn.ReadView;
import io.kegdb.sql.txn.RecordingView;
import io.kegdb.sql.txn.SnapshotView;
import io.kegdb.sql.txn.StoreView;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * {@link SqlSession}: a transaction overlay over the store. In autocommit each statement's writes go to
 * the store as one batch; otherwise they collect in the overlay until commit.
 *
 * <p>Isolation is optimistic: a transaction reads the store (READ COMMITTED) or a snapshot of it taken at
 * its first statement (REPEATABLE READ, SERIALIZABLE), records in a {@link ReadSet} the reads its commit
 * must find unchanged, and commits one batch carrying them as preconditions that the store checks
 * atomically with the apply (on a cluster, every replica in its state machine). A conflict is 40001. An
 * autocommitted statement that writes records its own reads the same way and, on a conflict, runs again.
 */
final class KegSession implements SqlSession, PlanSession {

    /** Times an autocommitted statement runs again after a conflict before it fails with 40001. */
    static final int STATEMENT_ATTEMPTS = 1000;

    private final KegDatabase database;
    private final KvStore store;
    private final StoreView storeView;
    private final Overlay transaction;
    private boolean autoCommit = true;
    private Isolation isolation = Isolation.READ_COMMITTED;
    private boolean readOnly;
    private Durability durability = Durability.SYNC;
    private String schema = Catalog.DEFAULT_SCHEMA;
    private boolean closed;

    // The open transaction (autocommit off), from its first read or write to commit or rollback.
    private boolean transactionStarted;
    /** The store's write version before the transaction's first read or check: see {@link WriteBatch#absentSince}. */
    private long versionAtStart = -1;
    /** What the transaction read at REPEATABLE READ and SERIALIZABLE; null at READ COMMITTED or on a store without snapshots. */
    private KvSnapshot snapshot;
    private ReadView committed;
    /** The reads the commit must find unchanged. */
    private final ReadSet transactionReads = new ReadSet();

    // The statement running now.
    /** An autocommitted write statement's reads, checked with its batch; null otherwise. */
    private ReadSet statementReads;
    private long statementVersion;
    /** A write statement or a SELECT ... FOR UPDATE in a transaction: its reads join the transaction's. */
    private boolean statementReadsCount;
    /** The statement starting may write each key once (a MERGE): its overlay is marked so. */
    private boolean statementWritesEachKeyOnce;
    /** Set when an autocommitted statement's batch found what it read changed: it runs again. */
    private boolean statementConflicted;
    /** Conflicts the statement run last met (its retried attempts and a final 40001). */
    private int statementConflicts;
    /** The shared catalog the running statement was planned on; null for a catalog only this process writes. */
    private Catalog.Snapshot statementCatalog;
    /** The shared catalog of the open transaction's first statement, which its commit is checked against. */
    private Catalog.Snapshot transactionCatalog;
    /** Whether the transaction was open before the running statement began. */
    private boolean transactionBeforeStatement;
    /** Set when the running statement found the shared catalog changed since it was planned. */
    private boolean catalogChanged;
    /** Statements slower than this are logged ({@link io.kegdb.sql.stats.SlowStatementLog}); 0: none. */
    private long slowStatementNanos;
    /** Whether statements are counted in the statement statistics and meters. */
    private boolean statementStatistics = true;

    KegSession(KegDatabase database) {
        this.database = database;
        this.store = database.store();
        this.storeView = new StoreView(store);
        this.transaction = new Overlay(storeView);
    }

    KegDatabase database() {
        return database;
    }

    @Override
    public Catalog catalog() {
        return database.catalog();
    }

    @Override
    public SqlStatement prepare(String sql, Deadline deadline) throws SqlError {
        checkOpen();
        Objects.requireNonNull(sql, "sql");
        Objects.requireNonNull(deadline, "deadline");
        try {
            return new ReplanningStatement(this, sql, replan(sql, deadline));
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
    }

    /**
     * The plan of {@code sql} on the catalog this process knows: no read of the store. A shared catalog is
     * re-read only when the statement names a table or column it does not know, in case another process just
     * made it; a changed catalog is otherwise learnt from the statement's own reads and writes.
     */
    Plan replan(String sql, Deadline deadline) throws SqlError {
        checkOpen();
        try {
            return database.plan(sql, schema, deadline);
        } catch (SqlError e) {
            if (mayKnowMoreAfterRefresh(e) && database.catalog().refresh()) {
                return database.plan(sql, schema, deadline);
            }
            throw e;
        }
    }

    @Override
    public SqlResult execute(String sql) throws SqlError {
        checkOpen();
        Objects.requireNonNull(sql, "sql");
        try (SqlStatement statement = prepare(sql, Deadline.none())) {
            return statement.execute(List.of(), 0);
        }
    }

    /**
     * Runs {@code plan}; an autocommitted statement whose batch conflicted wrote nothing and runs again,
     * up to {@link #STATEMENT_ATTEMPTS} times, backing off a little after the first few.
     */
    SqlResult run(Plan plan, List<?> params, long maxRows, Deadline deadline) throws SqlError {
        statementConflicts = 0;
        catalogChanged = false;
        transactionBeforeStatement = transactionStarted;
        statementCatalog = null;
        Catalog catalog = database.catalog();
        if (catalog.shared()) {
            Catalog.Snapshot current = catalog.snapshot();
            if ((plan.catalogVersion() >= 0 && plan.catalogVersion() != current.version())
                    || (transactionStarted && transactionCatalog != null
                        && transactionCatalog.version() != current.version())) {
                throw catalogChanged();
            }
            statementCatalog = current;
        }
        for (int attempt = 1; ; attempt++) {
            statementReads = null;
            statementReadsCount = false;
            statementConflicted = false;
            try {
                SqlResult result = plan.execute(this, params, maxRows, deadline);
                if (plan instanceof DdlPlan) {
                    adoptOwnCatalogChange();
                }
                return result;
            } catch (SqlError e) {
                if (statementConflicted) {
                    statementConflicts++;
                    database.sqlMeters().conflict();
                }
                if (!statementConflicted || attempt >= STATEMENT_ATTEMPTS) {
                    throw e;
                }
                database.sqlMeters().retry();
                backOff(attempt);
            } finally {
                statementReads = null;
                statementReadsCount = false;
            }
        }
    }

    /**
     * After this session's own DDL inside a transaction: the transaction goes on with the catalog that DDL
     * made, if the DDL moved it by exactly its own one version from the transaction's (no other process's DDL
     * came between, which the DDL would have re-read the catalog for).
     */
    private void adoptOwnCatalogChange() {
        Catalog.Snapshot now = database.catalog().snapshot();
        if (transactionCatalog != null && statementCatalog != null
                && transactionCatalog.version() == statementCatalog.version()
                && now.version() == statementCatalog.version() + 1) {
            transactionCatalog = now;
        }
    }

    /**
     * Marks the running statement as planned on a catalog that changed since: 40001, and the statement is
     * planned again and run again where nothing of it is kept ({@link #restartAfterCatalogChange}).
     */
    private SqlError catalogChanged() {
        catalogChanged = true;
        return new SqlError(SqlState.SERIALIZATION_FAILURE, "the catalog changed (DDL by another process) since"
                + " the statement was planned; nothing of it was written, run it again");
    }

    /**
     * Whether the statement run last failed because the shared catalog changed under it and may simply run
     * again on the current one: an autocommitted statement, or the first statement of a transaction (which is
     * then begun anew). A later statement of a transaction leaves it to the application (40001).
     */
    boolean restartAfterCatalogChange() {
        if (!catalogChanged) {
            return false;
        }
        if (autoCommit) {
            return true;
        }
        if (!transactionBeforeStatement) {
            endTransaction();
            return true;
        }
        return false;
    }

    /** Whether the statement run last (or the last commit) found the shared catalog changed under it. */
    boolean catalogChangedLastRun() {
        return catalogChanged;
    }

    /** Whether the statement run last failed on a table or column its shared catalog does not know (yet). */
    boolean mayKnowMoreAfterRefresh(SqlError e) {
        return database.catalog().shared()
                && (SqlState.TABLE_NOT_FOUND.equals(e.sqlState()) || SqlState.COLUMN_NOT_FOUND.equals(e.sqlState()));
    }

    /** Re-reads a catalog found changed, for the next transaction; a failure to read it joins {@code failure}. */
    private void refreshCatalogQuietly(SqlError failure) {
        try {
            database.catalog().refresh();
        } catch (SqlError | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }

    private static void backOff(int attempt) {
        if (attempt < 4) {
            Thread.onSpinWait();
        } else {
            java.util.concurrent.locks.LockSupport.parkNanos(
                    java.util.concurrent.ThreadLocalRandom.current().nextLong(1_000L * Math.min(attempt, 200)));
        }
    }

    /**
     * What a statement reads: the committed state ({@link #committed()}), recorded when the reads must be
     * checked, with the transaction's own writes over it.
     */
    @Override
    public ReadView view() {
        ReadView base = committed();
        if (statementReads != null) {
            base = new RecordingView(base, statementReads);
        } else if (!autoCommit && (statementReadsCount || recordsEveryRead())) {
            base = new RecordingView(base, transactionReads);
        }
        return transaction.isEmpty() ? base : transaction.over(base);
    }

    /**
     * Whether the transaction's plain reads must be checked at commit: at SERIALIZABLE (what it read
     * decided what it wrote), except in a read-only session reading a snapshot, which writes nothing and
     * sees one state; and at REPEATABLE READ on a store without snapshots, where checking the reads is the
     * only way to keep them repeatable. REPEATABLE READ with a snapshot checks only the rows it writes.
     */
    private boolean recordsEveryRead() {
        return switch (isolation) {
            case READ_COMMITTED -> false;
            case REPEATABLE_READ -> snapshot == null;
            case SERIALIZABLE -> !(readOnly && snapshot != null);
        };
    }

    /**
     * The committed state statements read now: a transaction's snapshot, or the store; on a shared catalog,
     * each read checked against the catalog the statement was planned on.
     */
    private ReadView committed() {
        ReadView base;
        if (autoCommit) {
            base = storeView;
        } else {
            startTransaction();
            base = committed;
        }
        Catalog.Snapshot planned = statementCatalog;
        return planned == null ? base : new CatalogCheckedView(base, store, database.catalog().versionKey(),
                planned.version(), () -> new StatementFailure(catalogChanged()));
    }

    /** Begins the transaction at its first read or write: notes the write version, takes the snapshot. */
    private void startTransaction() {
        if (transactionStarted) {
            return;
        }
        transactionStarted = true;
        transactionCatalog = statementCatalog;
        versionAtStart = store.writeVersion();
        committed = storeView;
        if (isolation != Isolation.READ_COMMITTED) {
            snapshot = store.snapshot();
            if (snapshot != null) {
                versionAtStart = snapshot.version();
                committed = new SnapshotView(snapshot);
            }
        }
    }

    @Override
    public void readForUpdate(boolean forUpdate) {
        statementReadsCount = forUpdate;
    }

    @Override
    public void writeEachKeyOnce(boolean once) {
        statementWritesEachKeyOnce = once;
    }

    @Override
    public void checkWritable() throws SqlError {
        checkOpen();
        if (readOnly) {
            throw new SqlError(SqlState.READ_ONLY_TRANSACTION, "the session is read-only");
        }
    }

    @Override
    public Overlay beginWrite() throws SqlError {
        checkWritable();
        if (autoCommit) {
            statementVersion = store.writeVersion(); // before the statement's first read
            statementReads = new ReadSet();
        } else {
            statementReadsCount = true;
        }
        Overlay statement = new Overlay(view());
        if (statementWritesEachKeyOnce) {
            statement.writeEachKeyOnce();
        }
        return statement;
    }

    @Override
    public void finishWrite(Overlay statement) throws SqlError {
        ReadSet reads = statementReads;
        statementReads = null;
        statementReadsCount = false;
        if (statement.isEmpty()) {
            return;
        }
        if (!autoCommit) {
            transaction.absorb(statement);
            return;
        }
        WriteBatch batch = statement.toBatch();
        if (reads != null && !reads.isEmpty()) {
            reads.addTo(batch);
            batch.absentSince(statementVersion);
        }
        writeStatement(batch, statement);
    }

    /** Writes an autocommitted statement's batch; a conflict marks the statement to run again. */
    private void writeStatement(WriteBatch batch, Overlay writes) throws SqlError {
        try {
            write(batch, writes);
        } catch (SqlError e) {
            // A changed catalog is not a conflict to run the same plan again for: it is planned anew.
            statementConflicted = SqlState.SERIALIZATION_FAILURE.equals(e.sqlState()) && !catalogChanged;
            throw e;
        }
    }

    @Override
    public long insertOne(TableDef def, byte[] key, byte[] value, Object keyValue) throws SqlError {
        checkWritable();
        if (autoCommit) {
            try {
                writeDirect(new WriteBatch().putIfAbsent(key, value));
            } catch (KeyExistsException e) {
                throw KvModifier.duplicate(def, keyValue);
            }
            return 1;
        }
        startTransaction();
        // A key the transaction read is decided by what it read, one it wrote by its writes; any other by the
        // store, or (a store whose reads are round trips) by the commit's put-if-absent.
        if ((!transaction.wrote(key) && transactionReads.presence(key) == Presence.PRESENT)
                || !transaction.insertIfAbsent(key, value)) {
            throw KvModifier.duplicate(def, keyValue);
        }
        return 1;
    }

    @Override
    public long putOne(byte[] key, byte[] value, boolean onlyIfExists) throws SqlError {
        checkWritable();
        if (autoCommit) {
            if (!onlyIfExists) {
                if (writeGuard() == null) {
                    store.put(key, value, durability);
                } else {
                    writeDirect(new WriteBatch().put(key, value));
                }
                return 1;
            }
            // UPDATE by key: the row must be there when the write lands, or a concurrent DELETE would be
            // undone. The new value does not depend on the old one, so one conditional write decides both.
            try {
                writeDirect(new WriteBatch().expectPresent(key).put(key, value));
            } catch (WriteConflictException absent) {
                return 0;
            }
            return 1;
        }
        startTransaction();
        statementReadsCount = true;
        try {
            if (onlyIfExists && !view().contains(key)) {
                return 0;
            }
        } finally {
            statementReadsCount = false;
        }
        transaction.put(key, value);
        return 1;
    }

    @Override
    public long deleteOne(byte[] key) throws SqlError {
        checkWritable();
        if (autoCommit) {
            if (writeGuard() == null) {
                return store.delete(key, durability) ? 1 : 0;
            }
            try {
                writeDirect(new WriteBatch().expectPresent(key).delete(key));
            } catch (WriteConflictException absent) {
                return 0;
            }
            return 1;
        }
        startTransaction();
        statementReadsCount = true;
        try {
            if (!view().contains(key)) {
                return 0;
            }
        } finally {
            statementReadsCount = false;
        }
        transaction.delete(key);
        return 1;
    }

    @Override
    public void backup(Path target) throws SqlError {
        checkOpen();
        try {
            store.backup(target);
        } catch (IOException e) {
            throw new SqlError(SqlState.IO_ERROR, "BACKUP TO '" + target + "': " + e.getMessage(), e);
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
    }

    /**
     * Writes {@code batch}, the writes of {@code writes} (null: none of an overlay): a duplicate key, or a
     * conflict on a key {@code writes} inserted without checking it, fails with 23505 naming the row.
     */
    private void write(WriteBatch batch, Overlay writes) throws SqlError {
        try {
            writeDirect(batch);
        } catch (KeyExistsException e) {
            throw duplicateAtApply(e.key(), e);
        } catch (WriteConflictException e) {
            if (writes != null && writes.insertedUnchecked(e.key())) {
                throw duplicateAtApply(e.key(), e);
            }
            throw SqlErrors.translate(e);
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
    }

    /**
     * The shared catalog this session's write is checked against when applied: the running statement's in
     * autocommit, the transaction's first statement's otherwise; null for a catalog only this process writes.
     */
    private Catalog.Snapshot writeGuard() {
        return autoCommit ? statementCatalog : transactionCatalog;
    }

    /**
     * Writes {@code batch} to the store, on a shared catalog expecting its version entry to be the one the
     * statements were planned on. When another process's DDL committed before this write, the write is
     * refused whole; the catalog is re-read and, if every table the batch touches is still the same table,
     * written again under the new version (DDL of other tables leaves it alone); else it fails as a changed
     * catalog (40001, planned again where the statement can run again). The store's own failures pass.
     */
    private void writeDirect(WriteBatch batch) throws SqlError {
        Catalog.Snapshot guard = writeGuard();
        if (guard == null) {
            store.write(batch, durability);
            return;
        }
        Catalog catalog = database.catalog();
        byte[] versionKey = catalog.versionKey();
        // The guard was not read at any write version of this store: no shortcut may skip checking it.
        WriteBatch guarded = batch.expect(versionKey, guard.meta()).absentSince(-1);
        for (int attempt = 1; ; attempt++) {
            try {
                store.write(guarded, durability);
                return;
            } catch (WriteConflictException e) {
                if (!Arrays.equals(e.key(), versionKey)) {
                    throw e;
                }
                catalog.refresh();
                Catalog.Snapshot fresh = catalog.snapshot();
                if (attempt >= ReplanningStatement.CATALOG_ATTEMPTS || fresh.version() == guard.version()
                        || !CatalogGuard.sameTables(batch, versionKey, guard, fresh)) {
                    throw catalogChanged();
                }
                guard = fresh;
                if (autoCommit) {
                    statementCatalog = fresh;
                } else {
                    transactionCatalog = fresh;
                }
                guarded = CatalogGuard.without(batch, versionKey).expect(versionKey, fresh.meta());
            }
        }
    }

    /** A duplicate key found when a batch was applied, named by its table and key value where they are known. */
    private SqlError duplicateAtApply(byte[] key, RuntimeException cause) {
        TableDef def = catalog().snapshot().tableOf(key);
        String row = cause.getMessage();
        if (def != null) {
            try {
                row = KvModifier.duplicate(def, def.decodeKey(key)).getMessage();
            } catch (RuntimeException undecodable) {
                row = "duplicate key in table " + def.qualifiedName() + " (" + cause.getMessage() + ")";
            }
        }
        return new SqlError(SqlState.DUPLICATE_KEY, row + "; found when the batch was applied, nothing was written",
                cause);
    }

    @Override
    public void setAutoCommit(boolean autoCommit) throws SqlError {
        checkOpen();
        if (autoCommit && !this.autoCommit) {
            commit(); // as JDBC: switching autocommit on commits the open transaction
        }
        this.autoCommit = autoCommit;
    }

    @Override
    public boolean autoCommit() {
        return autoCommit;
    }

    @Override
    public void setIsolation(Isolation isolation) throws SqlError {
        checkOpen();
        Objects.requireNonNull(isolation, "isolation");
        if (isolation != this.isolation && transactionStarted) {
            throw new SqlError(SqlState.ACTIVE_SQL_TRANSACTION, "the isolation level cannot change inside a transaction; commit or"
                    + " roll back first");
        }
        this.isolation = isolation;
    }

    @Override
    public Isolation isolation() {
        return isolation;
    }

    @Override
    public void setDurability(Durability durability) {
        this.durability = Objects.requireNonNull(durability, "durability");
    }

    @Override
    public Durability durability() {
        return durability;
    }

    @Override
    public boolean inTransaction() {
        return !transaction.isEmpty();
    }

    /**
     * Commits the transaction's writes as one batch whose preconditions are its checked reads and, above
     * READ COMMITTED, the snapshot's values of the rows it overwrites; 40001 if any changed. A transaction
     * that wrote nothing commits without a check, except one that read without a snapshot above READ
     * COMMITTED: its reads are validated together so that it never commits having seen two states.
     */
    @Override
    public void commit() throws SqlError {
        checkOpen();
        catalogChanged = false;
        try {
            if (!transaction.isEmpty()) {
                WriteBatch batch = transaction.toBatch();
                transactionReads.addTo(batch);
                if (snapshot != null) {
                    // First committer wins: a row this transaction overwrites must not have changed since its snapshot.
                    KvSnapshot s = snapshot;
                    transaction.forEachOverwrittenKey(key -> {
                        if (!transactionReads.readKey(key)) {
                            batch.expect(key, s.get(key));
                        }
                    });
                }
                write(batch.absentSince(versionAtStart), transaction);
            } else if (snapshot == null && isolation != Isolation.READ_COMMITTED && !transactionReads.isEmpty()) {
                WriteBatch validation = new WriteBatch();
                transactionReads.addTo(validation);
                write(validation.absentSince(versionAtStart), null);
            }
        } catch (SqlError e) {
            if (SqlState.SERIALIZATION_FAILURE.equals(e.sqlState())) {
                database.sqlMeters().conflict();
            }
            if (catalogChanged) {
                refreshCatalogQuietly(e);
            }
            throw e;
        } finally {
            // A failed commit writes nothing and ends the transaction, as a rollback would.
            endTransaction();
        }
    }

    @Override
    public void rollback() {
        endTransaction();
    }

    private void endTransaction() {
        transaction.clear();
        transactionReads.clear();
        if (snapshot != null) {
            snapshot.close();
            snapshot = null;
        }
        committed = null;
        transactionCatalog = null;
        transactionStarted = false;
        versionAtStart = -1;
    }

    /** Conflicts the statement {@link #run} last met. */
    int statementConflicts() {
        return statementConflicts;
    }

    /** The slow-statement threshold in nanoseconds; 0 when off. */
    long slowStatementNanos() {
        return slowStatementNanos;
    }

    @Override
    public void setSlowStatementThreshold(long millis) {
        if (millis < 0) {
            throw new IllegalArgumentException("slow statement threshold must not be negative: " + millis);
        }
        slowStatementNanos = java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** Whether statements are counted in the statement statistics and meters. */
    boolean statementStatistics() {
        return statementStatistics;
    }

    @Override
    public void setStatementStatistics(boolean on) {
        statementStatistics = on;
    }

    @Override
    public void setReadOnly(boolean readOnly) {
        this.readOnly = readOnly;
    }

    @Override
    public boolean readOnly() {
        return readOnly;
    }

    @Override
    public String schema() {
        return schema;
    }

    @Override
    public void setSchema(String schema) throws SqlError {
        checkOpen();
        if (!database.hasSchema(schema)) {
            throw new SqlError(SqlState.INVALID_SCHEMA_NAME, "schema " + schema + " does not exist");
        }
        this.schema = schema;
    }

    private void checkOpen() throws SqlError {
        if (closed) {
            throw new SqlError(SqlState.CONNECTION_DOES_NOT_EXIST, "the session is closed");
        }
        database.checkOpen();
    }

    @Override
    public void close() {
        endTransaction();
        closed = true;
    }
}
