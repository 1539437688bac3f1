package io.kegdb.jdbc;

import io.kegdb.engine.Durability;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConnectionSettingsTest {

    @Test
    void directoryUrlIsAbsoluteAndDefaultsToSync() throws SQLException {
        ConnectionSettings s = ConnectionSettings.parse("jdbc:kegdb:some/dir", null);
        assertEquals(Path.of("some/dir").toAbsolutePath().normalize(), s.directory());
        assertNull(s.memoryName());
        assertEquals(Durability.SYNC, s.durability());
        assertFalse(s.readOnly());
        assertTrue(s.explicitEngine().isEmpty());
    }

    @Test
    void memoryUrlNamesTheStore() throws SQLException {
        ConnectionSettings s = ConnectionSettings.parse("jdbc:kegdb:mem:orders?durability=nosync", null);
        assertTrue(s.inMemory());
        assertEquals("orders", s.memoryName());
        assertEquals(Durability.NO_SYNC, s.durability());
    }

    @Test
    void urlOptionsReachTheEngineOptions() throws SQLException {
        ConnectionSettings s = ConnectionSettings.parse(
                "jdbc:kegdb:/tmp/x?segmentSize=64m&mergeInterval=30s&mergeMinFiles=3&mergeGarbageRatio=0.25"
                        + "&maxOpenFiles=16&repair=true&readOnly=true&maxKeySize=1k&maxValueSize=4096", null);
        assertEquals(64L << 20, s.engineOptions().segmentSize());
        assertEquals(Duration.ofSeconds(30), s.engineOptions().mergeInterval());
        assertEquals(3, s.engineOptions().mergeMinFiles());
        assertEquals(0.25, s.engineOptions().mergeGarbageRatio());
        assertEquals(16, s.engineOptions().maxOpenFiles());
        assertEquals(1024, s.engineOptions().maxKeySize());
        assertEquals(4096, s.engineOptions().maxValueSize());
        assertTrue(s.engineOptions().repair());
        assertTrue(s.engineOptions().readOnly());
        assertTrue(s.readOnly());
    }

    @Test
    void propertiesWorkLikeUrlOptionsAndNamesAreCaseInsensitive() throws SQLException {
        Properties p = new Properties();
        p.setProperty("DURABILITY", "nosync");
        p.setProperty("mergeinterval", "PT1H");
        p.setProperty("user", "sa");
        p.setProperty("password", "");
        ConnectionSettings s = ConnectionSettings.parse("jdbc:kegdb:mem:p", p);
        assertEquals(Durability.NO_SYNC, s.durability());
        assertEquals(Duration.ofHours(1), s.engineOptions().mergeInterval());
        assertEquals("sa", s.user());
    }

    @Test
    void unknownOptionIsNamed() {
        SQLException e = assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:mem:x?segmentSise=1m", null));
        assertTrue(e.getMessage().contains("segmentSise"), e.getMessage());
        Properties p = new Properties();
        p.setProperty("colour", "red");
        SQLException e2 = assertThrows(SQLException.class, () -> ConnectionSettings.parse("jdbc:kegdb:mem:x", p));
        assertTrue(e2.getMessage().contains("colour"), e2.getMessage());
    }

    @Test
    void badValuesNameOptionAndValue() {
        String[][] cases = {
            {"durability=always", "durability", "always"},
            {"segmentSize=12q", "segmentSize", "12q"},
            {"segmentSize=10", "segmentSize", "10"},
            {"mergeGarbageRatio=2", "mergeGarbageRatio", "2"},
            {"mergeInterval=soon", "mergeInterval", "soon"},
            {"readOnly=yes", "readOnly", "yes"},
            {"mergeMinFiles=0", "mergeMinFiles", "0"},
        };
        for (String[] c : cases) {
            SQLException e = assertThrows(SQLException.class,
                    () -> ConnectionSettings.parse("jdbc:kegdb:mem:x?" + c[0], null), c[0]);
            assertTrue(e.getMessage().contains(c[1]) && e.getMessage().contains(c[2]), e.getMessage());
            assertFalse(e.getSQLState().startsWith("08"), "not a connection-loss state: " + e.getSQLState());
        }
    }

    @Test
    void conflictingUrlAndPropertyValuesAreRejected() {
        Properties p = new Properties();
        p.setProperty("durability", "sync");
        SQLException e = assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:mem:x?durability=nosync", p));
        assertTrue(e.getMessage().contains("durability"), e.getMessage());
    }

    @Test
    void malformedUrlsAreRejected() {
        assertThrows(SQLException.class, () -> ConnectionSettings.parse("jdbc:kegdb:", null));
        assertThrows(SQLException.class, () -> ConnectionSettings.parse("jdbc:kegdb:mem:", null));
        assertThrows(SQLException.class, () -> ConnectionSettings.parse("jdbc:kegdb:mem:x?novalue", null));
        assertThrows(SQLException.class, () -> ConnectionSettings.parse("jdbc:h2:mem:x", null));
        assertThrows(SQLException.class, () -> ConnectionSettings.parse("jdbc:kegdb:mem:x?durability=%zz", null));
    }

    @Test
    void acceptsOnlyKegdbUrls() {
        assertTrue(ConnectionSettings.accepts("jdbc:kegdb:/data"));
        assertTrue(ConnectionSettings.accepts("JDBC:KEGDB:mem:a"));
        assertFalse(ConnectionSettings.accepts("jdbc:sqlite:x"));
        assertFalse(ConnectionSettings.accepts(null));
    }

    @Test
    void byteSizesAndDurationsParse() {
        assertEquals(4096, ConnectionOption.parseBytes("4096"));
        assertEquals(64L << 10, ConnectionOption.parseBytes("64k"));
        assertEquals(1L << 30, ConnectionOption.parseBytes("1g"));
        assertEquals(256L << 20, ConnectionOption.parseBytes("256MB"));
        assertEquals(Duration.ZERO, ConnectionOption.parseDuration("0"));
        assertEquals(Duration.ofMillis(250), ConnectionOption.parseDuration("250ms"));
        assertEquals(Duration.ofMinutes(10), ConnectionOption.parseDuration("10m"));
        assertEquals(Duration.ofDays(1), ConnectionOption.parseDuration("1d"));
        assertEquals(Duration.ofMinutes(5), ConnectionOption.parseDuration("PT5M"));
    }

    @Test
    void messagesAboutAUrlNeverShowItsPassword() throws SQLException {
        SQLException noValue = assertThrows(SQLException.class, () -> ConnectionSettings.parse(
                "jdbc:kegdb:raft://127.0.0.1:1/g?user=alice&password=s3cret-pw&ssl", null));
        assertFalse(noValue.getMessage().contains("s3cret-pw"), noValue.getMessage());
        assertTrue(noValue.getMessage().contains("password=***"), noValue.getMessage());
        SQLException noDirectory = assertThrows(SQLException.class,
                () -> ConnectionSettings.parse("jdbc:kegdb:?PASSWORD=s3cret-pw", null));
        assertFalse(noDirectory.getMessage().contains("s3cret-pw"), noDirectory.getMessage());
        ConnectionSettings s = ConnectionSettings.parse("jdbc:kegdb:mem:x?password=s3cret-pw&user=alice", null);
        assertFalse(s.toString().contains("s3cret-pw"), s.toString());
    }
}
