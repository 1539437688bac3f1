package io.kegdb.raft;

/**
 * A node refused a request for a reason with a standard SQLState: a missing privilege (42501), a user that
 * exists already (42710) or does not exist (42704), a cluster without users (42000). Nothing was written.
 */
public final class RefusedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String sqlState;

    public RefusedException(String sqlState, String message) {
        super(message);
        this.sqlState = sqlState;
    }

    /** The SQLState the refusal maps to. */
    public String sqlState() {
        return sqlState;
    }
}
