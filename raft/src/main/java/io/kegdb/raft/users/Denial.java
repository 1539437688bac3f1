package io.kegdb.raft.users;

/** A request a node refuses, and what the client is to make of it; nothing was written. */
public final class Denial extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why. */
    public enum Kind {
        /** No ticket, or one that expired or no longer matches its user: log in (again). */
        LOGIN_REQUIRED,
        /** The login's user, password or both are wrong or missing (SQLState 28000, one message for all). */
        LOGIN_FAILED,
        /** The logged-in user may not do this, or a user command failed: {@link #sqlState()} says why. */
        REFUSED
    }

    private final Kind kind;
    private final String sqlState;

    Denial(Kind kind, String sqlState, String message) {
        super(message, null, false, false);
        this.kind = kind;
        this.sqlState = sqlState;
    }

    public Kind kind() {
        return kind;
    }

    public String sqlState() {
        return sqlState;
    }
}
