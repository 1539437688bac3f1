package io.kegdb.tests.cluster;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import static io.kegdb.tests.cluster.ClusterSql.connectWhenUp;
import static io.kegdb.tests.cluster.ClusterSql.leaderOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Registers under a nemesis on the loopback interface: three {@code ./kegdb node} processes and the
 * {@link RegisterWorkload} (blind writers and readers), while the leader is paused ({@code SIGSTOP}, then
 * {@code SIGCONT}) or killed ({@code SIGKILL}, then restarted), alternately; then the workload's checks
 * (linearizable registers; every node's log applies each request at most once, each acknowledged write
 * exactly once, none that failed with 08006, the same writes on every node). Isolation and a split need
 * network namespaces: {@link PartitionNemesisTest}.
 * Rounds: 2 (a pause and a kill), or 8 under {@code -Pstress}. The longest write outage per round and the
 * resends found in the logs are printed.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ClusterNemesisTest {

    private static final int ROUNDS = Boolean.getBoolean("kegdb.stress") ? 8 : 2;
    private static final long PAUSE_MS = 3000;

    @TempDir
    Path dir;

    private NodeCluster cluster;
    private RegisterWorkload workload;

    @AfterEach
    void stopAll() throws Exception {
        if (workload != null) {
            workload.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    @Test
    void registersStayLinearizableAndEachWriteIsAppliedOnceThroughPausesAndKills() throws Exception {
        cluster = NodeCluster.onLoopback(dir, "nemesis", 3);
        cluster.startAll();
        String url = cluster.url("raft.timeout=10s");
        List<String> rounds = new ArrayList<>();
        try (Connection admin = connectWhenUp(url)) {
            workload = new RegisterWorkload(url, 3, 0, 2);
            for (int round = 0; round < ROUNDS; round++) {
                workload.awaitMore(60);
                String leader = leaderOf(admin);
                int victim = cluster.indexOf(leader);
                boolean pause = round % 2 == 0;
                long from = System.nanoTime();
                if (pause) {
                    cluster.pause(victim);
                    Thread.sleep(PAUSE_MS);
                    cluster.resume(victim);
                } else {
                    cluster.kill(victim);
                }
                workload.awaitMore(60);
                rounds.add((pause ? "pause " : "kill ") + leader + ": longest write gap "
                        + TimeUnit.NANOSECONDS.toMillis(workload.longestGapNanos(from, System.nanoTime())) + " ms");
                if (!pause) {
                    cluster.start(victim);
                }
                ClusterSql.awaitCaughtUp(admin, leader);
            }
            workload.awaitMore(50);
            workload.stop();
            long upTo = ClusterSql.awaitAllApplied(admin, cluster.nodes());
            cluster.stopAll();
            RegisterWorkload.Findings findings = workload.findings(
                    IntStream.range(0, cluster.size()).mapToObj(cluster::nodeDir).toList(), upTo);
            System.out.printf("ClusterNemesisTest: %d rounds up to log index %d; %s; %s%n", ROUNDS, upTo, findings,
                    rounds);
            assertTrue(findings.clean(), findings::toString);
        }
    }
}
