package io.kegdb.tests.cluster;

import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftNodeOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code SYS.RANGES} through JDBC on a 3-node group in this JVM (two nodes through the raft API, this process
 * the third through its embedded-member URL): one range, the group itself, over the whole key space, its
 * replicas and its leader; the same row from a thin client, and the leader's change after the leader stops.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RangesTableTest {

    private static final String GROUP = "ranges";

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

    /** SYS.RANGES once the first leader wrote the descriptor into the meta range and has a leader. */
    private static List<List<Object>> awaitRanges(Connection c, String notLeader) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            List<List<Object>> rows = ClusterSql.sysRanges(c);
            if (rows.size() == 1 && rows.get(0).get(6) != null && !rows.get(0).get(6).equals(notLeader)) {
                return rows;
            }
            assertTrue(System.nanoTime() < deadline, "SYS.RANGES still " + rows);
            Thread.sleep(50);
        }
    }

    @Test
    void oneRangeOverTheWholeKeySpaceWithItsReplicasAndLeader() throws Exception {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodes.add("127.0.0.1:" + LoopbackPorts.free());
        }
        String peers = String.join(",", nodes);
        for (int i = 1; i < 3; i++) {
            started.add(RaftNode.start(RaftNodeOptions.builder().dir(dir.resolve("node-" + i)).group(GROUP)
                    .self(nodes.get(i)).peers(peers).electionTimeoutMs(600).build()));
        }
        Connection member = connect("jdbc:kegdb:" + dir.resolve("node-0") + "?raft.group=" + GROUP + "&raft.self="
                + nodes.get(0) + "&raft.peers=" + peers + "&raft.electionTimeoutMs=600");
        Connection client = connect("jdbc:kegdb:raft://" + peers + "/" + GROUP);
        try (Statement s = client.createStatement()) {
            s.executeUpdate("CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR)");
            s.executeUpdate("INSERT INTO T VALUES (1, 'a'), (2, 'b')");
        }

        List<Object> row = awaitRanges(client, null).get(0);
        assertEquals(1L, row.get(0));
        assertEquals("", row.get(1), "from the first key");
        assertNull(row.get(2), "to the last");
        assertEquals(1L, row.get(3));
        assertEquals(1L, row.get(4));
        assertEquals(new HashSet<>(nodes), new HashSet<>(Arrays.asList(((String) row.get(5)).split(","))));
        String leader = (String) row.get(6);
        assertTrue(nodes.contains(leader), leader);
        assertEquals(row.subList(0, 6), awaitRanges(member, null).get(0).subList(0, 6), "the member sees the same");

        try (Statement s = client.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM SYS.RANGES WHERE END_KEY IS NULL AND GENERATION = 1")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getLong(1));
        }

        // The leader stops: the row names the new one, its descriptor unchanged.
        int stopped = nodes.indexOf(leader);
        if (stopped == 0) {
            member.close(); // the embedded member led: its last connection closing stops it
            open.remove(member);
        } else {
            started.remove(stopped - 1).close();
        }
        List<Object> after = awaitRanges(client, leader).get(0);
        assertFalse(leader.equals(after.get(6)));
        assertEquals(row.subList(0, 6), after.subList(0, 6));
        try (Statement s = client.createStatement(); ResultSet rs = s.executeQuery("SELECT V FROM T WHERE K = 2")) {
            assertTrue(rs.next());
            assertEquals("b", rs.getString(1));
        }
    }
}
