package io.kegdb.tests.diskfull;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.DiskFullException;
import io.kegdb.engine.Durability;
import io.kegdb.engine.WriteBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Writes into a real, tiny filesystem until it is full: the failing write reports a {@link DiskFullException}
 * (never a fault inside the memory mapping, which would kill the JVM), everything acknowledged stays
 * readable, the store closes and reopens, and writes go on once space is freed. The same through JDBC,
 * where the failing statement gets SQLState 53100 and the connection stays usable.
 */
class DiskFullTest {

    private static final int VALUE_SIZE = 1000;
    private static final int MAX_WRITES = 20_000;

    @TempDir
    Path tmp;

    @Test
    void engineWritesFailCleanlyWhenTheDiskIsFullAndResumeOnceSpaceIsFreed() throws Exception {
        try (TinyFilesystem fs = TinyFilesystem.mount(tmp.resolve("fs"), 4096)) {
            Path ballast = fs.ballast("ballast", 512 << 10);
            Path dir = fs.dir().resolve("db");
            BitcaskOptions opts = BitcaskOptions.builder().segmentSize(256 << 10).mergeInterval(Duration.ZERO).build();
            int acked;
            try (Bitcask db = Bitcask.open(dir, opts)) {
                acked = fillUntilFull(db, 0);
                assertTrue(acked > 1000, "a 4 MiB filesystem took only " + acked + " writes");
                System.out.printf("disk full (engine): %d SYNC puts of %d B acknowledged on a 4 MiB tmpfs before"
                        + " the first DiskFullException%n", acked, VALUE_SIZE);
                assertAllReadable(db, acked);
                // A batch fails whole, a delete fails, the store still reads.
                WriteBatch batch = new WriteBatch().put(key(-1), value(-1)).put(key(-2), value(-2));
                assertDiskFull(assertThrows(UncheckedIOException.class, () -> db.write(batch, Durability.SYNC)));
                assertNull(db.get(key(-1)));
                assertAllReadable(db, acked);
                // A merge needs room for its output: it fails or does nothing, and changes no data.
                try {
                    db.merge();
                } catch (IOException expected) {
                    assertInstanceOf(DiskFullException.class, expected, expected.toString());
                }
                assertAllReadable(db, acked);
            }
            try (Bitcask db = Bitcask.open(dir, opts)) {
                assertAllReadable(db, acked);
                acked = fillUntilFull(db, acked);
                Files.delete(ballast);
                for (int i = acked; i < acked + 200; i++) {
                    db.put(key(i), value(i), Durability.SYNC);
                }
                acked += 200;
                assertAllReadable(db, acked);
            }
            try (Bitcask db = Bitcask.open(dir, opts)) {
                assertAllReadable(db, acked);
            }
        }
    }

    @Test
    void backupOntoAFullTargetFailsAndLeavesNoPartialCopy() throws Exception {
        try (TinyFilesystem fs = TinyFilesystem.mount(tmp.resolve("fs"), 512)) {
            Path dir = tmp.resolve("db");
            BitcaskOptions opts = BitcaskOptions.builder().segmentSize(128 << 10).mergeInterval(Duration.ZERO).build();
            try (Bitcask db = Bitcask.open(dir, opts)) {
                int n = 1500;
                for (int i = 0; i < n; i++) {
                    db.put(key(i), value(i), Durability.NO_SYNC);
                }
                Path target = fs.dir().resolve("backup");
                IOException e = assertThrows(IOException.class, () -> db.backup(target));
                assertInstanceOf(DiskFullException.class, e, e.toString());
                try (Stream<Path> left = Files.list(target)) {
                    assertEquals(0, left.count(), "a failed backup left files behind");
                }
                db.put(key(n), value(n), Durability.SYNC);
                assertAllReadable(db, n + 1);
                fs.resize(8192);
                db.backup(target);
                try (Bitcask copy = Bitcask.open(target, opts)) {
                    assertAllReadable(copy, n + 1);
                }
            }
        }
    }

    @Test
    void jdbcInsertGetsDiskFullStateAndTheConnectionStaysUsable() throws Exception {
        try (TinyFilesystem fs = TinyFilesystem.mount(tmp.resolve("fs"), 4096)) {
            Path ballast = fs.ballast("ballast", 512 << 10);
            String url = "jdbc:kegdb:" + fs.dir().resolve("db") + "?segmentSize=256k&mergeInterval=0";
            String pad = "x".repeat(VALUE_SIZE);
            int acked = 0;
            try (Connection c = DriverManager.getConnection(url);
                 Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE T (ID BIGINT PRIMARY KEY, V VARCHAR)");
                SQLException full = null;
                try (PreparedStatement ins = c.prepareStatement("INSERT INTO T VALUES (?, ?)")) {
                    for (int i = 0; i < MAX_WRITES && full == null; i++) {
                        ins.setLong(1, i);
                        ins.setString(2, pad);
                        try {
                            ins.executeUpdate();
                            acked++;
                        } catch (SQLException e) {
                            full = e;
                        }
                    }
                    assertNotNull(full, "the filesystem never filled up");
                    assertEquals("53100", full.getSQLState(), full.toString());
                    System.out.printf("disk full (JDBC): %d INSERTs committed on a 4 MiB tmpfs, then SQLState %s: %s%n",
                            acked, full.getSQLState(), full.getMessage());
                    assertEquals(acked, count(s), "the failed INSERT changed the table");
                    // An explicit transaction fails at commit, whole, and the connection goes on.
                    c.setAutoCommit(false);
                    for (int i = 0; i < 3; i++) {
                        ins.setLong(1, MAX_WRITES + i);
                        ins.setString(2, pad);
                        ins.executeUpdate();
                    }
                    SQLException commit = assertThrows(SQLException.class, c::commit);
                    assertEquals("53100", commit.getSQLState(), commit.toString());
                    c.rollback();
                    c.setAutoCommit(true);
                    assertEquals(acked, count(s));
                    Files.delete(ballast);
                    for (int i = 0; i < 50; i++) {
                        ins.setLong(1, acked);
                        ins.setString(2, pad);
                        ins.executeUpdate();
                        acked++;
                    }
                }
                assertEquals(acked, count(s));
            }
            try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
                assertEquals(acked, count(s), "rows after reopening");
            }
        }
    }

    /** SYNC puts of keys {@code from, from+1, ...} until the disk is full; returns the next unwritten index. */
    private static int fillUntilFull(Bitcask db, int from) {
        for (int i = from; i < from + MAX_WRITES; i++) {
            try {
                db.put(key(i), value(i), Durability.SYNC);
            } catch (UncheckedIOException e) {
                assertDiskFull(e);
                assertNull(db.get(key(i)), "a failed put is visible");
                return i;
            }
        }
        throw new AssertionError("the filesystem never filled up in " + MAX_WRITES + " writes");
    }

    private static void assertDiskFull(UncheckedIOException e) {
        assertInstanceOf(DiskFullException.class, e.getCause(), e.toString());
        assertTrue(e.getMessage().contains("no space left"), e.getMessage());
    }

    private static void assertAllReadable(Bitcask db, int n) {
        for (int i = 0; i < n; i++) {
            assertArrayEquals(value(i), db.get(key(i)), "acknowledged key " + i);
        }
    }

    private static int count(Statement s) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM T")) {
            rs.next();
            return rs.getInt(1);
        }
    }

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i) {
        byte[] v = new byte[VALUE_SIZE];
        Arrays.fill(v, (byte) ('a' + Math.floorMod(i, 26)));
        return v;
    }
}
