package io.kegdb.tests.launcher;

import io.kegdb.tests.launcher.Launcher.Run;
import org.junit.jupiter.api.Test;

import java.net.ServerSocket;

import static io.kegdb.tests.launcher.Launcher.kegdb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ./kegdb cluster}: an unknown subcommand, and a group none of whose nodes answer. */
class ClusterCommandTest {

    @Test
    void unknownSubcommandSaysSo() throws Exception {
        Run r = kegdb("cluster", "frobnicate", "--group", "g", "--peers", "127.0.0.1:1");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("unknown command 'frobnicate'"), r.err());
        assertFalse(r.err().contains("--peer is required"), r.err());
    }

    @Test
    void unreachableNodesAreSaidToBeUnreachable() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort(); // free again once closed: nothing listens there
        }
        Run r = kegdb("cluster", "status", "--group", "g", "--peers", "127.0.0.1:" + port, "--timeout-ms", "1500");
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("unreachable"), r.out());
        assertFalse(r.out().contains("term -1"), r.out());
        assertFalse(r.err().contains("WARN"), "no library warnings: " + r.err());
    }
}
