package io.kegdb.raft.replication;

/**
 * Who sent a request, as the receiving node's transport proved it: what {@link Replica} checks before serving
 * it. The transport ({@code io.kegdb.raft.security}) decides; this package only acts on it.
 */
public enum Caller {
    /** A node of the group (a node certificate of the cluster's CA): no user checks apply. */
    NODE,
    /**
     * A client on a node without TLS, or one that presented a client certificate of the cluster's CA: served
     * by the user's privileges on a cluster with users, fully on a cluster without.
     */
    CLIENT,
    /**
     * A client over TLS that presented no certificate (it verified the node's, and has only a user and
     * password): served only on a cluster with users, and only its status and login requests before it logs
     * in; on a cluster without users nothing but the status.
     */
    PASSWORD_CLIENT
}
