package io.kegdb.raft;

import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.kegdb.raft.TestBytes.b;
import static io.kegdb.raft.TestBytes.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Three groups hosted by each of three processes' worth of hosts in this JVM, each host one RPC server for all
 * its replicas: every group elects its own leader, takes writes and serves reads from every replica, and keeps
 * its data apart from the others'.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RangeHostTest {

    private static final List<String> GROUPS = List.of("hosted-a", "hosted-b", "hosted_r3");

    @TempDir
    Path dir;

    private final List<RangeHost> hosts = new ArrayList<>();

    @AfterEach
    void stop() {
        hosts.forEach(RangeHost::close);
    }

    /** Live threads of the timers SOFAJRaft makes per node when they are not shared. */
    private static long perReplicaTimerThreads() {
        return Thread.getAllStackTraces().keySet().stream().map(Thread::getName)
                .filter(n -> n.startsWith("JRaft-ElectionTimer-") || n.startsWith("JRaft-VoteTimer-")
                        || n.startsWith("JRaft-StepDownTimer-") || n.startsWith("JRaft-SnapshotTimer-"))
                .count();
    }

    @Test
    void threeGroupsOnEachOfThreeHostsWriteAndReadApart() throws Exception {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            addresses.add("127.0.0.1:" + TestCluster.freePort());
        }
        String peers = String.join(",", addresses);
        long timerThreadsBefore = perReplicaTimerThreads();
        for (int i = 0; i < 3; i++) {
            RangeHost host = RangeHost.start(addresses.get(i), dir.resolve("host-" + i));
            hosts.add(host);
            for (String g : GROUPS) {
                host.host(g, peers, TestCluster.ELECTION_TIMEOUT_MS);
            }
        }
        for (String g : GROUPS) {
            TestCluster.await(() -> hosts.stream().filter(h -> h.isLeader(g)).count() == 1, "group " + g + " has a leader");
        }
        assertEquals(timerThreadsBefore, perReplicaTimerThreads(),
                "9 replicas run on SOFAJRaft's shared timers, not 4 timer threads each");
        for (int i = 0; i < GROUPS.size(); i++) {
            String g = GROUPS.get(i);
            // written from a different host each time, through that host's replica of the group
            hosts.get(i).store(g).put(b("k"), b(g), Durability.SYNC);
            hosts.get(i).store(g).put(b("only-" + g), b("1"), Durability.SYNC);
        }
        for (RangeHost h : hosts) {
            assertEquals(GROUPS.size(), h.groups().size());
            for (String g : GROUPS) {
                KvStore store = h.store(g);
                assertEquals(g, s(store.get(b("k"))), "linearizable read of " + g);
                for (String other : GROUPS) {
                    if (!other.equals(g)) {
                        assertNull(store.get(b("only-" + other)), other + "'s data is not in " + g);
                    }
                }
            }
        }
        assertThrows(IllegalArgumentException.class, () -> hosts.get(0).store("not-hosted"));
        assertThrows(IllegalArgumentException.class, () -> hosts.get(0).host("hosted/r4", peers, 600),
                "SOFAJRaft's group ids have no '/'");
    }
}
