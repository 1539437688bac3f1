package io.kegdb.raft.security;

import io.netty.handler.ssl.NotSslRecordException;
import org.junit.jupiter.api.Test;

import javax.net.ssl.SSLException;
import javax.net.ssl.SSLHandshakeException;
import java.nio.channels.ClosedChannelException;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which handshake failures a client reports at once (a setting: trying again fails the same way) and which it
 * treats as a node that is unreachable for the moment (killed or stopping mid-handshake), the JDK's and
 * Netty's exception texts as they come.
 */
class TlsCausesTest {

    private static TlsCauses.ClientFailure client(Throwable t, boolean presentedCertificate) {
        return TlsCauses.asClient(t, "127.0.0.1:8101", "ca.crt", presentedCertificate);
    }

    @Test
    void settingsFailAtOnce() {
        TlsCauses.ClientFailure untrusted = client(new SSLHandshakeException(
                "PKIX path building failed: unable to find valid certification path to requested target"), true);
        assertTrue(untrusted.configuration() && untrusted.reason().contains("untrusted CA"), untrusted.toString());
        TlsCauses.ClientFailure name = client(new SSLHandshakeException(
                "No subject alternative names matching IP address 127.0.0.2 found"), true);
        assertTrue(name.configuration() && name.reason().contains("host-name mismatch"), name.toString());
        TlsCauses.ClientFailure plain = client(new NotSslRecordException("not an SSL/TLS record: 4b65674442"), true);
        assertTrue(plain.configuration() && plain.reason().contains("plain text"), plain.toString());
        TlsCauses.ClientFailure required = client(new SSLException("Received fatal alert: certificate_required"), false);
        assertTrue(required.configuration() && required.reason().contains("requires a client certificate"),
                required.toString());
    }

    @Test
    void aConnectionEndedMidHandshakeIsANodeGoingDown() {
        for (Throwable t : new Throwable[]{new SSLException("Connection reset"), new ClosedChannelException(),
                new SSLHandshakeException("Remote host terminated the handshake"),
                new SSLException("SslHandler removed before handshake completed")}) {
            assertFalse(client(t, true).configuration(), t.toString());
        }
    }
}
