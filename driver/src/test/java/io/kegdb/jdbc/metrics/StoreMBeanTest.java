package io.kegdb.jdbc.metrics;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A store's MBean through JDBC: there while the store is open, gone when it closes, its values moving. */
@Timeout(120)
class StoreMBeanTest {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    @TempDir
    Path dir;

    private static ObjectName name(String key) throws Exception {
        return new ObjectName("io.kegdb:type=Store,name=" + ObjectName.quote(key));
    }

    private static double attribute(ObjectName name, String attribute) throws Exception {
        return (Double) SERVER.getAttribute(name, attribute);
    }

    @Test
    void theMBeanComesAndGoesWithTheStoreAndItsValuesMoveWithWritesMergesAndConflicts() throws Exception {
        String key = dir.toRealPath().toString();
        ObjectName name = name(key);
        String url = "jdbc:kegdb:" + dir + "?segmentSize=4k&mergeInterval=50ms&mergeMinFiles=2&mergeGarbageRatio=0.1";
        assertFalse(SERVER.isRegistered(name));
        double catalogKeys;
        try (Connection c = DriverManager.getConnection(url)) {
            assertTrue(SERVER.isRegistered(name));
            double writes = attribute(name, "engine.writes");
            catalogKeys = attribute(name, "engine.keys"); // the catalog's own
            try (Connection second = DriverManager.getConnection(url)) {
                assertTrue(SERVER.isRegistered(name), "one MBean for both connections");
            }
            assertTrue(SERVER.isRegistered(name), "still open by the first connection");
            try (PreparedStatement p = c.prepareStatement("UPSERT INTO KV VALUES (?, ?)")) {
                for (int round = 0; round < 5; round++) {
                    for (int i = 0; i < 100; i++) {
                        p.setString(1, "k" + i);
                        p.setString(2, "value-" + round + "-" + i);
                        p.executeUpdate();
                    }
                }
            }
            assertEquals(writes + 500, attribute(name, "engine.writes"));
            assertEquals(catalogKeys + 100, attribute(name, "engine.keys"));
            assertTrue(attribute(name, "engine.fsync.seconds.count") >= 1);
            assertEquals(500, attribute(name, "sql.statements[kind=merge]"));
            // The scheduled merges reclaim the overwritten values.
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (attribute(name, "engine.merges") == 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(attribute(name, "engine.merges") >= 1);
            assertTrue(attribute(name, "engine.merge.seconds") > 0);

            double conflicts = attribute(name, "sql.conflicts");
            try (Connection a = DriverManager.getConnection(url); Connection b = DriverManager.getConnection(url)) {
                for (Connection x : new Connection[] {a, b}) {
                    x.setTransactionIsolation(Connection.TRANSACTION_SERIALIZABLE);
                    x.setAutoCommit(false);
                }
                try (Statement sa = a.createStatement(); Statement sb = b.createStatement()) {
                    sa.executeQuery("SELECT V FROM KV WHERE K = 'k1'").close();
                    sb.executeQuery("SELECT V FROM KV WHERE K = 'k1'").close();
                    sa.executeUpdate("UPDATE KV SET V = 'a' WHERE K = 'k1'");
                    sb.executeUpdate("UPDATE KV SET V = 'b' WHERE K = 'k1'");
                    a.commit();
                    SQLException e = assertThrows(SQLException.class, b::commit);
                    assertEquals("40001", e.getSQLState());
                }
            }
            assertEquals(conflicts + 1, attribute(name, "sql.conflicts"));
            assertTrue(attribute(name, "sql.statement.texts") >= 1);
            SERVER.invoke(name, "resetStatements", new Object[0], new String[0]);
            assertEquals(0, attribute(name, "sql.statement.texts"));
        }
        assertFalse(SERVER.isRegistered(name), "the last connection closed the store and its MBean");
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:" + dir)) {
            assertTrue(SERVER.isRegistered(name), "reopened");
            assertEquals(catalogKeys + 100, attribute(name, "engine.keys"));
        }
        assertFalse(SERVER.isRegistered(name));
    }

    @Test
    void everyOpenStoreHasItsOwnMBean() throws Exception {
        ObjectName one = name("mem:mbean-one");
        ObjectName two = name("mem:mbean-two");
        try (Connection a = DriverManager.getConnection("jdbc:kegdb:mem:mbean-one");
             Connection b = DriverManager.getConnection("jdbc:kegdb:mem:mbean-two")) {
            assertTrue(SERVER.isRegistered(one));
            assertTrue(SERVER.isRegistered(two));
            double keys = attribute(one, "engine.keys");
            assertEquals(keys, attribute(two, "engine.keys"), "two new stores hold the same catalog");
            try (Statement s = a.createStatement()) {
                s.executeUpdate("INSERT INTO KV VALUES ('a', 'b')");
            }
            assertEquals(keys + 1, attribute(one, "engine.keys"));
            assertEquals(keys, attribute(two, "engine.keys"));
        }
        assertFalse(SERVER.isRegistered(one));
        assertFalse(SERVER.isRegistered(two));
    }
}
