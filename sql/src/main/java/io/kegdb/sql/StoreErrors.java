package io.kegdb.sql;

import io.kegdb.engine.AccessDeniedException;
import io.kegdb.engine.DiskFullException;
import io.kegdb.engine.KeyExistsException;
import io.kegdb.engine.LimitExceededException;
import io.kegdb.engine.SnapshotTooOldException;
import io.kegdb.engine.StoreClosedException;
import io.kegdb.engine.UnsupportedStoreOperationException;
import io.kegdb.engine.WriteConflictException;

import java.io.UncheckedIOException;

/**
 * Maps the store's failures to SQLStates, by their type: the one place for it, used by the SQL layer for a
 * failing statement and by the JDBC driver for a store failure outside a statement.
 */
public final class StoreErrors {

    private StoreErrors() {
    }

    /** {@code failure} as a {@link SqlError} if it is one of the store's failures, else null. */
    public static SqlError translate(Throwable failure) {
        if (failure instanceof WriteConflictException w) {
            return new SqlError(SqlState.SERIALIZATION_FAILURE, "could not serialize access: " + w.getMessage()
                    + "; nothing was written, run the transaction again", w);
        }
        if (failure instanceof SnapshotTooOldException old) {
            return new SqlError(SqlState.SERIALIZATION_FAILURE, old.getMessage() + "; run the transaction again", old);
        }
        if (failure instanceof KeyExistsException k) {
            return new SqlError(SqlState.DUPLICATE_KEY, "duplicate key: " + k.getMessage(), k);
        }
        if (failure instanceof LimitExceededException limit) {
            return switch (limit.limit()) {
                // A row's key and value are longer in the store than in SQL: name the overhead.
                case KEY_SIZE, VALUE_SIZE -> new SqlError(SqlState.STRING_DATA_RIGHT_TRUNCATION, limit.getMessage()
                        + " (a row is stored as its table's 4-byte id + the encoded key, and 1 byte + the encoded"
                        + " value)", limit);
                case BATCH_SIZE -> new SqlError(SqlState.PROGRAM_LIMIT_EXCEEDED, limit.getMessage(), limit);
            };
        }
        if (failure instanceof UncheckedIOException io) {
            if (io.getCause() instanceof DiskFullException full) {
                // PostgreSQL's disk_full: nothing of the statement was written.
                return new SqlError(SqlState.DISK_FULL, "disk full: " + full.getMessage(), io);
            }
            return new SqlError(SqlState.IO_ERROR, "I/O error: " + io.getMessage(), io);
        }
        if (failure instanceof UnsupportedStoreOperationException unsupported && unsupported.notYetBuilt()) {
            // A feature KegDB lacks so far (cross-range transactions): 0A000, the message names the ranges.
            return new SqlError(SqlState.FEATURE_NOT_SUPPORTED, unsupported.getMessage(), unsupported);
        }
        if (failure instanceof UnsupportedStoreOperationException unsupported) {
            // Not a feature KegDB lacks (0A000) but a statement this kind of database does not run: 42000, as
            // for a statement not allowed here, with what would run it.
            String hint = unsupported.operation().equals(UnsupportedStoreOperationException.BACKUP)
                    ? "BACKUP TO needs a local store (a jdbc:kegdb:DIR database); " : "";
            return new SqlError(SqlState.SYNTAX_ERROR, hint + unsupported.getMessage(), unsupported);
        }
        if (failure instanceof AccessDeniedException denied) {
            return new SqlError(SqlState.INSUFFICIENT_PRIVILEGE, denied.getMessage() + "; nothing was written", denied);
        }
        if (failure instanceof StoreClosedException closed) {
            return new SqlError(SqlState.CONNECTION_DOES_NOT_EXIST, closed.getMessage(), closed);
        }
        return null;
    }
}
