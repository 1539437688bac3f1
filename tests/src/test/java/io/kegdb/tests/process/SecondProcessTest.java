package io.kegdb.tests.process;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.tests.support.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.*;

/**
 * One owner per directory across processes, however each side opens it (engine, read-only engine, JDBC):
 * the second is refused with an error saying the directory is in use, every time; a killed owner leaves no
 * stale lock.
 */
class SecondProcessTest {

    private static final int ATTEMPTS = 3;

    @TempDir
    Path tmp;

    @Test
    @SuppressWarnings("try") // the store is held open, unused, so that a child finds it locked
    void secondProcessIsRefusedAndKilledOwnerLeavesNoStaleLock() throws Exception {
        Path dir = tmp.resolve("db");
        try (ChildProcess holder = ChildProcess.start(StoreHolderChild.class, tmp.resolve("holder.log"), dir.toString())) {
            holder.awaitLine("OPEN", 30_000);
            assertRefusedHere(dir);
            holder.kill();
        }
        // The lock died with its owner: this process can open now, and then refuses a child.
        try (Bitcask db = Bitcask.open(dir)) {
            assertChildRefused(dir, "engine");
            assertChildRefused(dir, "jdbc");
        }
    }

    @Test
    void jdbcOwnerRefusesOthersAndItsKillFreesTheDirectory() throws Exception {
        Path dir = tmp.resolve("db");
        try (ChildProcess holder = ChildProcess.start(StoreHolderChild.class, tmp.resolve("holder.log"), dir.toString(),
                "jdbc")) {
            holder.awaitLine("OPEN", 60_000);
            assertRefusedHere(dir);
            holder.kill();
        }
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:" + dir);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT V FROM KV WHERE K = 'held'")) {
            assertTrue(rs.next(), "the holder's autocommitted row is gone");
            assertEquals("by the holder", rs.getString(1));
            assertChildRefused(dir, "engine");
            assertChildRefused(dir, "jdbc");
        }
    }

    /** While another process owns {@code dir}: every way of opening it here is refused, every time. */
    private static void assertRefusedHere(Path dir) {
        for (int i = 0; i < ATTEMPTS; i++) {
            IOException e = assertThrows(IOException.class, () -> Bitcask.open(dir));
            assertTrue(e.getMessage().contains("in use by another process"), e.getMessage());
            IOException ro = assertThrows(IOException.class,
                    () -> Bitcask.open(dir, BitcaskOptions.builder().readOnly(true).build()));
            assertTrue(ro.getMessage().contains("in use by another process"), ro.getMessage());
            SQLException sql = assertThrows(SQLException.class,
                    () -> DriverManager.getConnection("jdbc:kegdb:" + dir).close());
            assertEquals("08001", sql.getSQLState(), sql.toString());
            assertTrue(sql.getMessage().contains("in use by another process"), sql.getMessage());
        }
    }

    private void assertChildRefused(Path dir, String mode) throws Exception {
        try (ChildProcess second = ChildProcess.start(StoreHolderChild.class, tmp.resolve("second-" + mode + ".log"),
                dir.toString(), mode)) {
            String line = second.nextLine(60_000);
            assertNotNull(line, mode + " child printed nothing");
            assertTrue(line.startsWith("REFUSED") && line.contains("in use by another process"), line);
            if (mode.equals("jdbc")) {
                assertTrue(line.startsWith("REFUSED 08001 "), line);
            }
            assertEquals(0, second.waitFor(60_000));
        }
    }
}
