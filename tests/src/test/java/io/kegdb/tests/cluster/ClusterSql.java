package io.kegdb.tests.cluster;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the cluster suites ask of a cluster of `./kegdb node` processes through JDBC. */
public final class ClusterSql {

    private ClusterSql() {
    }

    /** The first connection waits for the node processes to start and elect a leader. */
    public static Connection connectWhenUp(String url) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (true) {
            try {
                return DriverManager.getConnection(url);
            } catch (SQLException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
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
}
