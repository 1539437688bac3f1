package io.kegdb.tests.cluster;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.concurrent.TimeUnit;

import static io.kegdb.tests.cluster.ClusterSql.connectWhenUp;

/**
 * The replication part of the reliability suite: three {@code ./kegdb node} processes without TLS, and the
 * {@link KillLoop} (inserts and counter increments through JDBC while leaders and followers are killed with
 * SIGKILL and restarted; nothing acknowledged lost, nothing that failed with 08006 written, no increment applied
 * twice, every node the same). Rounds: 4, or 16 under {@code -Pstress} ({@code kegdb.stress=true}).
 * The same loop on a TLS cluster with users: {@link SecuredKillLoopTest}.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class ClusterProcessesTest {

    private static final int ROUNDS = Boolean.getBoolean("kegdb.stress") ? 16 : 4;

    @TempDir
    Path dir;

    private NodeCluster cluster;
    private KillLoop loop;

    @AfterEach
    void stopAll() throws Exception {
        if (loop != null) {
            loop.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void acknowledgedWritesSurviveKillingLeadersAndFollowers() throws Exception {
        cluster = NodeCluster.onLoopback(dir, "proc", 3);
        cluster.startAll();
        String query = "raft.timeout=20s";
        try (Connection c = connectWhenUp(cluster.url(query))) {
            KillLoop.createTables(c);
        }
        loop = new KillLoop(cluster, query, DriverManager::getConnection);
        System.out.println("ClusterProcessesTest: " + loop.run(ROUNDS));
    }
}
