package io.kegdb.raft.security;

import javax.net.ssl.SSLException;
import java.nio.channels.ClosedChannelException;

/** Says in words why a TLS handshake failed, from the JDK's exception. */
final class TlsCauses {

    private TlsCauses() {
    }

    /** The first {@link SSLException} in a cause chain, or null. */
    static SSLException find(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (c instanceof SSLException s) {
                return s;
            }
            if (c.getCause() == c) {
                break;
            }
        }
        return null;
    }

    /**
     * Why a handshake with a node failed, as the side that connected saw it.
     *
     * @param reason        one line naming the cause
     * @param configuration true when the cause is a setting of either side (a CA, a certificate, a host name, TLS
     *                      on one side only), so that trying again fails the same way; false when the node may
     *                      only be going down or starting (a connection closed or reset during the handshake),
     *                      so that another node or a later attempt may succeed
     */
    record ClientFailure(String reason, boolean configuration) {
    }

    /**
     * Why a connection to {@code peer} failed its handshake, as seen by the side that connected.
     *
     * @param ca the CA file this side trusts, named in the message
     * @param presentedCertificate whether this side presented a certificate
     */
    static ClientFailure asClient(Throwable failure, String peer, Object ca, boolean presentedCertificate) {
        String m = messages(failure);
        if (!presentedCertificate && (m.contains("certificate_required") || m.contains("bad_certificate"))) {
            return setting("TLS with " + peer + " failed: it requires a client certificate of its CA (sslcert and sslkey,"
                    + " or --tls-cert and --tls-key), and this side presented none");
        }
        if (m.contains("PKIX") || m.contains("certification path") || m.contains("signature check failed")
                || m.contains("chain") && m.contains("trust")) {
            return setting("TLS with " + peer + " failed: its certificate is not signed by the CA in " + ca
                    + " (untrusted CA)");
        }
        if (m.contains("subject alternative") || m.contains("No name matching") || m.contains("hostname")) {
            return setting("TLS with " + peer + " failed: host-name mismatch, its certificate does not name " + host(peer)
                    + " (make it with kegdb cert node --host listing every name and IP it is reached by)");
        }
        if (m.contains("Extended key usage") || m.contains("KeyUsage")) {
            return setting("TLS with " + peer + " failed: its certificate is not a node's (serverAuth missing)");
        }
        if (m.contains("bad_certificate") || m.contains("certificate_unknown") || m.contains("certificate_required")
                || m.contains("unknown_ca") || m.contains("access_denied")) {
            return setting("TLS with " + peer + " failed: it refused this side's certificate (not signed by its CA?)");
        }
        if (m.contains("not an SSL/TLS record")) {
            return setting("TLS with " + peer + " failed: it answered in plain text (it runs without TLS)");
        }
        if (m.contains("terminated the handshake") || m.contains("closed") || m.contains("removed before handshake") || m.contains("reset")
                || m.contains("Connection") || failure instanceof ClosedChannelException) {
            // A node without TLS answers a handshake in plain text (see ServerChannels), so this is a node
            // killed or stopping during the handshake, or one whose process is not serving yet.
            return new ClientFailure("TLS with " + peer + " failed: it closed the connection during the handshake"
                    + " (stopping, or does it run without TLS?)", false);
        }
        return new ClientFailure("TLS with " + peer + " failed: " + firstLine(failure), false);
    }

    private static ClientFailure setting(String reason) {
        return new ClientFailure(reason, true);
    }

    /** Why a connection from {@code peer} failed its handshake, as seen by the node that received it. */
    static String asServer(Throwable failure, String peer) {
        String m = messages(failure);
        if (m.contains("PKIX") || m.contains("certification path") || m.contains("signature check failed")) {
            return "refused a TLS connection from " + peer + ": its certificate is not signed by this cluster's CA";
        }
        if (m.contains("Extended key usage") || m.contains("KeyUsage")) {
            return "refused a TLS connection from " + peer + ": its certificate may not be used by a client";
        }
        if (m.contains("Empty client certificate chain") || m.contains("certificate_required")) {
            return "refused a TLS connection from " + peer + ": it presented no certificate, and this node requires"
                    + " one (--tls-client-auth require)";
        }
        if (m.contains("bad_certificate") || m.contains("certificate_unknown") || m.contains("unknown_ca")) {
            return "refused a TLS connection from " + peer + ": it does not trust this node's certificate (another CA?)";
        }
        return "TLS with " + peer + " failed: " + firstLine(failure);
    }

    private static String host(String peer) {
        int colon = peer.lastIndexOf(':');
        return colon > 0 ? peer.substring(0, colon) : peer;
    }

    private static String messages(Throwable t) {
        StringBuilder b = new StringBuilder();
        for (Throwable c = t; c != null && b.length() < 4000; c = c.getCause()) {
            b.append(c.getClass().getSimpleName()).append(": ").append(c.getMessage()).append(" | ");
            if (c.getCause() == c) {
                break;
            }
        }
        return b.toString();
    }

    private static String firstLine(Throwable t) {
        String m = String.valueOf(t.getMessage());
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }
}
