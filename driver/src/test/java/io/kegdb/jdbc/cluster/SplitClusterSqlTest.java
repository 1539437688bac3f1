package io.kegdb.jdbc.cluster;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.raft.RangeHost;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SQL over a cluster whose table spans two ranges (three {@link RangeHost}s in this JVM, range 1 split in the
 * middle of table T's keys): the raft URL reaches both ranges through any listed node; whole-table, point, range
 * and COUNT queries see every row, an INSERT lands in either range, and one INSERT of rows in both ranges is
 * refused with 0A000, writing nothing.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SplitClusterSqlTest {

    private static final String NAME = "split";
    private static final String RIGHT = NAME + "_r2";
    private static final int ROWS = 100;
    /** T's rows with K below it stay in range 1; the others move to range 2. */
    private static final int SPLIT_ROW = 51;

    @TempDir
    static Path dir;

    private static final List<String> addresses = new ArrayList<>();
    private static final List<RangeHost> hosts = new ArrayList<>();
    private static String url;

    @BeforeAll
    static void startAndSplit() throws Exception {
        for (int i = 0; i < 3; i++) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                addresses.add("127.0.0.1:" + s.getLocalPort());
            }
        }
        String peers = String.join(",", addresses);
        for (int i = 0; i < 3; i++) {
            RangeHost host = RangeHost.start(addresses.get(i), dir.resolve("host-" + i));
            host.host(NAME, peers, 600);
            hosts.add(host);
        }
        url = "jdbc:kegdb:raft://" + peers + "/" + NAME;
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR)");
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                for (int k = 1; k <= ROWS; k++) {
                    insert.setLong(1, k);
                    insert.setString(2, "v" + k);
                    insert.addBatch();
                }
                insert.executeBatch();
            }
        }
        RangeHost leader = leaderOf(NAME);
        byte[] at = storeKeyOfRow(leader, SPLIT_ROW);
        leader.split(NAME, at);
        for (RangeHost h : hosts) {
            await(() -> h.groups().contains(RIGHT), h + " hosts range 2");
        }
        assertEquals(ROWS - SPLIT_ROW + 1, leaderOf(RIGHT).store(RIGHT).countKeys(at, null),
                "range 2's own group holds T's upper rows");
    }

    @AfterAll
    static void stop() {
        hosts.forEach(RangeHost::close);
    }

    /** The store key of T's row number {@code row} (1-based in key order): T's keys are the only ones past keyspace 0. */
    private static byte[] storeKeyOfRow(RangeHost host, int row) {
        try (KvIterator it = host.store(NAME).scan(new byte[]{0, 0, 0, 1}, null)) {
            for (int i = 1; it.hasNext(); i++) {
                KeyValue kv = it.next();
                if (i == row) {
                    return kv.key();
                }
            }
        }
        throw new AssertionError("T has fewer than " + row + " rows");
    }

    private static RangeHost leaderOf(String group) throws InterruptedException {
        await(() -> hosts.stream().filter(h -> h.isLeader(group)).count() == 1, group + " has a leader");
        return hosts.stream().filter(h -> h.isLeader(group)).findFirst().orElseThrow();
    }

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    private static List<Long> keys(Connection c, String sql) throws SQLException {
        List<Long> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getLong(1));
            }
        }
        return out;
    }

    private static List<Long> range(long from, long to) {
        List<Long> out = new ArrayList<>();
        for (long k = from; k <= to; k++) {
            out.add(k);
        }
        return out;
    }

    @Test
    @Order(1)
    void everyQueryShapeSeesTheRowsOfBothRanges() throws SQLException {
        try (Connection c = DriverManager.getConnection(url)) {
            assertEquals(range(1, ROWS), keys(c, "SELECT k FROM t"), "a whole-table scan, in key order");
            assertEquals(range(1, ROWS), keys(c, "SELECT k FROM t ORDER BY k"));
            List<Long> descending = range(1, ROWS);
            java.util.Collections.reverse(descending);
            assertEquals(descending, keys(c, "SELECT k FROM t ORDER BY k DESC"));
            assertEquals(range(45, 55), keys(c, "SELECT k FROM t WHERE k BETWEEN 45 AND 55"), "across the split");
            assertEquals(range(1, 3), keys(c, "SELECT k FROM t ORDER BY k LIMIT 3"));
            assertEquals(List.of(ROWS - 0L, ROWS - 1L), keys(c, "SELECT k FROM t ORDER BY k DESC LIMIT 2"));
            assertEquals(ROWS, count(c, "SELECT COUNT(*) FROM t"));
            assertEquals(11, count(c, "SELECT COUNT(*) FROM t WHERE k >= 45 AND k <= 55"));
            assertEquals(1, count(c, "SELECT MIN(k) FROM t"), "the first key of range 1");
            assertEquals(ROWS, count(c, "SELECT MAX(k) FROM t"), "the last key of range 2");
            assertEquals(SPLIT_ROW, count(c, "SELECT MIN(k) FROM t WHERE k > " + (SPLIT_ROW - 1)));
            assertEquals(List.of(10L, 75L), keys(c, "SELECT k FROM t WHERE k IN (75, 10, 1000) ORDER BY k"));
            try (PreparedStatement point = c.prepareStatement("SELECT v FROM t WHERE k = ?")) {
                for (long k : new long[]{1, SPLIT_ROW - 1, SPLIT_ROW, ROWS}) {
                    point.setLong(1, k);
                    try (ResultSet rs = point.executeQuery()) {
                        assertTrue(rs.next(), "row " + k);
                        assertEquals("v" + k, rs.getString(1));
                    }
                }
            }
            assertEquals(2, count(c, "SELECT COUNT(*) FROM sys.ranges"), "SYS.RANGES lists both ranges");
        }
    }

    @Test
    @Order(3)
    void insertsLandInEitherRangeAndOneSpanningBothIsRefusedWhole() throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            assertEquals(1, s.executeUpdate("INSERT INTO t VALUES (-5, 'left')"));
            assertEquals(1, s.executeUpdate("INSERT INTO t VALUES (500, 'right')"));
            assertEquals(List.of(-5L), keys(c, "SELECT k FROM t WHERE k < 1"));
            assertEquals(List.of(500L), keys(c, "SELECT k FROM t WHERE k > " + ROWS));
            SQLException duplicate = assertThrows(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO t VALUES (500, 'again')"));
            assertEquals("23505", duplicate.getSQLState(), duplicate.getMessage());

            SQLException across = assertThrows(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO t VALUES (-1000, 'a'), (1000, 'b')"));
            assertEquals("0A000", across.getSQLState(), across.getMessage());
            assertTrue(across.getMessage().contains("range 1") && across.getMessage().contains("range 2"),
                    across.getMessage());
            assertEquals(0, count(c, "SELECT COUNT(*) FROM t WHERE k = -1000 OR k = 1000"), "nothing was written");

            // a transaction's commit across ranges: the same refusal, nothing of it written
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO t VALUES (-2000, 'a')");
            s.executeUpdate("INSERT INTO t VALUES (2000, 'b')");
            SQLException commit = assertThrows(SQLException.class, c::commit);
            assertEquals("0A000", commit.getSQLState(), commit.getMessage());
            c.setAutoCommit(true);
            assertEquals(0, count(c, "SELECT COUNT(*) FROM t WHERE k = -2000 OR k = 2000"));
            assertFalse(keys(c, "SELECT k FROM t").contains(2000L));
        }
    }

    @Test
    @Order(4)
    void aTableCreatedAfterTheSplitLivesInRangeTwo() throws SQLException {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE u (k VARCHAR PRIMARY KEY, v BIGINT)");
            assertEquals(2, s.executeUpdate("INSERT INTO u VALUES ('a', 1), ('b', 2)"), "both rows in range 2");
            assertEquals(3, count(c, "SELECT SUM(v) FROM u"));
            s.executeUpdate("DROP TABLE u");
            assertThrows(SQLException.class, () -> count(c, "SELECT COUNT(*) FROM u"));
        }
    }

    @Test
    @Order(2)
    void anyListedNodeIsEnough() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:raft://" + addresses.get(2) + "/" + NAME)) {
            assertEquals(ROWS, count(c, "SELECT COUNT(*) FROM t WHERE k >= 1 AND k <= " + ROWS));
        }
    }
}
