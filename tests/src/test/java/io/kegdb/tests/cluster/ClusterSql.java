package io.kegdb.tests.cluster;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the cluster suites ask of a cluster of `./kegdb node` processes through JDBC. */
public final class ClusterSql {

    private ClusterSql() {
    }

    /** The first connection waits for the node processes to start and elect a leader (at most 90 s). */
    public static Connection connectWhenUp(String url) throws Exception {
        return connectWhenUp(url, 90);
    }

    /** The first connection, waiting at most {@code seconds} (JVMs making TLS connections start slowly). */
    public static Connection connectWhenUp(String url, int seconds) throws Exception {
        return connectWhenUp(url, null, null, seconds);
    }

    /**
     * The first connection as {@code user} (null: none), waiting at most {@code seconds}: on a cluster with
     * users the first admin exists only once a leader is elected.
     */
    public static Connection connectWhenUp(String url, String user, String password, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            try {
                return connect(url, user, password);
            } catch (SQLException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
    }

    /** A connection with {@code user} and {@code password} as JDBC passes them (each null: not given). */
    public static Connection connect(String url, String user, String password) throws SQLException {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        return DriverManager.getConnection(url, p);
    }

    /** The leader as SYS.RAFT shows it, waiting out an election. */
    public static String leaderOf(Connection admin) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (Statement s = admin.createStatement();
                 ResultSet rs = s.executeQuery("SELECT NODE FROM SYS.RAFT WHERE ROLE = 'LEADER'")) {
                if (rs.next()) {
                    return rs.getString(1);
                }
            }
            assertTrue(System.nanoTime() < deadline, "no leader in SYS.RAFT");
            Thread.sleep(100);
        }
    }
    /**
     * Waits until SYS.RAFT shows {@code node} following with everything applied that the leader had committed
     * at the previous look (the rows are asked one node after the other, so within one look a busy leader is
     * always a little ahead).
     */
    public static void awaitCaughtUp(Connection admin, String node) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        long target = Long.MAX_VALUE;
        while (true) {
            long leaderCommit = -1;
            long applied = -1;
            String role = null;
            try (Statement s = admin.createStatement();
                 ResultSet rs = s.executeQuery("SELECT NODE, ROLE, COMMIT_INDEX, APPLIED_INDEX FROM SYS.RAFT")) {
                while (rs.next()) {
                    if (rs.getString(2).equals("LEADER")) {
                        leaderCommit = rs.getLong(3);
                    }
                    if (rs.getString(1).equals(node)) {
                        role = rs.getString(2);
                        applied = rs.getLong(4);
                    }
                }
            }
            if (("FOLLOWER".equals(role) || "LEADER".equals(role)) && applied >= target) {
                return;
            }
            if (leaderCommit > 0) {
                target = leaderCommit;
            }
            assertTrue(System.nanoTime() < deadline, node + " did not catch up: " + role + " applied " + applied
                    + " of " + target);
            Thread.sleep(100);
        }
    }

    /**
     * Waits until every node of {@code nodes} has applied what the leader committed, twice in a row at the
     * same index (so nothing is being written), and returns that index.
     */
    public static long awaitAllApplied(Connection admin, List<String> nodes) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        long previous = -1;
        while (true) {
            long commit = -1;
            Map<String, Long> applied = new HashMap<>();
            try (Statement s = admin.createStatement();
                 ResultSet rs = s.executeQuery("SELECT NODE, ROLE, COMMIT_INDEX, APPLIED_INDEX FROM SYS.RAFT")) {
                while (rs.next()) {
                    if (rs.getString(2).equals("LEADER")) {
                        commit = rs.getLong(3);
                    }
                    applied.put(rs.getString(1), rs.getLong(4));
                }
            }
            long index = commit;
            boolean all = commit > 0 && nodes.stream().allMatch(n -> applied.getOrDefault(n, -1L) == index);
            if (all && index == previous) {
                return index;
            }
            previous = all ? index : -1;
            assertTrue(System.nanoTime() < deadline, "the nodes did not all apply the leader's commit index: "
                    + applied + ", commit " + commit);
            Thread.sleep(200);
        }
    }

    /** The rows of SYS.RANGES: ID, START_KEY, END_KEY, GENERATION, REPLICA_VERSION, REPLICAS, LEADER, by ID. */
    public static List<List<Object>> sysRanges(Connection c) throws SQLException {
        List<List<Object>> rows = new java.util.ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM SYS.RANGES ORDER BY ID")) {
            assertEquals(7, rs.getMetaData().getColumnCount());
            assertEquals("START_KEY", rs.getMetaData().getColumnName(2));
            while (rs.next()) {
                List<Object> row = new java.util.ArrayList<>();
                for (int i = 1; i <= 7; i++) {
                    row.add(rs.getObject(i));
                }
                rows.add(row);
            }
        }
        return rows;
    }
}
