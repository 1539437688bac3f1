package io.kegdb.raft;

/**
 * A request to a replicated store that did not succeed within its timeout. {@link #kind()} tells whether a
 * write may have happened; a SQL layer maps it to a SQLState (suggested in {@link Kind}).
 */
public final class ReplicationException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** Why the request failed. */
    public enum Kind {
        /** No leader or no reachable node answered in time; nothing was written (SQLState 08006). */
        UNAVAILABLE("08006"),
        /** A write reached a leader that lost leadership or stopped answering: it may or may not be committed
         *  (SQLState 08007, transaction resolution unknown). */
        OUTCOME_UNKNOWN("08007"),
        /** The connection's TLS failed or is missing on one side (an untrusted CA, a host-name mismatch, plain
         *  text against a TLS node or the reverse); nothing was written (SQLState 08001). */
        TLS("08001"),
        /** The node refused the caller's identity for this request (no certificate of the cluster's CA, or a
         *  client's where a node's is needed); nothing was written (SQLState 28000). */
        NOT_AUTHORIZED("28000");

        private final String sqlState;

        Kind(String sqlState) {
            this.sqlState = sqlState;
        }

        /** The standard SQLState for this kind. */
        public String sqlState() {
            return sqlState;
        }
    }

    private final Kind kind;

    public ReplicationException(Kind kind, String message) {
        super(message);
        this.kind = kind;
    }

    public ReplicationException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = kind;
    }

    /** Why the request failed. */
    public Kind kind() {
        return kind;
    }
}
