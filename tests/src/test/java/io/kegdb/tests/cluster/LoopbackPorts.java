package io.kegdb.tests.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Ports for the cluster tests' nodes: each one free on the loopback interface when asked for. */
final class LoopbackPorts {

    private LoopbackPorts() {
    }

    /** A port nothing listens on now; the OS picks it, so parallel builds do not collide. */
    static int free() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
