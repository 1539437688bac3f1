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
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each connection gets the Raft settings its URL asks for, although connections of one JVM to the same
 * group share a client store: thin clients asking for another {@code raft.timeout} or
 * {@code readConsistency} get a store of their own; a second connection to an embedded member's directory
 * with other Raft options is refused (one directory is one node).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterConnectionSettingsTest {

    @TempDir
    Path dir;

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private Connection connect(String url) throws SQLException {
        Connection c = DriverManager.getConnection(url);
        open.add(c);
        return c;
    }

    @Test
    void aThinClientsTimeoutIsItsOwnAndAMemberRefusesOtherOptions() throws Exception {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodes.add("127.0.0.1:" + LoopbackPorts.free());
        }
        String peers = String.join(",", nodes);
        List<RaftNode> others = new ArrayList<>();
        for (int i = 1; i < 3; i++) {
            RaftNode n = RaftNode.start(RaftNodeOptions.builder().dir(dir.resolve("node-" + i)).group("settings")
                    .self(nodes.get(i)).peers(peers).electionTimeoutMs(600).build());
            others.add(n);
            open.add(n);
        }
        String member = "jdbc:kegdb:" + dir.resolve("member-0") + "?raft.group=settings&raft.self=" + nodes.get(0)
                + "&raft.peers=" + peers + "&raft.electionTimeoutMs=600";
        Connection m = connect(member);
        try (Statement s = m.createStatement()) {
            s.executeUpdate("UPSERT INTO KV VALUES ('k', 'v')");
        }
        // the same member with the same options shares the node; with another timeout it is refused
        assertEquals("v", value(connect(member), "k"));
        SQLException refused = assertThrows(SQLException.class, () -> connect(member + "&raft.timeout=3s"));
        assertEquals("HY024", refused.getSQLState(), refused.getMessage());
        assertTrue(refused.getMessage().contains("raft.timeout=10000ms"), refused.getMessage());

        String thin = "jdbc:kegdb:raft://" + peers + "/settings";
        Connection patient = connect(thin + "?raft.timeout=60s");
        Connection quick = connect(thin + "?raft.timeout=1s");
        Connection local = connect(thin + "?raft.timeout=1s&readConsistency=local");
        assertEquals("v", value(patient, "k"));
        assertEquals("v", value(quick, "k"));
        assertEquals("v", value(local, "k"));

        // without a majority there is no leader: the quick client gives up after its own second
        for (RaftNode n : others) {
            n.close();
            open.remove(n);
        }
        long start = System.nanoTime();
        SQLException e = assertThrows(SQLException.class, () -> value(quick, "k"));
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertEquals("08006", e.getSQLState(), e.getMessage());
        assertTrue(ms < 20_000, "raft.timeout=1s gave up after " + ms + " ms (the other client's is 60 s)");
    }

    private static String value(Connection c, String key) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT V FROM KV WHERE K = '" + key + "'")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}
