package io.kegdb.jdbc.metrics;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An embedded cluster member ({@code jdbc:kegdb:DIR?raft.group=...}) has its node's MBean, the one
 * {@code kegdb node} registers, while its store is open.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class MemberMBeanTest {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    Path dir;

    @Test
    void aMemberHasItsNodesMBeanWhileItsStoreIsOpen() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = s.getLocalPort();
        }
        String self = "127.0.0.1:" + port;
        ObjectName name = new ObjectName("io.kegdb:type=RaftNode,group=\"member-mbean\",peer=\"" + self + "\"");
        String url = "jdbc:kegdb:" + dir + "?raft.group=member-mbean&raft.self=" + self + "&raft.peers=" + self;
        assertFalse(SERVER.isRegistered(name));
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            assertTrue(SERVER.isRegistered(name), "the member's node MBean");
            s.executeUpdate("CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR)");
            s.executeUpdate("INSERT INTO T VALUES (1, 'one')");
            assertTrue((Double) SERVER.getAttribute(name, "raft.applied.index") >= 2, "the writes applied");
            assertEquals(1.0, SERVER.getAttribute(name, "raft.role[role=leader]"), "a group of one leads itself");
        }
        assertFalse(SERVER.isRegistered(name), "gone with the store");
    }
}
