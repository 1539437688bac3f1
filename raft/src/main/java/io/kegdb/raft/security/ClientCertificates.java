package io.kegdb.raft.security;

import java.util.Locale;

/**
 * Whether a TLS node asks its clients for a certificate ({@code --tls-client-auth}). Nodes always present
 * theirs: this is about clients only.
 */
public enum ClientCertificates {
    /**
     * The default: a client may present a client certificate of the CA or none. One without a certificate
     * has verified the node's and must log in with a user and password; it is served only on a cluster with
     * users and never sends Raft or membership requests.
     */
    OPTIONAL,
    /**
     * Every caller must present a certificate of the CA in the TLS handshake (Netty's
     * {@code ClientAuth.REQUIRE}): a client without one fails the handshake, before any request is read.
     */
    REQUIRED;

    /** From the option's words {@code optional} and {@code require} (any case). */
    public static ClientCertificates parse(String word) {
        return switch (word.trim().toLowerCase(Locale.ROOT)) {
            case "optional" -> OPTIONAL;
            case "require", "required" -> REQUIRED;
            default -> throw new IllegalArgumentException("--tls-client-auth must be require or optional, not " + word);
        };
    }

    /** The option's word. */
    public String word() {
        return this == OPTIONAL ? "optional" : "require";
    }
}
