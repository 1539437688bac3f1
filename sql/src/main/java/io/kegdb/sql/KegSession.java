package io.kegdb.sql;

import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyExistsException;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import io.kegdb.sql.calcite.KvModifier;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.TableDef;
import io.kegdb.sql.plan.Plan;
import io.kegdb.sql.plan.PlanSession;
import io.kegdb.sql.plan.SqlErrors;
import io.kegdb.sql.txn.Overlay;
import io.kegdb.sql.txn.ReadView;
import io.kegdb.sql.txn.StoreView;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * {@link SqlSession}: a transaction overlay over the store. In autocommit each statement's writes go to
 * the store as one batch; otherwise they collect in the overlay until commit.
 */
final class KegSession implements SqlSession, PlanSession {

    private final KegDatabase database;
    private final KvStore store;
    private final StoreView storeView;
    private final Overlay transaction;
    private boolean autoCommit = true;
    /**
     * The store's write version read as the open transaction's first write began, before any of its
     * duplicate-key checks: if the store is unchanged at commit, those checks still hold.
     */
    private long versionAtFirstWrite = -1;
    private boolean readOnly;
    private Durability durability = Durability.SYNC;
    private String schema = Catalog.DEFAULT_SCHEMA;
    private boolean closed;

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
            return new ReplanningStatement(this, sql, database.plan(sql, schema, deadline));
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
    }

    Plan replan(String sql, Deadline deadline) throws SqlError {
        checkOpen();
        return database.plan(sql, schema, deadline);
    }

    @Override
    public SqlResult execute(String sql) throws SqlError {
        checkOpen();
        Objects.requireNonNull(sql, "sql");
        try {
            Deadline none = Deadline.none();
            return database.plan(sql, schema, none).execute(this, List.of(), 0, none);
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
    }

    @Override
    public ReadView view() {
        return transaction.isEmpty() ? storeView : transaction;
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
        noteWriteStart();
        return new Overlay(view());
    }

    @Override
    public void finishWrite(Overlay statement) throws SqlError {
        if (statement.isEmpty()) {
            return;
        }
        if (autoCommit) {
            write(statement.toBatch());
        } else {
            transaction.absorb(statement);
        }
    }

    @Override
    public long insertOne(TableDef def, byte[] key, byte[] value, Object keyValue) throws SqlError {
        checkWritable();
        if (autoCommit) {
            try {
                store.write(new WriteBatch().putIfAbsent(key, value), durability);
            } catch (KeyExistsException e) {
                throw KvModifier.duplicate(def, keyValue);
            }
            return 1;
        }
        noteWriteStart();
        if (!transaction.insertIfAbsent(key, value)) {
            throw KvModifier.duplicate(def, keyValue);
        }
        return 1;
    }

    @Override
    public long putOne(byte[] key, byte[] value, boolean onlyIfExists) throws SqlError {
        checkWritable();
        noteWriteStart();
        if (onlyIfExists && !view().contains(key)) {
            return 0;
        }
        if (autoCommit) {
            store.put(key, value, durability);
        } else {
            transaction.put(key, value);
        }
        return 1;
    }

    @Override
    public long deleteOne(byte[] key) throws SqlError {
        checkWritable();
        noteWriteStart();
        if (autoCommit) {
            return store.delete(key, durability) ? 1 : 0;
        }
        if (!transaction.contains(key)) {
            return 0;
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

    /** Reads the store's write version when a write starts a transaction (see {@link #versionAtFirstWrite}). */
    private void noteWriteStart() {
        if (!autoCommit && transaction.isEmpty()) {
            versionAtFirstWrite = store.writeVersion();
        }
    }

    private void write(WriteBatch batch) throws SqlError {
        try {
            store.write(batch, durability);
        } catch (KeyExistsException e) {
            throw new SqlError(SqlState.DUPLICATE_KEY, "duplicate key: another session inserted it first ("
                    + e.getMessage() + ")", e);
        } catch (RuntimeException e) {
            throw SqlErrors.translate(e);
        }
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

    @Override
    public void commit() throws SqlError {
        checkOpen();
        if (transaction.isEmpty()) {
            return;
        }
        try {
            write(transaction.toBatch().absentSince(versionAtFirstWrite));
        } finally {
            // A failed commit writes nothing and ends the transaction, as a rollback would.
            transaction.clear();
        }
    }

    @Override
    public void rollback() {
        transaction.clear();
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
        transaction.clear();
        closed = true;
    }
}
