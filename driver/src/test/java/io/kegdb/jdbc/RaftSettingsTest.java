package io.kegdb.jdbc;

import io.kegdb.raft.ReadConsistency;
import org.junit.jupiter.api.Test;

import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Parsing of the thin-client and embedded-member Raft URLs. */
class RaftSettingsTest {

    @Test
    void thinClientUrlNamesNodesAndGroup() throws SQLException {
        ConnectionSettings s = ConnectionSettings.parse(
                "jdbc:kegdb:raft://10.0.0.1:8101,10.0.0.2:8101/orders?readConsistency=local&raft.timeout=3s", null);
        RaftSettings r = s.raft();
        assertTrue(r.isClient());
        assertEquals("orders", r.group());
        assertEquals("10.0.0.1:8101,10.0.0.2:8101", r.peers());
        assertEquals(ReadConsistency.LOCAL, r.readConsistency());
        assertEquals(Duration.ofSeconds(3), r.requestTimeout());
        assertNull(s.directory());
        assertEquals("raft://10.0.0.1:8101,10.0.0.2:8101/orders", s.storeName());
    }

    @Test
    void embeddedMemberUrlKeepsItsDirectory() throws SQLException {
        Properties p = new Properties();
        p.setProperty("raft.electionTimeoutMs", "500");
        ConnectionSettings s = ConnectionSettings.parse("jdbc:kegdb:/var/keg?raft.group=g&raft.self=h:1&raft.peers=h:1,h:2,h:3", p);
        RaftSettings r = s.raft();
        assertEquals("h:1", r.self());
        assertEquals(500, r.electionTimeoutMs());
        assertEquals(ReadConsistency.LINEARIZABLE, r.readConsistency());
        assertEquals(Path.of("/var/keg"), s.directory());
    }

    @Test
    void thinClientsShareAStoreOnlyWithTheSameTimeoutAndReadConsistency() throws SQLException {
        String url = "jdbc:kegdb:raft://h:1,h:2/g";
        String plain = ConnectionSettings.parse(url, null).raft().clientRegistryKey();
        assertEquals(plain, ConnectionSettings.parse(url + "?raft.timeout=10s", null).raft().clientRegistryKey());
        assertNotEquals(plain, ConnectionSettings.parse(url + "?raft.timeout=2s", null).raft().clientRegistryKey());
        assertNotEquals(plain, ConnectionSettings.parse(url + "?readConsistency=local", null).raft().clientRegistryKey());
        assertEquals("raft://h:1,h:2/g", ConnectionSettings.parse(url + "?raft.timeout=2s", null).storeName());
    }

    @Test
    void plainUrlsHaveNoRaftPart() throws SQLException {
        assertNull(ConnectionSettings.parse("jdbc:kegdb:/var/keg", null).raft());
        assertNull(ConnectionSettings.parse("jdbc:kegdb:mem:x", null).raft());
    }

    @Test
    void incompleteOrMisplacedRaftOptionsAreRejected() {
        assertEquals("08001", assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:raft://h:1", null)).getSQLState());
        assertEquals("HY024", assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:/d?raft.group=g&raft.self=h:1", null)).getSQLState());
        assertEquals("HY024", assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:raft://h:1/g?raft.self=h:2", null)).getSQLState());
        assertEquals("HY024", assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:/d?readConsistency=local", null)).getSQLState());
        assertEquals("HY024", assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:raft://h:1/g?readConsistency=sometimes", null)).getSQLState());
        assertEquals("HY024", assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:mem:x?raft.group=g&raft.self=h:1&raft.peers=h:1", null))
                .getSQLState());
    }

    @Test
    void sslOptionsUsePgjdbcNamesAndNeedTheCa(@TempDir Path dir) throws Exception {
        Path ca = Files.writeString(dir.resolve("ca.crt"), "x");
        Path cert = Files.writeString(dir.resolve("alice.crt"), "x");
        Path key = Files.writeString(dir.resolve("alice.key"), "x");
        RaftSettings r = ConnectionSettings.parse("jdbc:kegdb:raft://h:1/g?ssl=true&sslrootcert=" + ca
                + "&sslcert=" + cert + "&sslkey=" + key, null).raft();
        assertEquals(ca, r.tls().ca());
        assertEquals(cert, r.tls().cert());
        assertEquals(key, r.tls().key());
        // connections with other credentials do not share a client
        RaftSettings anonymous = ConnectionSettings.parse("jdbc:kegdb:raft://h:1/g?ssl=true&sslrootcert=" + ca, null)
                .raft();
        assertNull(anonymous.tls().cert());
        assertNotEquals(r.clientRegistryKey(), anonymous.clientRegistryKey());
        assertNull(ConnectionSettings.parse("jdbc:kegdb:raft://h:1/g?ssl=false", null).raft().tls());

        assertEquals("HY024", assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:raft://h:1/g?ssl=true", null)).getSQLState());
        assertEquals("HY024", assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:raft://h:1/g?sslrootcert=" + ca, null)).getSQLState());
        assertEquals("HY024", assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:/d?ssl=true&sslrootcert=" + ca, null)).getSQLState());
        assertEquals("08001", assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:raft://h:1/g?ssl=true&sslrootcert=" + dir.resolve("none"),
                        null)).getSQLState());
        assertEquals("08001", assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:raft://h:1/g?ssl=true&sslrootcert=" + ca + "&sslcert=" + cert,
                        null)).getSQLState());
        // a member presents a node certificate: it needs sslcert and sslkey
        assertEquals("08001", assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:" + dir.resolve("m") + "?raft.group=g&raft.self=h:1"
                        + "&raft.peers=h:1&ssl=true&sslrootcert=" + ca, null)).getSQLState());
        assertEquals(cert, ConnectionSettings.parse("jdbc:kegdb:" + dir.resolve("m") + "?raft.group=g&raft.self=h:1"
                + "&raft.peers=h:1&ssl=true&sslrootcert=" + ca + "&sslcert=" + cert + "&sslkey=" + key, null)
                .raft().tls().cert());
    }
}
