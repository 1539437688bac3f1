package io.kegdb.jdbc;

import io.kegdb.sql.SqlError;

import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLNonTransientException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTimeoutException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientConnectionException;

/**
 * Builds the driver's SQLExceptions: the subclass follows the SQLState's class, so callers (and pools) can
 * react to the type or the state. Connection-level states (08xxx) are used only when the connection itself
 * is unusable, because pools evict connections on them.
 */
final class JdbcErrors {

    /** Connection does not exist (closed). */
    static final String CONNECTION_CLOSED = "08003";
    /** The client could not establish the connection. */
    static final String CANNOT_CONNECT = "08001";
    /** Invalid cursor state: result set closed or not on a row. */
    static final String INVALID_CURSOR = "24000";
    /** Function sequence error: statement used after close. */
    static final String SEQUENCE_ERROR = "HY010";
    /** Invalid descriptor index: column or parameter number out of range. */
    static final String BAD_INDEX = "07009";
    /** A parameter has no value. */
    static final String PARAMETER_MISSING = "07001";
    /** The statement does not produce what the call expects (rows vs. an update count). */
    static final String WRONG_STATEMENT_KIND = "07000";
    /** Invalid transaction state. */
    static final String TRANSACTION_STATE = "25000";
    /** Invalid parameter value. */
    static final String BAD_VALUE = "22023";
    /** Data conversion failed. */
    static final String BAD_CONVERSION = "22018";
    /** Invalid connection option. */
    static final String BAD_OPTION = "HY024";
    /** Query cancelled by timeout or {@code cancel()}. */
    static final String TIMEOUT = "HYT00";
    /** Internal error of the SQL layer. */
    static final String GENERAL = "HY000";

    private JdbcErrors() {
    }

    /** An SQLException of the subclass matching {@code sqlState}. */
    static SQLException of(String sqlState, String message, Throwable cause) {
        String cls = sqlState == null || sqlState.length() < 2 ? "" : sqlState.substring(0, 2);
        return switch (cls) {
            case "08" -> sqlState.equals(CANNOT_CONNECT)
                    ? new SQLTransientConnectionException(message, sqlState, cause)
                    : new SQLNonTransientConnectionException(message, sqlState, cause);
            case "22" -> new SQLDataException(message, sqlState, cause);
            case "23" -> new SQLIntegrityConstraintViolationException(message, sqlState, cause);
            case "28" -> new SQLInvalidAuthorizationSpecException(message, sqlState, cause);
            case "40" -> new SQLTransactionRollbackException(message, sqlState, cause);
            case "42" -> new SQLSyntaxErrorException(message, sqlState, cause);
            case "HY" -> sqlState.equals(TIMEOUT)
                    ? new SQLTimeoutException(message, sqlState, cause)
                    : new SQLException(message, sqlState, cause);
            case "25", "24", "07" -> new SQLNonTransientException(message, sqlState, cause);
            default -> new SQLException(message, sqlState, cause);
        };
    }

    static SQLException of(String sqlState, String message) {
        return of(sqlState, message, null);
    }

    /** The SQL layer's error with its SQLState unchanged. */
    static SQLException from(SqlError e) {
        io.kegdb.raft.ReplicationException replication = RaftStores.replicationCause(e);
        if (replication != null) {
            return of(replication.kind().sqlState(), replication.getMessage(), e);
        }
        return of(e.sqlState(), e.getMessage(), e);
    }

    /**
     * An unexpected runtime failure below the driver (I/O, a bug): a general error, never a connection state,
     * so a pool keeps the connection unless the store itself is gone.
     */
    static SQLException from(RuntimeException e) {
        io.kegdb.raft.ReplicationException replication = RaftStores.replicationCause(e);
        if (replication != null) {
            return of(replication.kind().sqlState(), replication.getMessage(), e);
        }
        if (e instanceof java.io.UncheckedIOException io) {
            if (io.getCause() instanceof io.kegdb.engine.DiskFullException full) {
                return of("53100", "disk full: " + full.getMessage(), e);
            }
            return of("58030", "I/O error: " + io.getCause().getMessage(), e);
        }
        if (e instanceof IllegalArgumentException) {
            return of("22000", e.getMessage(), e);
        }
        String message = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
        return of(GENERAL, message, e);
    }

    /** A routine "not supported": null SQLState so pools do not treat it as a broken connection. */
    static SQLFeatureNotSupportedException unsupported(String what) {
        return new SQLFeatureNotSupportedException(what + " is not supported by KegDB", (String) null);
    }

    static SQLException closed(String what) {
        return switch (what) {
            case "connection" -> of(CONNECTION_CLOSED, "connection is closed");
            case "result set" -> of(INVALID_CURSOR, "result set is closed");
            default -> of(SEQUENCE_ERROR, what + " is closed");
        };
    }
}
