package io.kegdb.tests.cluster;

import io.kegdb.jdbc.security.PlainTextSecrets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.kegdb.tests.cluster.ClusterSql.connect;
import static io.kegdb.tests.cluster.ClusterSql.connectWhenUp;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@link KillLoop} on a secured cluster: three TLS {@code ./kegdb node} processes with users, and alice (ALL
 * on the loop's tables, no client certificate: she verifies the nodes' certificates and logs in with her
 * password) running the workloads while each node in turn is killed with SIGKILL and restarted. Nothing
 * acknowledged is lost, and her connections, opened once before the first kill, keep working through every
 * restart and leader change (her ticket is checked by whichever node she reaches). Afterwards no node file or
 * log holds a password. Rounds: 3 (each node once, the leader first), or 12 under {@code -Pstress}.
 */
@Timeout(value = 600, unit = TimeUnit.SECONDS)
class SecuredKillLoopTest {

    private static final int ROUNDS = Boolean.getBoolean("kegdb.stress") ? 12 : 3;
    private static final String ADMIN_PASSWORD = "kill-loop-admin-secret";
    private static final String ALICE_PASSWORD = "kill-loop-alice-secret";

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
    void acknowledgedWritesOfALoggedInUserSurviveKillingEachNode() throws Exception {
        Path certs = dir.resolve("certs");
        Path adminFile = dir.resolve("admin.pw");
        Files.writeString(adminFile, ADMIN_PASSWORD + "\n");
        cluster = NodeCluster.onLoopback(dir, "secured", 3).withTls(certs, adminFile);
        cluster.startAll();
        String query = "raft.timeout=20s&ssl=true&sslrootcert=" + certs.resolve("ca.crt");
        try (Connection admin = connectWhenUp(cluster.url(query), "admin", ADMIN_PASSWORD, 240);
             Statement s = admin.createStatement()) {
            KillLoop.createTables(admin);
            s.execute("CREATE USER alice PASSWORD '" + ALICE_PASSWORD + "'");
            for (String table : KillLoop.TABLES) {
                s.execute("GRANT ALL ON " + table + " TO alice");
            }
        }
        loop = new KillLoop(cluster, query, url -> connect(url, "alice", ALICE_PASSWORD));
        System.out.println("SecuredKillLoopTest: " + loop.run(ROUNDS));

        List<Path> nodeFiles = new ArrayList<>();
        for (int i = 0; i < cluster.size(); i++) {
            nodeFiles.add(cluster.nodeDir(i));
            nodeFiles.add(dir.resolve("node-" + i + ".log"));
        }
        assertTrue(PlainTextSecrets.assertAbsent(List.of(ADMIN_PASSWORD, ALICE_PASSWORD),
                nodeFiles.toArray(Path[]::new)) > 10, "node files looked at");
    }
}
