package io.kegdb.raft.tool;

import io.kegdb.engine.Durability;
import io.kegdb.raft.RaftNode;
import io.kegdb.raft.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static io.kegdb.raft.TestBytes.b;
import static io.kegdb.raft.TestBytes.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The membership command line against a 3-node group in this JVM. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterMainTest {

    @TempDir
    Path dir;

    private TestCluster cluster;

    @AfterEach
    void tearDown() {
        if (cluster != null) {
            cluster.close();
        }
    }

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = ClusterMain.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aUserWithoutPasswordFileAndWithoutTerminalFailsAtOnceSayingWhatToGive() {
        // the test's JVM has no console, as a script or a service has none: ClusterMain.run is given none
        long start = System.nanoTime();
        Run r = run("status", "--group", TestCluster.GROUP, "--peers", "127.0.0.1:1", "--user", "bob");
        assertEquals(2, r.code(), r.err());
        assertTrue(r.err().contains("no password for user bob") && r.err().contains("--password-file"), r.err());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "no wait for a node or for input");
    }

    @Test
    void statusTransferAddAndRemove() throws Exception {
        cluster = new TestCluster(dir, 3);
        cluster.startAll();
        int leader = cluster.awaitLeader();
        String peers = cluster.peers();

        Run status = run("status", "--group", TestCluster.GROUP, "--peers", peers);
        assertEquals(0, status.code(), status.err());
        assertTrue(status.out().contains("leader  " + cluster.addresses.get(leader)), status.out());
        assertEquals(3, status.out().lines().filter(l -> l.startsWith("peer ")).count(), status.out());

        int target = (leader + 1) % 3;
        Run transfer = run("transfer-leader", "--group", TestCluster.GROUP, "--peers", peers,
                "--peer", cluster.addresses.get(target));
        assertEquals(0, transfer.code(), transfer.err());
        TestCluster.await(() -> cluster.nodes.get(target).isLeader(), "leadership moves to " + cluster.addresses.get(target));

        int added = cluster.addNode();
        RaftNode joining = cluster.start(added, peers);
        Run add = run("add-peer", "--group", TestCluster.GROUP, "--peers", peers, "--peer", cluster.addresses.get(added));
        assertEquals(0, add.code(), add.err());
        joining.put(b("four"), b("4"), Durability.SYNC);
        assertEquals("4", s(cluster.nodes.get(leader).get(b("four"))));

        Run remove = run("remove-peer", "--group", TestCluster.GROUP, "--peers", cluster.peers(),
                "--peer", cluster.addresses.get(added));
        assertEquals(0, remove.code(), remove.err());
        assertTrue(remove.out().contains("peers now"), remove.out());
        assertTrue(!remove.out().substring(remove.out().indexOf("peers now")).contains(cluster.addresses.get(added)),
                remove.out());
    }

    @Test
    void splitAtAStoreKeyThenListsTheRanges() throws Exception {
        cluster = new TestCluster(dir, 3);
        cluster.startAll();
        int leader = cluster.awaitLeader();
        byte[] left = {0, 0, 0, 9, 1};
        byte[] right = {0, 0, 0, 9, 7};
        cluster.nodes.get(leader).put(left, b("l"), Durability.SYNC);
        cluster.nodes.get(leader).put(right, b("r"), Durability.SYNC);
        String peers = cluster.peers();
        TestCluster.await(() -> cluster.nodes.get(leader).ranges().size() == 1, "the descriptor in the meta range");

        Run split = run("split", "--group", TestCluster.GROUP, "--peers", peers, "--key", "0000000905");
        assertEquals(0, split.code(), split.err());
        assertTrue(split.out().contains("split range 1 (group " + TestCluster.GROUP + ") at \\x00\\x00\\x00\\x09"
                + "\\x05: new range 2 (group " + TestCluster.GROUP + "_r2)"), split.out());
        assertEquals(2, split.out().lines().filter(l -> l.startsWith("range ")).count(), split.out());
        assertEquals(2, cluster.nodes.get(leader).ranges().size());
        assertEquals("l", s(cluster.nodes.get(leader).get(left)), "below the key: still range 1's");

        Run again = run("split", "--group", TestCluster.GROUP, "--peers", peers, "--key", "0000000905");
        assertEquals(0, again.code(), again.err());
        assertTrue(again.out().contains("range 2 starts at") && again.out().contains("nothing to split"), again.out());

        Run systemSpan = run("split", "--group", TestCluster.GROUP, "--peers", peers, "--key", "0000000007");
        assertEquals(1, systemSpan.code());
        assertTrue(systemSpan.err().contains("system span never splits"), systemSpan.err());
        Run byTable = run("split", "--group", TestCluster.GROUP, "--peers", peers, "--table", "T", "--at", "5");
        assertEquals(2, byTable.code(), "this tool alone has no SQL key encoding");
        assertTrue(byTable.err().contains("--key HEX"), byTable.err());
        assertEquals(2, run("split", "--group", "g", "--peers", peers, "--key", "0x1").code());
        assertEquals(2, run("split", "--group", "g", "--peers", peers, "--key", "09", "--table", "T", "--at", "5")
                .code());
    }

    @Test
    void badUsageExitsWithTwoAndUnreachableGroupWithOne() throws Exception {
        assertEquals(2, run("status").code());
        assertEquals(2, run("add-peer", "--group", "g", "--peers", "127.0.0.1:1").code(), "add-peer needs --peer");
        assertEquals(2, run("status", "--group", "g", "--peers", "nonsense").code());
        Run unreachable = run("status", "--group", "g", "--peers", "127.0.0.1:" + TestCluster.freePort(),
                "--timeout-ms", "500");
        assertEquals(1, unreachable.code());
        assertTrue(unreachable.err().contains("no leader"), unreachable.err());
    }
}
