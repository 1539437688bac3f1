package io.kegdb.raft.security;

import io.kegdb.raft.replication.KvRequest;

/**
 * Which callers a TLS node serves, by request, checked on the node that receives the request (a client is
 * never trusted to check itself): SOFAJRaft's Raft RPCs (AppendEntries, RequestVote, InstallSnapshot, read
 * index, timeout-now, snapshot file reads) and its CLI requests (membership, leader transfer, snapshots) only
 * from callers that presented a node certificate; the replicated store's requests from callers that presented
 * a certificate of the cluster's CA, node or client.
 */
final class AccessPolicy {

    private AccessPolicy() {
    }

    /** Why {@code caller} may not send a request of {@code interest}, or null if it may. */
    static String refusal(String interest, PeerIdentity caller) {
        boolean clientRequest = KvRequest.class.getName().equals(interest);
        if (caller == null) {
            return "the connection proved no identity";
        }
        if (caller.kind() == PeerIdentity.Kind.NODE) {
            return null;
        }
        if (clientRequest) {
            return caller.kind() == PeerIdentity.Kind.CLIENT ? null
                    : "this node serves clients with a certificate of its CA only (sslcert and sslkey);"
                    + " the caller presented none";
        }
        return "only nodes of the cluster may send " + simpleName(interest) + "; the caller presented " + caller
                + ", not a node certificate";
    }

    private static String simpleName(String interest) {
        int dot = Math.max(interest.lastIndexOf('.'), interest.lastIndexOf('$'));
        return interest.substring(dot + 1);
    }
}
