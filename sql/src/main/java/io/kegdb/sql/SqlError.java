package io.kegdb.sql;

/**
 * A statement failed. Carries a standard SQLState (23505 duplicate key, 42000 syntax, 42S02 unknown
 * table, 42S22 unknown column, 22xxx bad value, 25006 read-only, 40001 commit conflict, 53100 disk full, 58030 I/O;
 * all named in {@link SqlState}) that the JDBC driver passes on unchanged.
 */
public class SqlError extends Exception {
    private final String sqlState;

    public SqlError(String sqlState, String message) {
        super(message);
        this.sqlState = sqlState;
    }

    public SqlError(String sqlState, String message, Throwable cause) {
        super(message, cause);
        this.sqlState = sqlState;
    }

    /** Five-character SQLState. */
    public String sqlState() {
        return sqlState;
    }
}
