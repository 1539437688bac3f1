package io.kegdb.raft.security;

import io.kegdb.raft.replication.Caller;
import io.kegdb.raft.replication.KvRequest;

/**
 * Which callers a TLS node serves, by request, checked on the node that receives the request (a client is
 * never trusted to check itself): SOFAJRaft's Raft RPCs (AppendEntries, RequestVote, InstallSnapshot, read
 * index, timeout-now, snapshot file reads) and its CLI requests (membership, leader transfer, snapshots) only
 * from callers that presented a node certificate; the replicated store's requests from every caller that made
 * a TLS handshake with the node, with a certificate of the CA or without one (a node requiring client
 * certificates ends the handshake of the latter). What a client may then do is the replica's to decide
 * ({@link #caller}: a client without a certificate needs users and a login).
 */
final class AccessPolicy {

    private AccessPolicy() {
    }

    /** Why {@code caller} may not send a request of {@code interest}, or null if it may. */
    static String refusal(String interest, PeerIdentity caller) {
        if (caller == null) {
            return "the connection proved no identity";
        }
        if (caller.kind() == PeerIdentity.Kind.NODE || KvRequest.class.getName().equals(interest)) {
            return null;
        }
        return "only nodes of the cluster may send " + simpleName(interest) + "; the caller presented " + caller
                + ", not a node certificate";
    }

    /**
     * What the replica is told about the sender of a store request: a node, a client with a certificate, or a
     * client without one. Without TLS (no identity on the connection) every caller is a client.
     */
    static Caller caller(PeerIdentity identity) {
        if (identity == null) {
            return Caller.CLIENT;
        }
        return switch (identity.kind()) {
            case NODE -> Caller.NODE;
            case CLIENT -> Caller.CLIENT;
            case ANONYMOUS -> Caller.PASSWORD_CLIENT;
        };
    }

    private static String simpleName(String interest) {
        int dot = Math.max(interest.lastIndexOf('.'), interest.lastIndexOf('$'));
        return interest.substring(dot + 1);
    }
}
