package io.kegdb.raft;

import com.alipay.sofa.jraft.CliService;
import com.alipay.sofa.jraft.RaftServiceFactory;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.CliOptions;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static io.kegdb.raft.ReplicatedStoreTest.b;
import static io.kegdb.raft.ReplicatedStoreTest.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three {@link NodeMain} processes; a thin client writes continuously while each node in turn (the leader
 * first) is killed with SIGKILL and restarted. Every acknowledged write must be readable afterwards, on
 * every node. The longest gap between two acknowledged writes is logged (measured, not asserted).
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class NodeProcessesTest {

    private static final Logger LOG = LoggerFactory.getLogger(NodeProcessesTest.class);
    private static final String GROUP = "kegdb-proc";

    @TempDir
    Path dir;

    private final List<String> addresses = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void killAll() throws InterruptedException {
        for (Process p : processes) {
            if (p != null && p.isAlive()) {
                p.destroyForcibly();
                p.waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private Process launch(int i) throws IOException {
        Path home = dir.resolve("node-" + i);
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), NodeMain.class.getName(),
                "--dir", home.toString(), "--group", GROUP, "--self", addresses.get(i),
                "--peers", String.join(",", addresses), "--election-timeout-ms", "1000");
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("node-" + i + ".log").toFile()));
        return pb.start();
    }

    @Test
    void everyAcknowledgedWriteSurvivesKillingEachNodeInTurn() throws Exception {
        for (int i = 0; i < 3; i++) {
            addresses.add("127.0.0.1:" + TestCluster.freePort());
        }
        for (int i = 0; i < 3; i++) {
            processes.add(launch(i));
        }
        String peers = String.join(",", addresses);
        ConcurrentLinkedQueue<Long> acked = new ConcurrentLinkedQueue<>();
        AtomicLong lastAck = new AtomicLong(System.nanoTime());
        AtomicLong longestGap = new AtomicLong();
        AtomicLong failures = new AtomicLong();
        AtomicBoolean stop = new AtomicBoolean();
        CliService cli = RaftServiceFactory.createAndInitCliService(new CliOptions());
        try (KvStore client = RaftClientStore.connect(GROUP, peers, Duration.ofSeconds(20))) {
            client.put(b("ready"), b("1"), Durability.SYNC); // waits for the first leader
            lastAck.set(System.nanoTime());
            Thread writer = new Thread(() -> {
                for (long n = 0; !stop.get(); n++) {
                    try {
                        client.put(b("w" + n), b("v" + n), Durability.SYNC);
                        long now = System.nanoTime();
                        longestGap.accumulateAndGet(now - lastAck.getAndSet(now), Math::max);
                        acked.add(n);
                    } catch (ReplicationException e) {
                        failures.incrementAndGet();
                    }
                }
            }, "continuous-writer");
            writer.start();

            List<Integer> order = new ArrayList<>();
            PeerId leader = new PeerId();
            assertTrue(cli.getLeader(GROUP, PeerList.parse(peers), leader).isOk());
            order.add(addresses.indexOf(leader.toString()));
            for (int i = 0; i < 3; i++) {
                if (!order.contains(i)) {
                    order.add(i);
                }
            }
            for (int victim : order) {
                awaitMoreAcks(acked, 100);
                processes.get(victim).destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                LOG.info("killed node {} ({})", victim, addresses.get(victim));
                awaitMoreAcks(acked, 100); // the two others keep the group writable
                processes.set(victim, launch(victim));
            }
            awaitMoreAcks(acked, 100);
            stop.set(true);
            writer.join(30_000);

            LOG.info("{} writes acknowledged, {} failed, longest gap between acknowledged writes {} ms",
                    acked.size(), failures.get(), TimeUnit.NANOSECONDS.toMillis(longestGap.get()));
            for (long n : acked) {
                assertEquals("v" + n, s(client.get(b("w" + n))), "acknowledged write w" + n);
            }
            long last = acked.stream().mapToLong(Long::longValue).max().orElseThrow();
            for (String address : addresses) {
                try (KvStore one = RaftClientStore.connect(GROUP, address, Duration.ofSeconds(20), ReadConsistency.LOCAL)) {
                    TestCluster.await(() -> s(one.get(b("w" + last))) != null, address + " applies the last write");
                    for (long n : acked) {
                        assertEquals("v" + n, s(one.get(b("w" + n))), "w" + n + " on " + address);
                    }
                }
            }
        } finally {
            stop.set(true);
            cli.shutdown();
        }
    }

    private static void awaitMoreAcks(ConcurrentLinkedQueue<Long> acked, int more) throws InterruptedException {
        int target = acked.size() + more;
        TestCluster.await(() -> acked.size() >= target, target + " writes are acknowledged");
    }
}
