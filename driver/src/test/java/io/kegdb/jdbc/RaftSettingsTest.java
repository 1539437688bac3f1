package io.kegdb.jdbc;

import io.kegdb.raft.ReadConsistency;
import org.junit.jupiter.api.Test;

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
}
