package io.kegdb.tests.cluster;

import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftNodeOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * SQL on a 3-node Raft group in this JVM: two nodes started through the raft API, this process joining as the
 * third through its embedded-member URL ({@code jdbc:kegdb:<dir>?raft.group=...}), and thin clients
 * ({@code jdbc:kegdb:raft://.../G}), linearizable and local.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterJdbcTest {

    @TempDir
    Path dir;

    private final List<Connection> open = new ArrayList<>();
    private final List<RaftNode> started = new ArrayList<>();

    @AfterEach
    void closeAll() throws SQLException {
        for (Connection c : open) {
            c.close();
        }
        for (RaftNode n : started) {
            n.close();
        }
    }

    private Connection connect(String url) throws SQLException {
        Connection c = DriverManager.getConnection(url);
        open.add(c);
        return c;
    }

    @Test
    void sqlThroughMembersAndTheThinClient() throws Exception {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodes.add("127.0.0.1:" + LoopbackPorts.free());
        }
        String peers = String.join(",", nodes);
        // Members 1 and 2 are plain nodes (public raft API); member 0 is this process joining through its JDBC URL,
        // which opens the SQL catalog and so needs the group to have a leader.
        List<RaftNode> nodes2 = new ArrayList<>();
        for (int i = 1; i < 3; i++) {
            nodes2.add(RaftNode.start(RaftNodeOptions.builder().dir(dir.resolve("node-" + i)).group("sqlgroup")
                    .self(nodes.get(i)).peers(peers).electionTimeoutMs(600).build()));
        }
        started.addAll(nodes2);
        List<Connection> m = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String url = "jdbc:kegdb:" + dir.resolve("member-" + i) + "?raft.group=sqlgroup&raft.self=" + nodes.get(i)
                    + "&raft.peers=" + peers + "&raft.electionTimeoutMs=600";
            m.add(i == 0 ? connect(url) : connect("jdbc:kegdb:raft://" + nodes.get(i) + "/sqlgroup?readConsistency=local"));
        }

        try (Statement s = m.get(0).createStatement()) {
            assertEquals(1, s.executeUpdate("INSERT INTO KV VALUES ('from-member-0', 'a')"));
        }
        try (PreparedStatement p = m.get(1).prepareStatement("INSERT INTO KV VALUES (?, ?)")) {
            p.setString(1, "from-member-1");
            p.setString(2, "b");
            assertEquals(1, p.executeUpdate());
        }
        // linearizable reads on the embedded member; the local-read clients of the other nodes catch up
        assertEquals("a", value(m.get(0), "from-member-0"));
        assertEquals("b", value(m.get(0), "from-member-1"));
        for (Connection c : m) {
            awaitValue(c, "from-member-1", "b");
        }

        Connection client = connect("jdbc:kegdb:raft://" + peers + "/sqlgroup");
        assertEquals("b", value(client, "from-member-1"));
        try (Statement s = client.createStatement()) {
            s.executeUpdate("CREATE TABLE PETS (NAME VARCHAR PRIMARY KEY, LEGS BIGINT)");
            s.executeUpdate("INSERT INTO PETS VALUES ('cat', 4), ('bird', 2)");
            SQLException dup = assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO PETS VALUES ('cat', 3)"));
            assertEquals("23505", dup.getSQLState());
            try (ResultSet rs = s.executeQuery("SELECT SUM(LEGS) FROM PETS")) {
                assertTrue(rs.next());
                assertEquals(6, rs.getLong(1));
            }
        }
        SQLException dupOnMember = assertThrows(SQLException.class,
                () -> m.get(0).createStatement().executeUpdate("INSERT INTO KV VALUES ('from-member-1', 'z')"));
        assertEquals("23505", dupOnMember.getSQLState());

        // a transaction is one log entry: all its rows appear together
        client.setAutoCommit(false);
        try (Statement s = client.createStatement()) {
            s.executeUpdate("INSERT INTO KV VALUES ('tx-1', '1')");
            s.executeUpdate("UPSERT INTO KV VALUES ('tx-2', '2')");
            assertFalse(exists(m.get(2), "tx-1"), "not visible before commit");
        }
        client.commit();
        client.setAutoCommit(true);
        assertEquals("1", value(m.get(0), "tx-1"));
        assertEquals("2", value(m.get(0), "tx-2"));

        // the embedded member leaves (its last connection closes): the other two keep the group writable
        m.get(0).close();
        try (Statement s = client.createStatement()) {
            assertEquals(1, s.executeUpdate("UPSERT INTO KV VALUES ('after-leave', 'ok')"));
        }
        assertEquals("ok", value(client, "after-leave"));
        awaitValue(m.get(1), "after-leave", "ok");
        try (ResultSet rs = client.createStatement().executeQuery("SELECT COUNT(*) FROM KV")) {
            assertTrue(rs.next());
            assertEquals(5, rs.getLong(1));
        }
    }

    /** Addresses of three nodes; nodes 1 and 2 started through the raft API, node 0 left to an embedded member. */
    private List<String> startTwoOfThree(String group) throws IOException {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodes.add("127.0.0.1:" + LoopbackPorts.free());
        }
        for (int i = 1; i < 3; i++) {
            started.add(RaftNode.start(RaftNodeOptions.builder().dir(dir.resolve(group + "-" + i)).group(group)
                    .self(nodes.get(i)).peers(String.join(",", nodes)).electionTimeoutMs(600).build()));
        }
        return nodes;
    }

    private String memberUrl(String group, List<String> nodes) {
        return "jdbc:kegdb:" + dir.resolve(group + "-0") + "?raft.group=" + group + "&raft.self=" + nodes.get(0)
                + "&raft.peers=" + String.join(",", nodes) + "&raft.electionTimeoutMs=600";
    }

    /** SYS.RAFT row by row: NODE, ROLE, TERM, LEADER, COMMIT_INDEX, APPLIED_INDEX, FIRST_LOG_INDEX, LAST_LOG_INDEX. */
    private static List<List<Object>> raftRows(Connection c) throws SQLException {
        List<List<Object>> rows = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM SYS.RAFT ORDER BY NODE")) {
            assertEquals(8, rs.getMetaData().getColumnCount());
            while (rs.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 1; i <= 8; i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }

    private static List<Object> leaderRow(List<List<Object>> rows) {
        List<List<Object>> leaders = rows.stream().filter(r -> r.get(1).equals("LEADER")).toList();
        assertEquals(1, leaders.size(), "one leader in " + rows);
        return leaders.get(0);
    }

    @Test
    void sysRaftShowsOneLeaderAndFollowsALeaderChange() throws Exception {
        List<String> nodes = startTwoOfThree("sysraft");
        Connection member = connect(memberUrl("sysraft", nodes));
        Connection client = connect("jdbc:kegdb:raft://" + String.join(",", nodes) + "/sysraft");

        List<List<Object>> rows = raftRows(client);
        assertEquals(nodes.stream().sorted().toList(), rows.stream().map(r -> r.get(0)).toList(), rows.toString());
        List<Object> leader = leaderRow(rows);
        for (List<Object> r : rows) {
            assertEquals(leader.get(2), r.get(2), "terms agree: " + rows);
            assertEquals(leader.get(0), r.get(3), "everyone names the leader: " + rows);
            assertTrue((Long) r.get(6) >= 1 && (Long) r.get(7) >= (Long) r.get(4), "log range: " + r);
        }
        assertEquals(nodes.stream().sorted().toList(), raftRows(member).stream().map(r -> r.get(0)).toList(),
                "the embedded member lists the group too");

        long commitBefore = (Long) leader.get(4);
        try (Statement s = client.createStatement()) {
            assertEquals(1, s.executeUpdate("INSERT INTO KV VALUES ('counted', '1')"));
        }
        List<Object> leaderAfter = leaderRow(raftRows(client));
        assertTrue((Long) leaderAfter.get(4) > commitBefore, "commit index advanced: " + leaderAfter);
        assertTrue((Long) leaderAfter.get(5) > commitBefore, "applied index advanced: " + leaderAfter);
        try (Statement s = member.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(DISTINCT TERM), MIN(COMMIT_INDEX) FROM SYS.RAFT")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getLong(1), "one term");
        }

        // stop the leader: the nodes still up elect another, and the table says so
        String oldLeader = (String) leaderAfter.get(0);
        long oldTerm = (Long) leaderAfter.get(2);
        int stoppedIndex = nodes.indexOf(oldLeader);
        if (stoppedIndex == 0) {
            member.close(); // the embedded member was leading: its last connection closing stops it
        } else {
            started.remove(stoppedIndex - 1).close();
        }
        Connection survivor = stoppedIndex == 0 ? client : member;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        List<List<Object>> after;
        while (true) {
            after = raftRows(survivor);
            List<List<Object>> leaders = after.stream().filter(r -> r.get(1).equals("LEADER")).toList();
            if (leaders.size() == 1 && !leaders.get(0).get(0).equals(oldLeader)) {
                break;
            }
            assertTrue(System.nanoTime() < deadline, "no new leader in " + after);
            Thread.sleep(100);
        }
        List<Object> newLeader = leaderRow(after);
        assertTrue((Long) newLeader.get(2) > oldTerm, "a later term: " + after);
        List<Object> gone = after.stream().filter(r -> r.get(0).equals(oldLeader)).findFirst().orElseThrow();
        assertEquals("UNREACHABLE", gone.get(1), after.toString());
        assertEquals(Arrays.asList(null, null, null, null, null, null), gone.subList(2, 8));
        try (Statement s = survivor.createStatement()) {
            assertEquals(1, s.executeUpdate("INSERT INTO KV VALUES ('after-failover', '1')"));
        }
    }

    @Test
    void tablesCreatedThroughOneClientAreSeenByTheOthers() throws Exception {
        List<String> nodes = startTwoOfThree("ddl");
        // three stores in this JVM, each with its own catalog, as three processes would have
        Connection member = connect(memberUrl("ddl", nodes));
        Connection a = connect("jdbc:kegdb:raft://" + String.join(",", nodes) + "/ddl");
        Connection b = connect("jdbc:kegdb:raft://" + nodes.get(2) + "/ddl");
        for (Connection c : List.of(member, a, b)) {
            assertEquals(1, c.createStatement().executeUpdate("UPSERT INTO KV VALUES ('warm', 'catalog read')"));
        }

        try (Statement s = a.createStatement()) {
            s.executeUpdate("CREATE TABLE PETS (NAME VARCHAR PRIMARY KEY, LEGS BIGINT)");
            s.executeUpdate("INSERT INTO PETS VALUES ('cat', 4)");
        }
        for (Connection c : List.of(member, b)) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT LEGS FROM PETS WHERE NAME = 'cat'")) {
                assertTrue(rs.next());
                assertEquals(4, rs.getLong(1));
            }
            try (ResultSet rs = c.getMetaData().getTables(null, "PUBLIC", "PETS", null)) {
                assertTrue(rs.next(), "metadata lists the new table");
            }
        }
        try (PreparedStatement p = b.prepareStatement("INSERT INTO PETS VALUES (?, ?)")) {
            p.setString(1, "bird");
            p.setLong(2, 2);
            assertEquals(1, p.executeUpdate());
        }
        try (ResultSet rs = member.createStatement().executeQuery("SELECT SUM(LEGS) FROM PETS")) {
            assertTrue(rs.next());
            assertEquals(6, rs.getLong(1));
        }

        member.createStatement().executeUpdate("DROP TABLE PETS");
        for (Connection c : List.of(a, b)) {
            SQLException e = assertThrows(SQLException.class, () -> c.createStatement().executeQuery("SELECT * FROM PETS"));
            assertEquals("42S02", e.getSQLState());
        }
        // tables created through two different catalogs get distinct ids
        b.createStatement().executeUpdate("CREATE TABLE T1 (K VARCHAR PRIMARY KEY, V VARCHAR)");
        a.createStatement().executeUpdate("CREATE TABLE T2 (K VARCHAR PRIMARY KEY, V VARCHAR)");
        try (ResultSet rs = member.createStatement().executeQuery(
                "SELECT COUNT(DISTINCT TABLE_ID), COUNT(*) FROM SYS.TABLES")) {
            assertTrue(rs.next());
            assertEquals(rs.getLong(2), rs.getLong(1));
            assertEquals(3, rs.getLong(2), "KV, T1, T2");
        }
    }

    @Test
    void anUnreachableGroupFailsWithAConnectionState() throws Exception {
        long start = System.nanoTime();
        SQLException e = assertThrows(SQLException.class, () -> connect(
                "jdbc:kegdb:raft://127.0.0.1:" + LoopbackPorts.free() + "/nobody?raft.timeout=1s"));
        assertEquals("08006", e.getSQLState(), e.toString());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(30), "bounded by raft.timeout");
        SQLException bad = assertThrows(SQLException.class, () -> connect("jdbc:kegdb:raft://127.0.0.1:1"));
        assertEquals("08001", bad.getSQLState());
        SQLException half = assertThrows(SQLException.class,
                () -> connect("jdbc:kegdb:" + dir.resolve("x") + "?raft.group=g"));
        assertEquals("HY024", half.getSQLState());
    }

    private static String value(Connection c, String key) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT V FROM KV WHERE K = ?")) {
            p.setString(1, key);
            try (ResultSet rs = p.executeQuery()) {
                return rs.next() ? rs.getString(1) : null;
            }
        }
    }

    private static void awaitValue(Connection c, String key, String expected) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!expected.equals(value(c, key))) {
            assertTrue(System.nanoTime() < deadline, key + " never became " + expected);
            Thread.sleep(20);
        }
    }

    private static boolean exists(Connection c, String key) throws SQLException {
        return value(c, key) != null;
    }
}
