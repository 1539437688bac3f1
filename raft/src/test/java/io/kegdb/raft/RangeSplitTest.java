package io.kegdb.raft;

import com.alipay.sofa.jraft.Node;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import io.kegdb.engine.WriteConflictException;
import io.kegdb.raft.range.CatalogFence;
import io.kegdb.raft.range.MetaKeys;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.SplitCommand;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static io.kegdb.raft.TwoTableRange.AT;
import static io.kegdb.raft.TwoTableRange.NAME;
import static io.kegdb.raft.TwoTableRange.catalogEntry;
import static io.kegdb.raft.TwoTableRange.RIGHT;
import static io.kegdb.raft.TwoTableRange.ROWS;
import static io.kegdb.raft.TwoTableRange.key;
import static io.kegdb.raft.TwoTableRange.keyspace;
import static io.kegdb.raft.TwoTableRange.rows;
import static io.kegdb.raft.TwoTableRange.value;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A split in a range's own log, on three hosts in this JVM (docs/SCALE.md, "Splits"): range 1 of a group
 * holding two tables' keys splits between them; every key is then served by exactly its range's group, a write
 * of a moved key sent to the old range is refused, the new range takes writes, its catalog fence follows the
 * catalog, and replicas restarted (from the log, from a snapshot) or away during the split hold both ranges.
 */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class RangeSplitTest {

    @TempDir
    Path dir;

    private final List<String> addresses = new ArrayList<>();
    private final List<RangeHost> hosts = new ArrayList<>();

    @AfterEach
    void stop() {
        hosts.stream().filter(h -> h != null).forEach(RangeHost::close);
    }

    private String peers() {
        return String.join(",", addresses);
    }

    private RangeHost start(int i) throws Exception {
        RangeHost host = RangeHost.start(addresses.get(i), dir.resolve("host-" + i));
        host.host(NAME, peers(), TestCluster.ELECTION_TIMEOUT_MS);
        hosts.set(i, host);
        return host;
    }

    private void stopHost(int i) {
        hosts.get(i).close();
        hosts.set(i, null);
    }

    private RangeHost leaderOf(String group) throws InterruptedException {
        TestCluster.await(() -> hosts.stream().filter(h -> h != null && h.isLeader(group)).count() == 1,
                "group " + group + " has a leader");
        return hosts.stream().filter(h -> h != null && h.isLeader(group)).findFirst().orElseThrow();
    }

    /** Three hosts of group {@link #NAME}, holding the catalog at version 3 and ROWS keys of tables 5 and 9. */
    private RangeHost startWithData() throws Exception {
        for (int i = 0; i < 3; i++) {
            addresses.add("127.0.0.1:" + TestCluster.freePort());
            hosts.add(null);
        }
        for (int i = 0; i < 3; i++) {
            start(i);
        }
        RangeHost leader = leaderOf(NAME);
        KvStore store = leader.store(NAME);
        store.put(CatalogFence.VERSION_KEY, catalogEntry(3), Durability.SYNC);
        store.write(rows(), Durability.SYNC);
        return leader;
    }

    private void awaitHosted(RangeHost host, String group) throws InterruptedException {
        TestCluster.await(() -> host.groups().contains(group), host + " hosts " + group);
    }

    private static void awaitValue(KvStore store, byte[] key, byte[] expected) throws InterruptedException {
        TestCluster.await(() -> {
            try {
                return Arrays.equals(expected, store.get(key));
            } catch (RuntimeException notYet) {
                return false;
            }
        }, "the value of " + Arrays.toString(key));
    }

    @Test
    void aSplitRangeServesEveryKeyFromExactlyItsGroup() throws Exception {
        RangeHost leader = startWithData();
        RangeDescriptor[] halves = leader.split(NAME, AT);
        assertEquals(new RangeDescriptor(1, new byte[0], AT, 2, 1, halves[0].replicas()), halves[0]);
        assertEquals(2, halves[1].id(), "the meta range's first id");
        assertArrayEquals(AT, halves[1].start());
        assertNull(halves[1].end());
        assertEquals(2, halves[1].generation());
        assertEquals(3, halves[1].replicas().size());
        for (RangeHost h : hosts) {
            awaitHosted(h, RIGHT);
        }
        leaderOf(RIGHT);

        for (RangeHost h : hosts) {
            for (int n = 0; n < ROWS; n += 7) {
                assertArrayEquals(value(5, n), h.store(NAME).get(key(5, n)), "a key left of the split in range 1");
                awaitValue(h.store(RIGHT), key(9, n), value(9, n));
            }
        }
        // range 1 no longer holds the moved keys: reading or writing one there is a stale route, however often
        // the route is refreshed from range 1's answers
        assertThrows(ReplicationException.class, () -> leader.store(NAME).get(key(9, 1)));
        assertThrows(ReplicationException.class,
                () -> leader.store(NAME).put(key(9, 1000), value(9, 1000), Durability.SYNC));
        assertThrows(ReplicationException.class, () -> leader.store(RIGHT).get(key(5, 1)));
        assertNull(leader.store(RIGHT).get(key(9, 1000)), "the refused write went nowhere");

        // the new range takes writes on its own group, read from every replica
        hosts.get(1).store(RIGHT).put(key(9, 500), value(9, 500), Durability.SYNC);
        for (RangeHost h : hosts) {
            assertArrayEquals(value(9, 500), h.store(RIGHT).get(key(9, 500)));
        }

        // both ranges, with their bounds and generations, in the meta range (what SYS.RANGES lists)
        TestCluster.await(() -> leader.replica(NAME).ranges().size() == 2, "two ranges listed");
        List<RangeStatus> ranges = leader.replica(NAME).ranges();
        assertEquals(1, ranges.get(0).id());
        assertEquals("", ranges.get(0).start());
        assertEquals("\\x00\\x00\\x00\\x09", ranges.get(0).end());
        assertEquals(2, ranges.get(0).generation());
        assertEquals(2, ranges.get(1).id());
        assertEquals("\\x00\\x00\\x00\\x09", ranges.get(1).start());
        assertNull(ranges.get(1).end());
        assertEquals(2, ranges.get(1).generation());

        // a second split of the same range at its old generation is refused before anything is written
        assertThrows(IllegalArgumentException.class, () -> leaderOf(NAME).split(NAME, keyspace(10)),
                "10 is not inside range 1 any more");
        assertThrows(IllegalArgumentException.class, () -> leaderOf(NAME).split(NAME, new byte[]{0, 0, 0, 0, 7}),
                "the system span never splits");
    }

    @Test
    void theNewRangesCatalogFenceFollowsTheCatalogAndItsDrops() throws Exception {
        RangeHost leader = startWithData();
        leader.split(NAME, AT);
        for (RangeHost h : hosts) {
            awaitHosted(h, RIGHT);
        }
        KvStore right = leaderOf(RIGHT).store(RIGHT);
        // the fence the split copied: the catalog at version 3
        WriteConflictException stale = assertThrows(WriteConflictException.class, () -> right.write(new WriteBatch()
                .put(key(9, 600), value(9, 600)).expect(CatalogFence.VERSION_KEY, catalogEntry(2)), Durability.SYNC));
        assertArrayEquals(CatalogFence.VERSION_KEY, stale.key());
        right.write(new WriteBatch().put(key(9, 601), value(9, 601)).expect(CatalogFence.VERSION_KEY, catalogEntry(3)),
                Durability.SYNC);

        // a DROP of table 9 at version 4 in range 1 (as the SQL catalog writes it): range 2's fence follows
        // and deletes the table's pairs there, a write planned on version 3 included
        leaderOf(NAME).store(NAME).write(new WriteBatch().put(CatalogFence.VERSION_KEY, catalogEntry(4))
                .put(CatalogFence.dropKey(4), CatalogFence.encodeSpan(keyspace(9), keyspace(10))), Durability.SYNC);
        for (RangeHost h : hosts) {
            awaitValue(h.store(RIGHT), key(9, 601), null);
            assertNull(h.store(RIGHT).get(key(9, 1)));
        }
        assertThrows(WriteConflictException.class, () -> right.write(new WriteBatch()
                .put(key(9, 602), value(9, 602)).expect(CatalogFence.VERSION_KEY, catalogEntry(3)), Durability.SYNC));
        assertArrayEquals(value(5, 1), leader.store(NAME).get(key(5, 1)), "range 1's own tables untouched");
    }

    @Test
    void replicasRestartedAfterTheSplitHoldBothRanges() throws Exception {
        RangeHost leader = startWithData();
        leader.split(NAME, AT);
        for (RangeHost h : hosts) {
            awaitHosted(h, RIGHT);
        }
        leaderOf(RIGHT).store(RIGHT).put(key(9, 700), value(9, 700), Durability.SYNC);

        int replayed = hosts.indexOf(leader) == 0 ? 1 : 0; // a follower, restarted from its log
        int fromSnapshot = 3 - replayed - hosts.indexOf(leader);
        assertTrue(snapshot(hosts.get(fromSnapshot), NAME));
        stopHost(replayed);
        stopHost(fromSnapshot);
        for (int i : new int[]{replayed, fromSnapshot}) {
            RangeHost back = start(i);
            awaitHosted(back, RIGHT);
            awaitValue(back.store(RIGHT), key(9, 700), value(9, 700));
            awaitValue(back.store(NAME), key(5, 3), value(5, 3));
            TestCluster.await(() -> back.stateMachine(NAME).descriptor() != null
                    && back.stateMachine(NAME).descriptor().generation() == 2, "range 1 narrowed after the restart");
            assertArrayEquals(AT, back.stateMachine(NAME).descriptor().end());
            assertArrayEquals(AT, back.stateMachine(RIGHT).descriptor().start());
        }
        assertTrue(hosts.get(fromSnapshot).stateMachine(NAME).snapshotsLoaded() >= 1, "restarted from its snapshot");
        // the moved keys are in range 2's store, not in range 1's, on the restarted replicas too
        for (int i : new int[]{replayed, fromSnapshot}) {
            assertThrows(ReplicationException.class, () -> hosts.get(i).store(NAME).get(key(9, 1)));
        }
    }

    @Test
    void aReplicaAwayDuringTheSplitCatchesUpTheNewRangeByItsSnapshot() throws Exception {
        startWithData();
        int away = hosts.indexOf(leaderOf(NAME)) == 2 ? 1 : 2;
        stopHost(away);
        RangeHost leader = leaderOf(NAME);
        leader.split(NAME, AT);
        for (RangeHost h : hosts) {
            if (h != null) {
                awaitHosted(h, RIGHT);
            }
        }
        leaderOf(RIGHT).store(RIGHT).put(key(9, 800), value(9, 800), Durability.SYNC);
        leader.store(NAME).put(key(5, 800), value(5, 800), Durability.SYNC);
        // two snapshots of range 1 on both replicas: the log behind the first is gone, the split with it
        for (int round = 0; round < 2; round++) {
            for (RangeHost h : hosts) {
                if (h != null) {
                    assertTrue(snapshot(h, NAME));
                }
            }
            leader.store(NAME).put(key(5, 900 + round), value(5, 900), Durability.SYNC);
        }

        RangeHost back = start(away);
        awaitHosted(back, RIGHT);
        awaitValue(back.store(RIGHT), key(9, 800), value(9, 800));
        awaitValue(back.store(RIGHT), key(9, 3), value(9, 3));
        assertTrue(back.stateMachine(NAME).snapshotsLoaded() >= 1, "range 1 caught up by a snapshot");
        TestCluster.await(() -> back.stateMachine(RIGHT).snapshotsLoaded() >= 1, "range 2 sent by its leader as a snapshot");
        assertFalse(Files.exists(dir.resolve("host-" + away).resolve("groups").resolve(RIGHT).resolve("SPLIT_COMPLETE")),
                "this replica never made range 2 itself");
        TestCluster.await(() -> back.stateMachine(NAME).descriptor().generation() == 2, "range 1 narrowed");
    }

    @Test
    void aRangeLargerThanTheLimitSplitsUntilNoHalfIs() throws Exception {
        RangeHost leader = startWithData(); // 100 keys of two tables, and the catalog
        for (RangeHost h : hosts) {
            h.splitWhenLarger(40, Long.MAX_VALUE, 100);
        }
        KvStore meta = leader.store(NAME);
        TestCluster.await(() -> {
            try {
                List<RangeDescriptor> ranges = descriptors(meta);
                for (RangeDescriptor r : ranges) {
                    String group = SplitCommand.groupOf(NAME, r.id());
                    // listed as its replicas hold it (a split's meta copies come after its apply), and small
                    if (!hosts.stream().allMatch(h -> h.groups().contains(group) && r.equals(h.stateMachine(group)
                            .descriptor())) || leader.store(group).stats().keys() > 40) {
                        return false;
                    }
                }
                return ranges.size() >= 3;
            } catch (RuntimeException notYet) {
                return false;
            }
        }, "no range above the limit: no split is due");
        List<RangeDescriptor> ranges = descriptors(meta);
        for (int n = 0; n < ROWS; n++) {
            for (int table : new int[]{5, 9}) {
                byte[] k = key(table, n);
                RangeDescriptor holder = ranges.stream().filter(r -> r.contains(k)).findFirst().orElseThrow();
                assertArrayEquals(value(table, n), leader.store(SplitCommand.groupOf(NAME, holder.id())).get(k),
                        "read from the one range holding it, of " + ranges);
            }
        }
    }

    private static List<RangeDescriptor> descriptors(KvStore meta) {
        List<RangeDescriptor> out = new ArrayList<>();
        try (io.kegdb.engine.KvIterator it = meta.scan(MetaKeys.descriptorKey(new byte[0]), MetaKeys.descriptorsEnd())) {
            while (it.hasNext()) {
                out.add(RangeDescriptor.decode(it.next().value()));
            }
        }
        return out;
    }

    private static boolean snapshot(RangeHost host, String group) throws Exception {
        Node node = host.node(group);
        CompletableFuture<com.alipay.sofa.jraft.Status> done = new CompletableFuture<>();
        node.snapshot(done::complete);
        return done.get(30, TimeUnit.SECONDS).isOk();
    }
}
