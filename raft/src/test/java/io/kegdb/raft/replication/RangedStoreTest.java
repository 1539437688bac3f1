package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.CliOptions;
import com.alipay.sofa.jraft.rpc.impl.cli.CliClientServiceImpl;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvSnapshot;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.SnapshotTooOldException;
import io.kegdb.engine.UnsupportedStoreOperationException;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.PeerList;
import io.kegdb.raft.RangeHost;
import io.kegdb.raft.RangeStatus;
import io.kegdb.raft.ReadConsistency;
import io.kegdb.raft.TwoTableRange;
import io.kegdb.raft.TestCluster;
import io.kegdb.raft.range.CatalogFence;
import io.kegdb.raft.range.RangeDescriptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client's store over the ranges of a split cluster (docs/SCALE.md, "Routing"), on three {@link RangeHost}s
 * in this JVM: range 1 of group {@code kg} holding two tables' keys splits between them, and one
 * {@link RangedStore}, its routes from before the split, reads, scans, counts and writes both ranges, each request
 * counted by the group it went to.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RangedStoreTest {

    @TempDir
    Path dir;

    private final List<String> addresses = new ArrayList<>();
    private final List<RangeHost> hosts = new ArrayList<>();
    private final List<KvStore> clients = new ArrayList<>();

    /** Every request a client sent, and every answer's status. */
    static final class Counting implements Transport {
        private final Transport real;
        final List<KvRequest> requests = new CopyOnWriteArrayList<>();
        final List<Byte> answers = new CopyOnWriteArrayList<>();
        /** Answers a request in the node's place when it returns an answer (once armed), else null. */
        volatile java.util.function.Function<KvRequest, KvResponse> forge = r -> null;

        Counting(Transport real) {
            this.real = real;
        }

        @Override
        public KvResponse send(PeerId target, KvRequest request, long timeoutMs) throws Exception {
            requests.add(request);
            KvResponse forged = forge.apply(request);
            KvResponse r = forged != null ? forged : real.send(target, request, timeoutMs);
            answers.add(r.status);
            return r;
        }

        long to(String group) {
            return requests.stream().filter(r -> group.equals(r.group) && r.op != KvRequest.STATUS).count();
        }

        long answered(byte status) {
            return answers.stream().filter(a -> a == status).count();
        }

        void reset() {
            requests.clear();
            answers.clear();
        }
    }

    @BeforeEach
    void start() throws Exception {
        for (int i = 0; i < 3; i++) {
            addresses.add("127.0.0.1:" + TestCluster.freePort());
        }
        for (int i = 0; i < 3; i++) {
            RangeHost host = RangeHost.start(addresses.get(i), dir.resolve("host-" + i));
            host.host(NAME, String.join(",", addresses), TestCluster.ELECTION_TIMEOUT_MS);
            hosts.add(host);
        }
        leaderOf(NAME);
    }

    @AfterEach
    void stop() {
        clients.forEach(KvStore::close);
        hosts.forEach(RangeHost::close);
    }

    private RangeHost leaderOf(String group) throws InterruptedException {
        TestCluster.await(() -> hosts.stream().filter(h -> h.isLeader(group)).count() == 1, "group " + group
                + " has a leader");
        return hosts.stream().filter(h -> h.isLeader(group)).findFirst().orElseThrow();
    }

    /** A client of the cluster through {@code transport}: a ranged store, or (plain) the group store of range 1. */
    private KvStore client(Counting[] transport, boolean ranged) {
        CliClientServiceImpl cli = new CliClientServiceImpl();
        cli.init(new CliOptions());
        Counting counting = new Counting(new RpcTransport(cli.getRpcClient()));
        transport[0] = counting;
        Configuration conf = PeerList.parse(String.join(",", addresses));
        KvStore store = ranged
                ? new RangedStore(NAME, conf.getPeers(), counting, (group, nodes) -> new LeaderLookup(group, nodes,
                counting), 15_000, ReadConsistency.LINEARIZABLE, cli::shutdown)
                : new GroupStore(NAME, new GroupCaller(NAME, counting, new LeaderLookup(NAME, conf, counting), 15_000),
                null, conf.getPeers(), ReadConsistency.LINEARIZABLE, cli::shutdown);
        clients.add(store);
        return store;
    }

    /** Splits range 1 at {@link TwoTableRange#AT} (table 9's keyspace) and waits until range 2 has a leader. */
    private void split() throws Exception {
        leaderOf(NAME).split(NAME, AT);
        for (RangeHost h : hosts) {
            TestCluster.await(() -> h.groups().contains(RIGHT), h + " hosts " + RIGHT);
        }
        leaderOf(RIGHT);
    }

    private static List<byte[]> keys(KvIterator it) {
        List<byte[]> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                out.add(it.next().key());
            }
        }
        return out;
    }

    /** The keys of tables 5 and 9 with n in {@code [from, to)}, in key order. */
    private static List<byte[]> expected(int from, int to) {
        List<byte[]> out = new ArrayList<>();
        for (int table : new int[]{5, 9}) {
            for (int n = from; n < to; n++) {
                out.add(key(table, n));
            }
        }
        return out;
    }

    private static void assertKeys(List<byte[]> expected, List<byte[]> actual) {
        assertEquals(expected.size(), actual.size(), "number of keys");
        for (int i = 0; i < expected.size(); i++) {
            assertArrayEquals(expected.get(i), actual.get(i), "key " + i);
        }
    }

    @Test
    void aClientRoutedBeforeTheSplitReadsAndScansBothRangesInKeyOrder() throws Exception {
        Counting[] t = new Counting[1];
        KvStore store = client(t, true);
        store.write(rows(), Durability.SYNC); // one range yet: range 1 takes every key
        split();
        t[0].reset();

        // a point read of a moved key: range 1 answers stale, the route is refreshed, range 2 answers
        assertArrayEquals(value(9, 7), store.get(key(9, 7)));
        assertEquals(1, t[0].answered(KvResponse.STALE_ROUTE), "one stale answer, retried invisibly");
        assertArrayEquals(value(5, 7), store.get(key(5, 7)));

        assertKeys(expected(0, ROWS), keys(store.scan(keyspace(5), keyspace(10))));
        List<byte[]> descending = expected(0, ROWS);
        java.util.Collections.reverse(descending);
        assertKeys(descending, keys(store.scanDescending(keyspace(5), keyspace(10))));
        assertKeys(descending, keys(store.scanDescending(keyspace(5), null)));

        // bounds inside each range: [5:10, 9:20)
        List<byte[]> inside = new ArrayList<>();
        for (int n = 10; n < ROWS; n++) {
            inside.add(key(5, n));
        }
        for (int n = 0; n < 20; n++) {
            inside.add(key(9, n));
        }
        assertKeys(inside, keys(store.scan(key(5, 10), key(9, 20))));
        java.util.Collections.reverse(inside);
        assertKeys(inside, keys(store.scanDescending(key(5, 10), key(9, 20))));
        assertKeys(List.of(), keys(store.scan(key(9, 20), key(5, 10))));

        assertEquals(2L * ROWS, store.countKeys(keyspace(5), keyspace(10)));
        assertEquals(ROWS + 20L, store.countKeys(key(5, 0), key(9, 20)));

        // a multi-get across both ranges, in the caller's order, absent keys and repeats included
        List<byte[]> asked = List.of(key(9, 3), key(5, 4), key(9, 999), key(5, 4), key(9, 49));
        List<byte[]> values = store.getAll(asked);
        assertArrayEquals(value(9, 3), values.get(0));
        assertArrayEquals(value(5, 4), values.get(1));
        assertNull(values.get(2));
        assertArrayEquals(value(5, 4), values.get(3));
        assertArrayEquals(value(9, 49), values.get(4));
        assertTrue(store.contains(key(9, 1)));

        // SYS.RANGES' rows: both ranges, each with its own group's leader
        List<RangeStatus> ranges = ((RangedStore) store).ranges();
        assertEquals(2, ranges.size());
        assertEquals(1, ranges.get(0).id());
        assertEquals(2, ranges.get(1).id());
        assertTrue(addresses.contains(ranges.get(1).leader()), "range 2's leader: " + ranges.get(1).leader());
    }

    @Test
    void scansAndMultiGetsRoutedBeforeTheSplitAreRoutedAgainInvisibly() throws Exception {
        Counting[][] t = new Counting[3][1];
        KvStore[] stores = {client(t[0], true), client(t[1], true), client(t[2], true)};
        stores[0].write(rows(), Durability.SYNC);
        for (KvStore s : stores) {
            assertArrayEquals(value(5, 0), s.get(key(5, 0))); // each routes by range 1 over every key
        }
        split();
        for (Counting[] c : t) {
            c[0].reset();
        }
        assertKeys(expected(0, ROWS), keys(stores[0].scan(keyspace(5), keyspace(10))));
        List<byte[]> descending = expected(0, ROWS);
        java.util.Collections.reverse(descending);
        assertKeys(descending, keys(stores[1].scanDescending(keyspace(5), keyspace(10))));
        List<byte[]> values = stores[2].getAll(List.of(key(5, 2), key(9, 2), key(5, 3)));
        assertArrayEquals(value(5, 2), values.get(0));
        assertArrayEquals(value(9, 2), values.get(1));
        assertArrayEquals(value(5, 3), values.get(2));
        for (Counting[] c : t) {
            assertEquals(1, c[0].answered(KvResponse.STALE_ROUTE), "one stale answer, then the new routes");
            assertTrue(c[0].to(RIGHT) >= 1, "range 2 read on its own group");
        }
    }

    @Test
    void aNodeWithoutTheRangeSendsTheClientToTheMetaRange() throws Exception {
        Counting[] t = new Counting[1];
        KvStore store = client(t, true);
        store.write(rows(), Durability.SYNC);
        split();
        assertArrayEquals(value(9, 1), store.get(key(9, 1))); // range 2's route learned
        java.util.concurrent.atomic.AtomicBoolean armed = new java.util.concurrent.atomic.AtomicBoolean(true);
        t[0].forge = r -> r.op == KvRequest.GET && RIGHT.equals(r.group) && armed.getAndSet(false)
                ? KvResponse.of(KvResponse.NO_RANGE, "no replica of range 2 here (forged)") : null;
        t[0].reset();
        assertArrayEquals(value(9, 2), store.get(key(9, 2)));
        assertEquals(1, t[0].answered(KvResponse.NO_RANGE));
        assertEquals(1, t[0].requests.stream().filter(r -> r.op == KvRequest.SCAN && NAME.equals(r.group)).count(),
                "one lookup in the meta range");
        assertEquals(2, t[0].to(RIGHT), "the refused read and its resend");
    }

    @Test
    void aScanStoppedEarlyReadsNoFurtherRange() throws Exception {
        Counting[] t = new Counting[1];
        KvStore store = client(t, true);
        store.write(rows(), Durability.SYNC);
        split();
        store.get(key(9, 0)); // routes learned
        t[0].reset();
        try (KvIterator it = store.scan(keyspace(5), null)) {
            for (int n = 0; n < 3; n++) {
                assertArrayEquals(key(5, n), it.next().key());
            }
        }
        assertEquals(1, t[0].to(NAME), "one page of range 1");
        assertEquals(0, t[0].to(RIGHT), "range 2 not read: the scan stopped before it");

        t[0].reset();
        try (KvIterator it = store.scan(keyspace(5), null)) {
            for (int n = 0; n < ROWS; n++) {
                it.next();
            }
            assertEquals(0, t[0].to(RIGHT), "range 1's pairs all returned, range 2 not read yet");
            KeyValue first = it.next();
            assertArrayEquals(key(9, 0), first.key());
            assertEquals(1, t[0].to(RIGHT));
        }
    }

    @Test
    void writesGoToTheRangeHoldingTheirKeysAndABatchAcrossRangesIsRefusedWhole() throws Exception {
        Counting[] t = new Counting[1];
        KvStore store = client(t, true);
        store.write(rows(), Durability.SYNC);
        store.put(CatalogFence.VERSION_KEY, catalogEntry(3), Durability.SYNC);
        split();

        store.put(key(9, 500), value(9, 500), Durability.SYNC);
        store.put(key(5, 500), value(5, 500), Durability.SYNC);
        assertArrayEquals(value(9, 500), leaderOf(RIGHT).store(RIGHT).get(key(9, 500)), "in range 2's group");
        assertArrayEquals(value(5, 500), leaderOf(NAME).store(NAME).get(key(5, 500)), "in range 1's group");
        assertTrue(store.delete(key(9, 500), Durability.SYNC));
        assertNull(store.get(key(9, 500)));

        // the catalog precondition every SQL write carries goes with the range of the batch's keys
        store.write(new WriteBatch().put(key(9, 501), value(9, 501))
                .expect(CatalogFence.VERSION_KEY, catalogEntry(3)),
                Durability.SYNC);
        assertArrayEquals(value(9, 501), store.get(key(9, 501)));

        t[0].reset();
        WriteBatch across = new WriteBatch().put(key(5, 600), value(5, 600)).put(key(9, 600), value(9, 600));
        UnsupportedStoreOperationException refused = assertThrows(UnsupportedStoreOperationException.class,
                () -> store.write(across, Durability.SYNC));
        assertEquals(UnsupportedStoreOperationException.WRITE_ACROSS_RANGES, refused.operation());
        assertTrue(refused.getMessage().contains("range 1 [, \\x00\\x00\\x00\\x09)")
                && refused.getMessage().contains("range 2 [\\x00\\x00\\x00\\x09, end)"), refused.getMessage());
        assertEquals(0, t[0].requests.stream().filter(r -> r.op == KvRequest.WRITE).count(), "nothing was sent");
        assertNull(store.get(key(5, 600)));
        assertNull(store.get(key(9, 600)));
        // a span precondition across the split is a batch across ranges too
        assertThrows(UnsupportedStoreOperationException.class, () -> store.write(new WriteBatch()
                .put(key(5, 601), value(5, 601)).expectRange(keyspace(5), keyspace(10), 0), Durability.SYNC));
        assertNull(store.get(key(5, 601)));
    }

    @Test
    void aSnapshotReadsOneRangeAndRefusesASecond() throws Exception {
        Counting[] t = new Counting[1];
        KvStore store = client(t, true);
        store.write(rows(), Durability.SYNC);
        KvSnapshot beforeTheSplit = store.snapshot(); // one range: taken at once, on range 1
        assertArrayEquals(value(9, 1), beforeTheSplit.get(key(9, 1)));
        split();
        // range 1 changed under it: its reads are refused as stale, which the snapshot reports as too old
        assertThrows(SnapshotTooOldException.class, () -> beforeTheSplit.get(key(5, 1)));
        assertThrows(SnapshotTooOldException.class, () -> beforeTheSplit.get(key(9, 1)));
        beforeTheSplit.close();
        store.get(key(9, 0));
        try (KvSnapshot snapshot = store.snapshot()) {
            // several ranges: the snapshot is taken by its first read, on that read's range
            assertArrayEquals(value(5, 1), snapshot.get(key(5, 1)));
            store.put(key(5, 1), value(5, 999), Durability.SYNC);
            assertArrayEquals(value(5, 1), snapshot.get(key(5, 1)), "as of the snapshot");
            assertKeys(expected(0, ROWS).subList(0, ROWS), keys(snapshot.scan(keyspace(5), keyspace(6), false)));
            UnsupportedStoreOperationException across = assertThrows(UnsupportedStoreOperationException.class,
                    () -> snapshot.get(key(9, 1)));
            assertEquals(UnsupportedStoreOperationException.SNAPSHOT_ACROSS_RANGES, across.operation());
        }
    }

    /** The same work through a plain group store and through a ranged store of one range: the same requests. */
    @Test
    void oneRangeCostsNoExtraRequest() throws Exception {
        long[] counts = new long[2];
        for (int ranged = 0; ranged < 2; ranged++) {
            Counting[] t = new Counting[1];
            KvStore store = client(t, ranged == 1);
            int base = ranged * 1000;
            store.put(key(11, base), value(11, base), Durability.SYNC);
            store.write(rows(), Durability.SYNC);
            assertArrayEquals(value(5, 3), store.get(key(5, 3)));
            assertEquals(2, store.getAll(List.of(key(5, 1), key(9, 1))).size());
            assertEquals(2L * ROWS, store.countKeys(keyspace(5), keyspace(10)));
            assertEquals(2 * ROWS, keys(store.scan(keyspace(5), keyspace(10))).size());
            try (KvSnapshot s = store.snapshot()) {
                assertArrayEquals(value(9, 3), s.get(key(9, 3)));
            }
            counts[ranged] = t[0].requests.stream().filter(r -> r.op != KvRequest.STATUS).count();
            assertEquals(0, t[0].answered(KvResponse.STALE_ROUTE));
        }
        assertEquals(counts[0], counts[1], "requests of a group store and of a ranged store of one range");
    }
}
