package io.kegdb.tests.launcher;

import static io.kegdb.tests.cluster.ClusterSql.connectWhenUp;
import static io.kegdb.tests.cluster.ClusterSql.leaderOf;
import io.kegdb.tests.cluster.NodeCluster;
import io.kegdb.tests.launcher.Launcher.Run;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code ./kegdb sql jdbc:kegdb:raft://...} on a 3-node cluster of {@code ./kegdb node} processes: a script's
 * screen holds results and one-line errors only, no JVM or SOFAJRaft warnings and no stack traces, also while
 * the leader is killed in the middle of it.
 */
class ConsoleOnClusterTest {

    private static final int STATEMENTS = 3000;

    @TempDir
    Path dir;

    private NodeCluster cluster;

    @AfterEach
    void stopAll() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void scriptOnARaftUrlPrintsNoWarningsOrStackTracesAcrossAFailover() throws Exception {
        cluster = NodeCluster.onLoopback(dir, "console", 3);
        cluster.startAll();
        String url = cluster.url("raft.timeout=30s");
        try (Connection admin = connectWhenUp(url)) {
            admin.createStatement().executeUpdate("CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR)");
            StringBuilder script = new StringBuilder();
            for (int k = 0; k < STATEMENTS; k++) {
                script.append("INSERT INTO T VALUES (").append(k).append(", 'v');\n");
            }
            script.append("SELECT COUNT(*) AS N FROM T;\n");
            Process console = Launcher.start(Launcher.REPO_SCRIPT, Map.of("KEGDB_SKIP_BUILD", "1"),
                    "sql", url, "--continue-on-error", "-e", script.toString());
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
            while (count(admin) < STATEMENTS / 10) {
                assertTrue(console.isAlive() && System.nanoTime() < deadline, "the script did not get going");
                Thread.sleep(20);
            }
            int leader = cluster.indexOf(leaderOf(admin));
            assertTrue(console.isAlive(), "the script ended before the leader could be killed; make it longer");
            cluster.kill(leader);
            assertTrue(console.waitFor(180, TimeUnit.SECONDS), "the script did not finish after the failover");
            Run r = Launcher.result(console);

            List<String> errors = r.err().lines().toList();
            for (String line : errors) {
                // a statement the failover did fail is one line with its SQLState, nothing else
                assertTrue(line.startsWith("Error: ") && line.matches(".*\\(state=\\w{5},code=\\d+\\)$"), "not a one-line error: "
                        + line + "\n--- stderr:\n" + r.err());
            }
            assertEquals(errors.isEmpty() ? 0 : 1, r.exit(), r.err());
            String out = r.out();
            assertTrue(out.startsWith("1 row affected"), "nothing before the first result: " + out.lines().limit(5).toList());
            for (String line : out.lines().toList()) {
                assertTrue(line.equals("1 row affected") || line.startsWith("+") || line.startsWith("|"), "unexpected output: " + line);
            }
            long acknowledged = out.lines().filter(l -> l.equals("1 row affected")).count();
            assertEquals(STATEMENTS, acknowledged + errors.size(), r.err());
            long stored = count(admin);
            assertTrue(stored >= acknowledged && stored <= STATEMENTS, stored + " rows, " + acknowledged + " acknowledged");
        }
    }

    private static long count(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM T")) {
            rs.next();
            return rs.getLong(1);
        }
    }

}
