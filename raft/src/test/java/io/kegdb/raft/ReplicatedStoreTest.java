package io.kegdb.raft;

import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyExistsException;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvCursor;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvSnapshot;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.RangeDigest;
import io.kegdb.engine.WriteBatch;
import io.kegdb.engine.WriteConflictException;
import io.kegdb.raft.replication.GroupStore;
import io.kegdb.raft.range.MetaKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.kegdb.raft.TestBytes.b;
import static io.kegdb.raft.TestBytes.s;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A 3-node group in this JVM: writes and reads through a thin client and through members. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplicatedStoreTest {

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
    void writesThroughClientAndMembersAreReadEverywhere() throws Exception {
        cluster = new TestCluster(dir, 3);
        cluster.startAll();
        int leader = cluster.awaitLeader();
        int follower = (leader + 1) % 3;
        client = cluster.client(Duration.ofSeconds(15));

        client.put(b("from-client"), b("1"), Durability.SYNC);
        cluster.nodes.get(follower).put(b("from-follower"), b("2"), Durability.SYNC);
        cluster.nodes.get(leader).write(new WriteBatch().put(b("a"), b("x")).put(b("b"), b("y")), Durability.SYNC);

        for (RaftNode node : cluster.nodes) {
            assertEquals("1", s(node.get(b("from-client"))), "linearizable read on " + node.status());
            assertEquals("2", s(node.get(b("from-follower"))));
            assertEquals("y", s(node.get(b("b"))));
        }
        assertEquals("2", s(client.get(b("from-follower"))));
        // a multi-get answers as gets do, in the caller's order, on members and through the client
        List<String> expected = java.util.Arrays.asList("y", null, "1", "y");
        List<byte[]> keys = List.of(b("b"), b("absent"), b("from-client"), b("b"));
        assertEquals(expected, cluster.nodes.get(follower).getAll(keys).stream().map(TestBytes::s).toList());
        assertEquals(expected, client.getAll(keys).stream().map(TestBytes::s).toList());
        // one request for all the keys; an answer past a megabyte comes in more than one
        long before = requests(client);
        client.getAll(keys);
        assertEquals(1, requests(client) - before, "one request for four keys");
        byte[] large = new byte[700_000];
        java.util.Arrays.fill(large, (byte) 7);
        client.write(new WriteBatch().put(b("large1"), large).put(b("large2"), large), Durability.SYNC);
        before = requests(client);
        List<byte[]> values = client.getAll(List.of(b("large1"), b("b"), b("large2"), b("absent")));
        assertEquals(2, requests(client) - before, "1.4 MB of values: two answers");
        assertArrayEquals(large, values.get(0));
        assertEquals("y", s(values.get(1)));
        assertArrayEquals(large, values.get(2));
        assertNull(values.get(3));

        // put-if-absent is decided at apply time and the conflict travels back to the proposer
        KeyExistsException fromClient = assertThrows(KeyExistsException.class, () -> client.write(
                new WriteBatch().put(b("c"), b("never")).putIfAbsent(b("a"), b("z")), Durability.SYNC));
        assertArrayEquals(b("a"), fromClient.key());
        assertThrows(KeyExistsException.class, () -> cluster.nodes.get(follower).write(
                new WriteBatch().putIfAbsent(b("from-client"), b("z")), Durability.SYNC));
        assertNull(client.get(b("c")), "a failed batch writes nothing");
        client.write(new WriteBatch().putIfAbsent(b("c"), b("first")), Durability.SYNC);
        assertEquals("first", s(cluster.nodes.get(follower).get(b("c"))));

        // preconditions too: checked against each replica's values at apply, the conflict reported to the client
        client.write(new WriteBatch().expect(b("c"), b("first")).put(b("c"), b("second")), Durability.SYNC);
        WriteConflictException conflict = assertThrows(WriteConflictException.class, () -> client.write(
                new WriteBatch().expect(b("c"), b("first")).put(b("c"), b("third")).put(b("d"), b("x")), Durability.SYNC));
        assertArrayEquals(b("c"), conflict.key());
        long digest = RangeDigest.of(client.scan(b("a"), b("c")));
        client.write(new WriteBatch().expectRange(b("a"), b("c"), digest), Durability.SYNC); // validates only
        client.put(b("bb"), b("phantom"), Durability.SYNC);
        assertThrows(WriteConflictException.class, () -> cluster.nodes.get(follower).write(
                new WriteBatch().expectRange(b("a"), b("c"), digest).put(b("d"), b("x")), Durability.SYNC));
        for (RaftNode node : cluster.nodes) {
            assertEquals("second", s(node.get(b("c"))), "every replica decided alike: " + node.status());
            assertNull(node.get(b("d")));
        }

        // a snapshot keeps the state it was opened at while writes go on; once closed it answers no more
        KvSnapshot snapshot = client.snapshot();
        client.write(new WriteBatch().put(b("c"), b("later")).delete(b("bb")).put(b("ba"), b("new")), Durability.SYNC);
        assertEquals("second", s(snapshot.get(b("c"))));
        assertEquals(java.util.Arrays.asList("second", null, "y"),
                snapshot.getAll(List.of(b("c"), b("ba"), b("b"))).stream().map(TestBytes::s).toList());
        List<String> seen = new ArrayList<>();
        try (KvIterator it = snapshot.scan(b("b"), b("c"), false)) {
            it.forEachRemaining(kv -> seen.add(s(kv.key()) + "=" + s(kv.value())));
        }
        assertEquals(List.of("b=y", "bb=phantom"), seen);
        assertEquals("later", s(client.get(b("c"))));
        snapshot.close();
        assertThrows(IllegalStateException.class, () -> snapshot.get(b("c")));

        assertTrue(client.delete(b("a"), Durability.SYNC));
        assertFalse(cluster.nodes.get(follower).delete(b("a"), Durability.SYNC));
        assertNull(cluster.nodes.get(leader).get(b("a")));
    }

    @Test
    void scansPageThroughTheLeaderInBothDirections() throws Exception {
        cluster = new TestCluster(dir, 3);
        cluster.startAll();
        cluster.awaitLeader();
        client = cluster.client(Duration.ofSeconds(15));
        int n = GroupStore.PAGE_SIZE * 2 + 37;
        WriteBatch batch = new WriteBatch();
        for (int i = 0; i < n; i++) {
            batch.put(b(String.format("k%05d", i)), b("v" + i));
        }
        client.write(batch, Durability.SYNC);

        // The store also holds the range's descriptor, twice: the replica's own and the meta range's copy, in
        // keyspace 0 (below every table's key). An open scan meets them first.
        TestCluster.await(() -> client.get(MetaKeys.descriptorKey(null)) != null, "the meta range holds the descriptor");
        List<String> all = keys(client.scan(null, null));
        assertEquals(n + RANGE_KEYS, all.size());
        List<String> up = all.subList(RANGE_KEYS, all.size());
        assertEquals(n, up.size());
        assertEquals("k00000", up.get(0));
        assertEquals(String.format("k%05d", n - 1), up.get(n - 1));
        for (int i = 1; i < n; i++) {
            assertTrue(up.get(i - 1).compareTo(up.get(i)) < 0, "ascending at " + i);
        }
        List<String> down = keys(client.scanDescending(b("k00100"), b("k01000")));
        assertEquals(900, down.size());
        assertEquals("k00999", down.get(0));
        assertEquals("k00100", down.get(899));
        for (RaftNode node : cluster.nodes) {
            assertEquals(n + RANGE_KEYS, keys(node.scan(null, null)).size(), "scan on " + node.status());
        }
        assertEquals(n + RANGE_KEYS, client.stats().keys());
        // A cursor steps through the same pages in place, on the client and on a member.
        assertEquals(pairs(client.scan(b("k00100"), b("k01000"))), pairs(client.cursor(b("k00100"), b("k01000"))));
        assertEquals(pairs(client.scanDescending(b("k00100"), b("k01000"))),
                pairs(client.cursorDescending(b("k00100"), b("k01000"))));
        RaftNode member = cluster.nodes.get(1);
        assertEquals(pairs(member.scan(null, null)), pairs(member.cursor(null, null)));
    }

    private static List<String> pairs(KvIterator it) {
        List<String> pairs = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                pairs.add(s(kv.key()) + "=" + s(kv.value()));
            }
        }
        return pairs;
    }

    private static List<String> pairs(KvCursor c) {
        List<String> pairs = new ArrayList<>();
        try (c) {
            while (c.next()) {
                pairs.add(s(c.key()) + "=" + s(c.value()));
            }
        }
        return pairs;
    }

    /** The range descriptor's keys in the store: the replica's own, and the copy in the meta range. */
    static final int RANGE_KEYS = 2;

    private static List<String> keys(KvIterator it) {
        List<String> keys = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                keys.add(s(kv.key()));
            }
        }
        return keys;
    }

    @Test
    void localReadsOnAMemberSeeItsAppliedState() throws Exception {
        cluster = new TestCluster(dir, 3);
        cluster.startAll();
        int leader = cluster.awaitLeader();
        cluster.nodes.get(leader).put(b("k"), b("v"), Durability.SYNC);
        RaftNode follower = cluster.nodes.get((leader + 1) % 3);
        try (KvStore local = RaftGroupClient.connect(TestCluster.GROUP, cluster.peers(), Duration.ofSeconds(15),
                ReadConsistency.LOCAL)) {
            assertEquals("v", s(local.get(b("k"))), "a local read on the leader sees its own applied write");
        }
        TestCluster.await(() -> follower.status().appliedIndex() >= cluster.nodes.get(leader).status().appliedIndex(),
                "the follower applies the write");
        assertEquals("v", s(follower.get(b("k"))));
    }

    @Test
    void theGroupViewListsEveryMemberWithItsRole() throws Exception {
        cluster = new TestCluster(dir, 3);
        cluster.startAll();
        int leader = cluster.awaitLeader();
        client = cluster.client(Duration.ofSeconds(15));
        client.put(b("k"), b("v"), Durability.SYNC);
        long applied = cluster.nodes.get(leader).status().appliedIndex();

        List<RaftStatus> rows = ((RaftGroupView) client).members();
        assertEquals(3, rows.size(), rows.toString());
        assertEquals(1, rows.stream().filter(r -> r.role().equals("LEADER")).count(), rows.toString());
        for (RaftStatus r : rows) {
            assertEquals(cluster.addresses.get(leader), r.leader(), r.toString());
            assertTrue(r.term() >= 1 && r.lastLogIndex() >= applied && r.firstLogIndex() == 1, r.toString());
        }
        int follower = (leader + 1) % 3;
        String stopped = cluster.addresses.get(follower);
        cluster.stop(follower);
        List<RaftStatus> after = cluster.nodes.get(leader).members();
        assertEquals("UNREACHABLE", after.stream().filter(r -> r.node().equals(stopped)).findFirst().orElseThrow().role());
        RaftStatus self = cluster.nodes.get(leader).status();
        assertEquals("LEADER", self.role());
        assertTrue(self.appliedIndex() >= applied && self.commitIndex() >= applied, self.toString());

        // no majority left: no leader needed to list the rows that can be known, at once
        cluster.stop((leader + 2) % 3);
        long start = System.nanoTime();
        List<RaftStatus> alone = cluster.nodes.get(leader).members();
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "not waiting for a leader");
        assertEquals(3, alone.size(), alone.toString());
        assertEquals(2, alone.stream().filter(r -> r.role().equals("UNREACHABLE")).count(), alone.toString());
        assertEquals(cluster.addresses.get(leader), alone.stream().filter(r -> r.term() >= 1).findFirst()
                .orElseThrow().node(), alone.toString());
        List<RaftStatus> fromClient = ((RaftGroupView) client).members();
        assertEquals(alone.stream().map(RaftStatus::node).toList(), fromClient.stream().map(RaftStatus::node).toList());
    }

    @Test
    void anUnreachableGroupFailsWithinTheTimeout() throws Exception {
        String nobody = "127.0.0.1:" + TestCluster.freePort();
        try (KvStore store = RaftGroupClient.connect("nobody", nobody, Duration.ofMillis(800))) {
            long start = System.nanoTime();
            ReplicationException e = assertThrows(ReplicationException.class,
                    () -> store.put(b("k"), b("v"), Durability.SYNC));
            assertEquals(ReplicationException.Kind.UNAVAILABLE, e.kind());
            assertTrue(e.getMessage().contains("nobody"), e.getMessage());
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(10), "bounded by the request timeout");
            assertThrows(ReplicationException.class, () -> store.get(b("k")));
        }
    }

    /** The requests {@code store} (a thin client) has sent ({@code kegdb.raft.client.requests}). */
    private static long requests(KvStore store) {
        return (long) store.meters().stream().filter(m -> m.name().equals("kegdb.raft.client.requests")).findFirst()
                .orElseThrow().read();
    }
}
