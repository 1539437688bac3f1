package io.kegdb.raft;

import com.alipay.sofa.jraft.CliService;
import com.alipay.sofa.jraft.RaftServiceFactory;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.CliOptions;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static io.kegdb.raft.TestBytes.b;
import static io.kegdb.raft.TestBytes.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Leader loss, a follower brought back by snapshot install, and membership changes. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FailoverTest {

    @TempDir
    Path dir;

    private TestCluster cluster;
    private KvStore client;

    @AfterEach
    void tearDown() {
        if (cluster != null) {
            cluster.close(); // and the client
        }
    }

    @Test
    void writesResumeUnderANewLeaderAfterTheLeaderStops() throws Exception {
        cluster = new TestCluster(dir, 3);
        cluster.startAll();
        int oldLeader = cluster.awaitLeader();
        client = cluster.client(Duration.ofSeconds(15));
        for (int i = 0; i < 50; i++) {
            client.put(b("before-" + i), b("v" + i), Durability.SYNC);
        }
        cluster.stop(oldLeader);

        // the client finds the new leader by itself within its request timeout
        client.put(b("after"), b("resumed"), Durability.SYNC);
        int newLeader = cluster.awaitLeader();
        assertNotEquals(oldLeader, newLeader);
        RaftNode member = cluster.nodes.get(newLeader == 0 ? (oldLeader == 1 ? 2 : 1) : (oldLeader == 0 ? 3 - newLeader : 0));
        assertTrue(member != null && member != cluster.nodes.get(newLeader), "a surviving follower");
        member.put(b("from-follower"), b("ok"), Durability.SYNC);
        for (int i = 0; i < 50; i++) {
            assertEquals("v" + i, s(member.get(b("before-" + i))));
        }
        assertEquals("resumed", s(client.get(b("after"))));

        // the old leader comes back as a follower and catches up from its own log plus the new leader
        RaftNode back = cluster.start(oldLeader);
        TestCluster.await(() -> back.status().appliedIndex() >= cluster.nodes.get(newLeader).status().appliedIndex(),
                "the restarted node catches up");
        assertEquals("ok", s(back.get(b("from-follower"))));
        assertEquals("v7", s(back.get(b("before-7"))));
    }

    @Test
    void aFollowerBehindATruncatedLogCatchesUpBySnapshotInstall() throws Exception {
        cluster = new TestCluster(dir, 3);
        cluster.startAll();
        int leader = cluster.awaitLeader();
        int lagging = (leader + 1) % 3;
        int other = (leader + 2) % 3;
        RaftNode leaderNode = cluster.nodes.get(leader);
        leaderNode.put(b("early"), b("1"), Durability.SYNC);
        TestCluster.await(() -> cluster.nodes.get(lagging).status().appliedIndex() >= leaderNode.status().appliedIndex(),
                "the follower applies the first write");
        cluster.stop(lagging);

        for (int i = 0; i < 20; i++) {
            WriteBatch batch = new WriteBatch();
            for (int j = 0; j < 20; j++) {
                batch.put(b("k" + i + "-" + j), b("v" + i + "-" + j));
            }
            leaderNode.write(batch, Durability.SYNC);
        }
        leaderNode.delete(b("early"), Durability.SYNC);
        // SOFAJRaft truncates the log up to the previous snapshot when it takes the next one: take two.
        assertTrue(leaderNode.snapshotNow(10_000).isOk());
        assertTrue(cluster.nodes.get(other).snapshotNow(10_000).isOk());
        leaderNode.put(b("between-snapshots"), b("3"), Durability.SYNC);
        assertTrue(leaderNode.snapshotNow(10_000).isOk());
        assertTrue(cluster.nodes.get(other).snapshotNow(10_000).isOk());
        TestCluster.await(() -> leaderNode.status().firstLogIndex() > 20,
                "the leader's log is truncated behind its snapshot");
        leaderNode.put(b("after-snapshot"), b("2"), Durability.SYNC);

        RaftNode back = cluster.start(lagging);
        TestCluster.await(() -> back.status().appliedIndex() >= leaderNode.status().appliedIndex(),
                "the lagging node catches up");
        assertTrue(back.stateMachine().snapshotsLoaded() >= 1, "it installed the leader's snapshot");
        try (KvStore local = localView(back)) {
            assertEquals(null, s(local.get(b("early"))));
        }
        assertEquals("v19-19", s(back.get(b("k19-19"))));
        assertEquals("2", s(back.get(b("after-snapshot"))));
        assertEquals(402 + ReplicatedStoreTest.RANGE_KEYS, back.stats().keys(), "with the range descriptor's two");
    }

    private KvStore localView(RaftNode node) {
        return RaftGroupClient.connect(TestCluster.GROUP, node.status().node(), Duration.ofSeconds(5),
                ReadConsistency.LOCAL);
    }

    @Test
    void aPeerIsAddedAndRemovedWithCliService() throws Exception {
        cluster = new TestCluster(dir, 3);
        cluster.startAll();
        int leader = cluster.awaitLeader();
        String original = cluster.peers();
        cluster.nodes.get(leader).put(b("k"), b("v"), Durability.SYNC);

        int added = cluster.addNode();
        RaftNode joining = cluster.start(added, original); // not in its peers: it joins
        CliService cli = RaftServiceFactory.createAndInitCliService(new CliOptions());
        try {
            Configuration conf = PeerList.parse(original);
            PeerId peer = PeerId.parsePeer(cluster.addresses.get(added));
            Status st = cli.addPeer(TestCluster.GROUP, conf, peer);
            assertTrue(st.isOk(), "addPeer: " + st);
            TestCluster.await(() -> joining.status().appliedIndex() >= cluster.nodes.get(leader).status().appliedIndex(),
                    "the new peer catches up");
            assertEquals("v", s(joining.get(b("k"))));
            joining.put(b("from-new"), b("n"), Durability.SYNC);
            assertEquals(4, cli.getPeers(TestCluster.GROUP, PeerList.parse(cluster.peers())).size());

            st = cli.removePeer(TestCluster.GROUP, PeerList.parse(cluster.peers()), peer);
            assertTrue(st.isOk(), "removePeer: " + st);
            cluster.stop(added);
            assertEquals(3, cli.getPeers(TestCluster.GROUP, conf).size());
            cluster.nodes.get(leader).put(b("after-remove"), b("r"), Durability.SYNC);
            assertEquals("n", s(cluster.nodes.get((leader + 1) % 3).get(b("from-new"))));
        } finally {
            cli.shutdown();
        }
    }
}
