package io.kegdb.raft;

import com.alipay.sofa.jraft.entity.PeerId;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import io.kegdb.raft.replication.KvRequest;
import io.kegdb.raft.replication.KvResponse;
import io.kegdb.raft.replication.Transport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static io.kegdb.raft.TestBytes.b;
import static io.kegdb.raft.TestBytes.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Client sessions are part of the snapshot: a resend of a write applied before the snapshot is still
 * recognized after every node restarted from that snapshot, with the log before it gone.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SessionSnapshotTest {

    @TempDir
    Path dir;

    private TestCluster cluster;
    private KvStore client;
    private KvStore other;

    @AfterEach
    void tearDown() {
        if (client != null) {
            client.close();
        }
        if (other != null) {
            other.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** Keeps the last write request the client sent, and the transport to send it again. */
    private static final class Recorder implements Transport {
        final Transport real;
        final AtomicReference<KvRequest> lastWrite = new AtomicReference<>();

        Recorder(Transport real) {
            this.real = real;
        }

        @Override
        public KvResponse send(PeerId target, KvRequest request, long timeoutMs) throws Exception {
            if (request.isWrite()) {
                lastWrite.set(request);
            }
            return real.send(target, request, timeoutMs);
        }
    }

    @Test
    void aDuplicateOfAWriteBeforeTheSnapshotIsRecognizedAfterARestartFromIt() throws Exception {
        cluster = new TestCluster(dir, 3);
        cluster.startAll();
        int leader = cluster.awaitLeader();
        AtomicReference<Recorder> recorder = new AtomicReference<>();
        client = RaftGroupClient.connect(TestCluster.GROUP, cluster.peers(), Duration.ofSeconds(20),
                ReadConsistency.LINEARIZABLE, null, real -> {
                    Recorder r = new Recorder(real);
                    recorder.set(r);
                    return r;
                });
        other = RaftGroupClient.connect(TestCluster.GROUP, cluster.peers(), Duration.ofSeconds(20));
        client.put(b("k"), b("a"), Durability.SYNC);
        KvRequest applied = recorder.get().lastWrite.get();
        long appliedAt = cluster.nodes.get(leader).status().appliedIndex();
        other.put(b("k"), b("b"), Durability.SYNC);

        // two snapshots on every node: the second truncates the log up to the first
        for (int round = 0; round < 2; round++) {
            for (RaftNode n : cluster.nodes) {
                assertTrue(n.snapshotNow(10_000).isOk());
            }
            other.put(b("between-" + round), b("x"), Durability.SYNC);
        }
        for (RaftNode n : cluster.nodes) {
            TestCluster.await(() -> n.status().firstLogIndex() > appliedAt, "the log before the write is gone");
        }
        for (int i = 0; i < 3; i++) {
            cluster.stop(i);
        }
        cluster.startAll();
        int restarted = cluster.awaitLeader();
        for (RaftNode n : cluster.nodes) {
            assertTrue(n.stateMachine().snapshotsLoaded() >= 1, "each node restarted from its snapshot");
            assertTrue(n.stateMachine().sessionCount() >= 2, "with the sessions in it");
        }

        PeerId leaderPeer = PeerId.parsePeer(cluster.addresses.get(restarted));
        recorder.get().real.send(leaderPeer, applied, 10_000);
        assertEquals("b", s(other.get(b("k"))), "the resend of the write before the snapshot did not apply again");
        RaftNode l = cluster.nodes.get(restarted);
        assertEquals(1, l.stateMachine().duplicatesAnswered(), "it was answered from the restored session");

        // once the client moved on (a later write raised its floor) the old request is refused, still unapplied
        client.put(b("k2"), b("c"), Durability.SYNC);
        recorder.get().real.send(leaderPeer, applied, 10_000);
        assertEquals("b", s(other.get(b("k"))));
        assertEquals("c", s(client.get(b("k2"))));
    }
}
