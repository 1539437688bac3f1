package io.kegdb.raft.security;

import com.alipay.sofa.jraft.rpc.Connection;
import com.alipay.sofa.jraft.rpc.RpcContext;

/**
 * Who is at the other end of a connection a node received, as its TLS handshake proved: a node of the
 * cluster, a client with a certificate of the cluster's CA, or a caller who presented none. Kept on the
 * connection, so every request received on it can be checked ({@link AccessPolicy}).
 *
 * @param kind what the caller proved
 * @param name the certificate's common name (the node's or user's name), or null without a certificate
 */
public record PeerIdentity(Kind kind, String name) {

    /** What a caller proved in the TLS handshake. */
    public enum Kind {
        /** A certificate of the cluster's CA marked as a node's. */
        NODE,
        /** A certificate of the cluster's CA that is not a node's. */
        CLIENT,
        /** A TLS connection without a certificate. */
        ANONYMOUS
    }

    /** The connection attribute the identity is kept under. */
    static final String ATTRIBUTE = "kegdb.peer-identity";

    /** The identity of the caller of a request, or null when its connection proved none (no TLS handshake). */
    public static PeerIdentity of(RpcContext context) {
        Connection connection = context == null ? null : context.getConnection();
        Object identity = connection == null ? null : connection.getAttribute(ATTRIBUTE);
        return identity instanceof PeerIdentity p ? p : null;
    }

    @Override
    public String toString() {
        return switch (kind) {
            case NODE -> "a node certificate (CN=" + name + ")";
            case CLIENT -> "a client certificate (CN=" + name + ")";
            case ANONYMOUS -> "no certificate";
        };
    }
}
