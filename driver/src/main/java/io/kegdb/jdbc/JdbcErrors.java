package io.kegdb.jdbc;

import io.kegdb.raft.ReplicationException;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import io.kegdb.sql.StoreErrors;

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

    private JdbcErrors() {
    }

    /** An SQLException of the subclass matching {@code sqlState}. */
    static SQLException of(String sqlState, String message, Throwable cause) {
        String cls = sqlState == null || sqlState.length() < 2 ? "" : sqlState.substring(0, 2);
        return switch (cls) {
            case "08" -> sqlState.equals(SqlState.CANNOT_CONNECT)
                    ? new SQLTransientConnectionException(message, sqlState, cause)
                    : new SQLNonTransientConnectionException(message, sqlState, cause);
            case "22" -> new SQLDataException(message, sqlState, cause);
            case "23" -> new SQLIntegrityConstraintViolationException(message, sqlState, cause);
            case "28" -> new SQLInvalidAuthorizationSpecException(message, sqlState, cause);
            case "40" -> new SQLTransactionRollbackException(message, sqlState, cause);
            case "42" -> new SQLSyntaxErrorException(message, sqlState, cause);
            case "HY" -> sqlState.equals(SqlState.TIMEOUT_EXPIRED)
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
        ReplicationException replication = RaftStores.replicationCause(e);
        if (replication != null) {
            return of(RaftStores.sqlState(replication), replication.getMessage(), e);
        }
        return of(e.sqlState(), e.getMessage(), e);
    }

    /**
     * A runtime failure below the driver outside a statement: a replication or store failure gets the SQLState
     * the SQL layer gives it; anything else (a bug) is a general error, never a connection state, so a pool
     * keeps the connection unless the store itself is gone.
     */
    static SQLException from(RuntimeException e) {
        ReplicationException replication = RaftStores.replicationCause(e);
        if (replication != null) {
            return of(RaftStores.sqlState(replication), replication.getMessage(), e);
        }
        SqlError store = StoreErrors.translate(e);
        if (store != null) {
            return of(store.sqlState(), store.getMessage(), e);
        }
        if (e instanceof IllegalArgumentException) {
            return of(SqlState.DATA_EXCEPTION, e.getMessage(), e);
        }
        String message = e.getMessage() == null ? e.getClass().getName() : e.getMessage();
        return of(SqlState.GENERAL_ERROR, message, e);
    }

    /** A routine "not supported": null SQLState so pools do not treat it as a broken connection. */
    static SQLFeatureNotSupportedException unsupported(String what) {
        return new SQLFeatureNotSupportedException(what + " is not supported by KegDB", (String) null);
    }

    static SQLException closed(String what) {
        return switch (what) {
            case "connection" -> of(SqlState.CONNECTION_DOES_NOT_EXIST, "connection is closed");
            case "result set" -> of(SqlState.INVALID_CURSOR_STATE, "result set is closed");
            default -> of(SqlState.FUNCTION_SEQUENCE_ERROR, what + " is closed");
        };
    }
}
