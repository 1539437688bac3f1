package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.JRaftServiceFactory;
import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.RaftGroupService;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.entity.Task;
import com.alipay.sofa.jraft.option.NodeOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A 3-node SOFAJRaft group in one JVM on 127.0.0.1 with its log and meta in Bitcask stores: a leader is
 * elected, 1000 tasks are applied, a follower is stopped, more tasks are applied without it, and after a
 * restart it replays its own Bitcask log and catches up with the rest from the leader.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ThreeNodeClusterTest {

    private static final String GROUP = "kegdb-test";

    @TempDir
    Path dir;

    private final List<Member> members = new ArrayList<>();

    /** One node: its address, its directories and, while running, its service and state machine. */
    private final class Member {
        final PeerId peer;
        final Path home;
        RaftGroupService service;
        CountingStateMachine fsm;
        Node node;

        Member(PeerId peer) {
            this.peer = peer;
            this.home = dir.resolve("node-" + peer.getPort());
        }

        void start(Configuration conf) throws IOException {
            Files.createDirectories(home);
            fsm = new CountingStateMachine();
            NodeOptions options = new NodeOptions();
            options.setElectionTimeoutMs(1000);
            options.setInitialConf(conf);
            options.setFsm(fsm);
            options.setLogUri(home.resolve("log").toString());
            options.setRaftMetaUri(home.resolve("meta").toString());
            options.setServiceFactory(factory());
            service = new RaftGroupService(GROUP, peer, options);
            node = service.start();
        }

        void stop() throws InterruptedException {
            if (service != null) {
                service.shutdown();
                service.join();
                service = null;
                node = null;
            }
        }
    }

    JRaftServiceFactory factory() {
        return new KegRaftServiceFactory();
    }

    @AfterEach
    void stopAll() throws InterruptedException {
        for (Member m : members) {
            m.stop();
        }
    }

    @Test
    void followerRestartsAndCatchesUpFromItsBitcaskLog() throws Exception {
        Configuration conf = new Configuration();
        for (int i = 0; i < 3; i++) {
            PeerId peer = new PeerId("127.0.0.1", freePort());
            conf.addPeer(peer);
            members.add(new Member(peer));
        }
        for (Member m : members) {
            m.start(conf);
        }

        Member leader = awaitLeader();
        long expectedSum = applyTasks(leader.node, 1, 1000);
        for (Member m : members) {
            awaitTrue(() -> m.fsm.applied() == 1000, "node " + m.peer + " applies 1000 tasks");
            assertEquals(expectedSum, m.fsm.sum());
        }

        Member follower = members.stream().filter(m -> m != leader).findFirst().orElseThrow();
        follower.stop();
        try (Closeable log = openLog(follower.home.resolve("log"))) {
            assertTrue(log.storage.getLastLogIndex() >= 1000,
                    "the stopped follower's Bitcask log holds the replicated entries: " + log.storage.getLastLogIndex());
            assertEquals(1, log.storage.getFirstLogIndex());
        }

        expectedSum += applyTasks(leader.node, 1001, 1200);
        follower.start(conf);
        awaitTrue(() -> follower.fsm.applied() == 1200, "the restarted follower applies all 1200 tasks");
        assertEquals(expectedSum, follower.fsm.sum());
        for (Member m : members) {
            awaitTrue(() -> m.fsm.applied() == 1200, "node " + m.peer + " applies 1200 tasks");
            assertEquals(expectedSum, m.fsm.sum());
        }
    }

    /** Applies tasks whose values are {@code from..to} on the leader and waits until each is committed. */
    private static long applyTasks(Node leader, long from, long to) throws InterruptedException {
        CountDownLatch done = new CountDownLatch((int) (to - from + 1));
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        long sum = 0;
        for (long v = from; v <= to; v++) {
            ByteBuffer data = ByteBuffer.allocate(Long.BYTES).putLong(0, v);
            leader.apply(new Task(data, status -> {
                if (!status.isOk()) {
                    errors.add(status.toString());
                }
                done.countDown();
            }));
            sum += v;
        }
        assertTrue(done.await(30, TimeUnit.SECONDS), "tasks committed within 30 s");
        assertTrue(errors.isEmpty(), "task failures: " + errors);
        return sum;
    }

    private Member awaitLeader() throws InterruptedException {
        Member[] found = new Member[1];
        awaitTrue(() -> {
            for (Member m : members) {
                if (m.node != null && m.node.isLeader()) {
                    found[0] = m;
                    return true;
                }
            }
            return false;
        }, "a leader is elected");
        return found[0];
    }

    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after 30 s waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static Closeable openLog(Path path) {
        BitcaskLogStorage storage = new BitcaskLogStorage(path.toString(), TestLogs.raftOptions(true));
        assertTrue(storage.init(TestLogs.options(new ConfigurationManager(),
                com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory.getInstance())));
        return new Closeable(storage);
    }

    private record Closeable(BitcaskLogStorage storage) implements AutoCloseable {
        @Override
        public void close() {
            storage.shutdown();
        }
    }
}
