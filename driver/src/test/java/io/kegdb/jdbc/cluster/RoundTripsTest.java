package io.kegdb.jdbc.cluster;

import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftNodeOptions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.management.MBeanServer;
import javax.management.ObjectName;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The round trips SQL pays on a three-node cluster, counted exactly: the requests the thin client sent to the
 * nodes ({@code kegdb.raft.client.requests}, read through the store's MBean) around each statement. A statement
 * costs the reads and writes it needs, no more: a batched INSERT no read per row, a statement sent as text what
 * its prepared form costs, an autocommitted UPDATE by key one conditional write.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RoundTripsTest {

    private static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();
    private static final List<RaftNode> NODES = new ArrayList<>();
    private static String url;
    private static Connection keepOpen;

    @TempDir
    static Path dir;

    @BeforeAll
    static void startCluster() throws IOException, SQLException {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                addresses.add("127.0.0.1:" + s.getLocalPort());
            }
        }
        String peers = String.join(",", addresses);
        for (int i = 0; i < 3; i++) {
            NODES.add(RaftNode.start(RaftNodeOptions.builder().dir(dir.resolve("node-" + i)).group("trips")
                    .self(addresses.get(i)).peers(peers).electionTimeoutMs(600)
                    .requestTimeout(Duration.ofSeconds(20)).build()));
        }
        url = "jdbc:kegdb:raft://" + peers + "/trips";
        keepOpen = DriverManager.getConnection(url);
        try (Statement s = keepOpen.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR)");
            s.executeUpdate("INSERT INTO t VALUES (1, 'one')");
        }
    }

    @AfterAll
    static void stopCluster() throws SQLException {
        keepOpen.close();
        NODES.forEach(RaftNode::close);
    }

    /** Requests the thin client store of {@link #url} has sent so far. */
    private static long requests() throws Exception {
        Set<ObjectName> names = SERVER.queryNames(new ObjectName("io.kegdb:type=Store,*"), null);
        long total = 0;
        int found = 0;
        for (ObjectName n : names) {
            if (n.getKeyProperty("name").contains("/trips")) {
                total += ((Double) SERVER.getAttribute(n, "raft.client.requests")).longValue();
                found++;
            }
        }
        assertEquals(1, found, "one thin client store: " + names);
        return total;
    }

    /** The round trips {@code work} cost. */
    private static long tripsOf(SqlWork work) throws Exception {
        long before = requests();
        work.run();
        return requests() - before;
    }

    @FunctionalInterface
    private interface SqlWork {
        void run() throws SQLException;
    }

    @Test
    void aTransactionOfBatchedInsertsIsOneRoundTrip() throws Exception {
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
            c.setAutoCommit(false);
            long trips = tripsOf(() -> {
                for (long id = 1000; id < 1100; id++) {
                    insert.setLong(1, id);
                    insert.setString(2, "v" + id);
                    insert.addBatch();
                }
                insert.executeBatch();
                c.commit();
            });
            assertEquals(1, trips, "the commit only, no read per row");
            assertEquals(100, count(c, "SELECT COUNT(*) FROM t WHERE id >= 1000 AND id < 1100"));
            c.commit();
        }
    }

    @Test
    void aDuplicateInABatchFailsTheCommitWith23505AndWritesNothing() throws Exception {
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
            c.setAutoCommit(false);
            for (long id : new long[] {2000, 1, 2001}) {
                insert.setLong(1, id);
                insert.setString(2, "x");
                insert.addBatch();
            }
            insert.executeBatch();
            SQLException e = assertThrows(SQLException.class, c::commit);
            assertEquals("23505", e.getSQLState());
            assertTrue(e.getMessage().contains("ID = 1"), e.getMessage());
            assertEquals(0, count(c, "SELECT COUNT(*) FROM t WHERE id >= 2000 AND id < 2002"));
            c.commit();
        }
    }

    @Test
    void aStatementSentAsTextCostsWhatItsPreparedFormCosts() throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement();
             PreparedStatement select = c.prepareStatement("SELECT v FROM t WHERE id = ?");
             PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
            s.executeQuery("SELECT v FROM t WHERE id = 1").close(); // plans and caches once
            assertEquals(1, tripsOf(() -> {
                try (ResultSet rs = s.executeQuery("SELECT v FROM t WHERE id = 1")) {
                    assertTrue(rs.next());
                }
            }), "a point SELECT as text");
            assertEquals(1, tripsOf(() -> {
                select.setLong(1, 1);
                try (ResultSet rs = select.executeQuery()) {
                    assertTrue(rs.next());
                }
            }), "a prepared point SELECT");
            assertEquals(1, tripsOf(() -> s.executeUpdate("INSERT INTO t VALUES (3000, 'text')")),
                    "an INSERT as text");
            assertEquals(1, tripsOf(() -> {
                insert.setLong(1, 3001);
                insert.setString(2, "prepared");
                insert.executeUpdate();
            }), "a prepared INSERT");
            assertEquals(1, tripsOf(() -> s.executeUpdate("INSERT INTO t VALUES (3002, 'a'), (3003, 'b')")),
                    "a multi-row INSERT as text");
        }
    }

    @Test
    void anAutocommittedUpdateByKeyIsOneConditionalWrite() throws Exception {
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement update = c.prepareStatement("UPDATE t SET v = ? WHERE id = ?")) {
            c.createStatement().executeUpdate("INSERT INTO t VALUES (4000, 'old')");
            int[] counts = new int[2];
            long trips = tripsOf(() -> {
                update.setString(1, "new");
                update.setLong(2, 4000);
                counts[0] = update.executeUpdate();
                update.setLong(2, 4001);
                counts[1] = update.executeUpdate();
            });
            assertEquals(2, trips, "one write each");
            assertEquals(1, counts[0]);
            assertEquals(0, counts[1], "no such row");
            assertEquals(0, count(c, "SELECT COUNT(*) FROM t WHERE id = 4001"), "and none made");
            try (ResultSet rs = c.createStatement().executeQuery("SELECT v FROM t WHERE id = 4000")) {
                assertTrue(rs.next());
                assertEquals("new", rs.getString(1));
            }
        }
    }

    @Test
    void ddlOfAnotherClientIsNoticedByTextAndPreparedStatements() throws Exception {
        try (Connection a = DriverManager.getConnection(url); Statement sa = a.createStatement()) {
            sa.executeUpdate("CREATE TABLE moving (id BIGINT PRIMARY KEY, v VARCHAR)");
            sa.executeUpdate("INSERT INTO moving VALUES (1, 'first')");
            // Another process: its own client store and catalog.
            try (Connection b = DriverManager.getConnection(url + "?raft.timeout=19s");
                 PreparedStatement select = a.prepareStatement("SELECT v FROM moving WHERE id = 1");
                 PreparedStatement insert = a.prepareStatement("INSERT INTO moving VALUES (?, 'x')")) {
                try (Statement sb = b.createStatement()) {
                    sb.executeUpdate("DROP TABLE moving");
                    sb.executeUpdate("CREATE TABLE moving (id BIGINT PRIMARY KEY, v VARCHAR)");
                    sb.executeUpdate("INSERT INTO moving VALUES (1, 'second')");
                }
                try (ResultSet rs = sa.executeQuery("SELECT v FROM moving WHERE id = 1")) {
                    assertTrue(rs.next());
                    assertEquals("second", rs.getString(1), "the text statement planned again");
                }
                try (ResultSet rs = select.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals("second", rs.getString(1), "the prepared statement planned again");
                }
                try (Statement sb = b.createStatement()) {
                    sb.executeUpdate("DROP TABLE moving");
                    sb.executeUpdate("CREATE TABLE moving (id BIGINT PRIMARY KEY, v VARCHAR)");
                }
                insert.setLong(1, 7);
                assertEquals(1, insert.executeUpdate(), "written to the new table, not the dropped one");
                try (Statement sb = b.createStatement(); ResultSet rs = sb.executeQuery("SELECT COUNT(*) FROM moving")) {
                    assertTrue(rs.next());
                    assertEquals(1, rs.getLong(1));
                }
            }
        }
    }

    /**
     * Keys read in bulk are one request: an IN list of 50 keys one multi-get, a lookup join over 100 outer rows
     * one scan of the outer range and one multi-get of the keys its rows name (not a get per row).
     */
    @Test
    void anInListAndALookupJoinReadTheirKeysInOneRoundTrip() throws Exception {
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE refs (id BIGINT PRIMARY KEY, target BIGINT)");
            c.setAutoCommit(false);
            try (PreparedStatement insert = c.prepareStatement("INSERT INTO t VALUES (?, ?)");
                 PreparedStatement ref = c.prepareStatement("INSERT INTO refs VALUES (?, ?)")) {
                for (long id = 5000; id < 5100; id++) {
                    insert.setLong(1, id);
                    insert.setString(2, "v" + id);
                    insert.addBatch();
                    ref.setLong(1, id - 5000);
                    ref.setLong(2, id);
                    ref.addBatch();
                }
                insert.executeBatch();
                ref.executeBatch();
            }
            c.commit();
            c.setAutoCommit(true);

            StringBuilder in = new StringBuilder();
            for (long id = 5000; id < 5100; id += 2) {
                in.append(in.length() == 0 ? "" : ", ").append(id);
            }
            String inList = "SELECT id, v FROM t WHERE id IN (" + in + ") ORDER BY id";
            s.executeQuery(inList).close(); // plans and caches once
            int[] rows = {0};
            assertEquals(1, tripsOf(() -> {
                try (ResultSet rs = s.executeQuery(inList)) {
                    while (rs.next()) {
                        rows[0]++;
                    }
                }
            }), "50 keys, one multi-get");
            assertEquals(50, rows[0]);

            String join = "SELECT refs.id, t.v FROM refs LEFT JOIN t ON refs.target = t.id"
                    + " WHERE refs.id BETWEEN 0 AND 99 ORDER BY refs.id";
            try (ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + join)) {
                assertTrue(rs.next());
                assertTrue(rs.getString(1).contains("KvLookupJoin(table=[[PUBLIC, T]]"), rs.getString(1));
            }
            s.executeQuery(join).close();
            List<String> values = new ArrayList<>();
            assertEquals(2, tripsOf(() -> {
                try (ResultSet rs = s.executeQuery(join)) {
                    while (rs.next()) {
                        values.add(rs.getString(2));
                    }
                }
            }), "one scan of refs, one multi-get of t");
            assertEquals(100, values.size());
            assertEquals("v5000", values.get(0));
            assertEquals("v5099", values.get(99));
        }
    }

    private static long count(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }
}
