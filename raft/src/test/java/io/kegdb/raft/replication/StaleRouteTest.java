package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.CliOptions;
import com.alipay.sofa.jraft.rpc.impl.cli.CliClientServiceImpl;
import io.kegdb.engine.Durability;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.PeerList;
import io.kegdb.raft.ReadConsistency;
import io.kegdb.raft.TestCluster;
import io.kegdb.raft.range.MetaKeys;
import io.kegdb.raft.range.RangeDescriptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static io.kegdb.raft.TestBytes.b;
import static io.kegdb.raft.TestBytes.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Every request names its range and generation; a replica checks a read when it serves it and a write when it
 * applies it. A write under a stale route is applied as a no-op and answered STALE_ROUTE, which the session
 * table remembers, and the client's resend after the refresh lands exactly once (the log replayed says so).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class StaleRouteTest {

    @TempDir
    Path dir;

    private TestCluster cluster;
    private CliClientServiceImpl cli;
    private Recording transport;
    private GroupCaller caller;
    private GroupStore store;
    private RangeDescriptor current;

    /** Records the status of every answer; once armed, loses the answer of the next write after it arrived. */
    static final class Recording implements Transport {
        private final Transport real;
        final List<Byte> answers = new CopyOnWriteArrayList<>();
        volatile boolean loseNextWriteAnswer;

        Recording(Transport real) {
            this.real = real;
        }

        @Override
        public KvResponse send(PeerId target, KvRequest request, long timeoutMs) throws Exception {
            KvResponse r = real.send(target, request, timeoutMs);
            answers.add(r.status);
            if (request.op == KvRequest.WRITE && loseNextWriteAnswer) {
                loseNextWriteAnswer = false;
                throw new IOException("connection reset (the answer of " + target + " was lost)");
            }
            return r;
        }

        long count(byte status) {
            return answers.stream().filter(a -> a == status).count();
        }
    }

    @BeforeEach
    void start() throws Exception {
        cluster = new TestCluster(dir, 3);
        cluster.startAll();
        cluster.awaitLeader();
        cli = new CliClientServiceImpl();
        cli.init(new CliOptions());
        Configuration conf = PeerList.parse(cluster.peers());
        transport = new Recording(new RpcTransport(cli.getRpcClient()));
        caller = new GroupCaller(TestCluster.GROUP, transport, new LeaderLookup(TestCluster.GROUP, conf, transport), 15_000);
        store = new GroupStore(TestCluster.GROUP, caller, null, conf.getPeers(), ReadConsistency.LINEARIZABLE, cli::shutdown);
        TestCluster.await(() -> store.get(MetaKeys.descriptorKey(null)) != null, "the meta range holds the descriptor");
        current = RangeDescriptor.decode(store.get(MetaKeys.descriptorKey(null)));
    }

    @AfterEach
    void stop() {
        if (store != null) {
            store.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** {@link #current} with another generation: what a client holding a route from another time has. */
    private RangeDescriptor withGeneration(long generation) {
        return new RangeDescriptor(current.id(), current.start(), current.end(), generation, current.replicaVersion(),
                current.replicas());
    }

    @Test
    void aWriteUnderAStaleGenerationIsANoOpAndItsResendLandsOnce() throws Exception {
        caller.route(withGeneration(0));
        store.put(b("k"), b("v1"), Durability.SYNC);
        assertEquals(1, transport.count(KvResponse.STALE_ROUTE), "one answer said the route was stale");
        assertEquals(current, caller.route(), "refreshed from the answer");
        assertEquals("v1", s(store.get(b("k"))));

        // A route from a later generation than the replica's (it has not applied a change yet) is stale too.
        caller.route(withGeneration(2));
        store.put(b("k"), b("v2"), Durability.SYNC);
        assertEquals(2, transport.count(KvResponse.STALE_ROUTE));
        assertEquals("v2", s(store.get(b("k"))));

        assertEquals(List.of(false, true, false, true), appliedWritesOf(b("k")),
                "each stale entry applied as a no-op, each resend once");
    }

    @Test
    void aStaleRouteAnswerIsRememberedSoAResendOfTheSameRequestIsNotApplied() throws Exception {
        caller.route(withGeneration(0));
        transport.loseNextWriteAnswer = true; // the stale answer never reaches the client: it sends the same request
        store.write(new WriteBatch().put(b("x"), b("1")), Durability.SYNC);
        assertEquals("1", s(store.get(b("x"))));
        assertEquals(2, transport.count(KvResponse.STALE_ROUTE), "the lost answer and the remembered one");
        List<Boolean> applied = appliedWritesOf(b("x"));
        assertEquals(List.of(false, false, true), applied, "the same request twice as a no-op, its resend once");
    }

    @Test
    void aReadUnderAStaleRouteIsRefreshedInvisibly() {
        store.put(b("r"), b("v"), Durability.SYNC);
        caller.route(withGeneration(7));
        assertEquals("v", s(store.get(b("r"))));
        caller.route(withGeneration(7));
        assertEquals(1, countOf(store.scan(b("r"), b("s"))));
        assertEquals(2, transport.count(KvResponse.STALE_ROUTE));
        assertEquals(current, caller.route());
    }

    @Test
    void aNodeWithoutTheNamedRangeAnswersNoRangeAndTheClientLooksTheRouteUp() throws Exception {
        store.put(b("n"), b("v"), Durability.SYNC);
        PeerId leader = new LeaderLookup(TestCluster.GROUP, PeerList.parse(cluster.peers()), transport).find(5_000);
        assertNotNull(leader);
        KvRequest get = KvRequest.get(TestCluster.GROUP, b("n"), false);
        get.rangeId = 9;
        get.generation = 1;
        assertEquals(KvResponse.NO_RANGE, transport.send(leader, get, 5_000).status);

        caller.route(new RangeDescriptor(9, new byte[0], null, 1, 1, List.of()));
        assertEquals("v", s(store.get(b("n"))));
        assertEquals(current, caller.route(), "looked up in the meta range");
        caller.route(new RangeDescriptor(9, new byte[0], null, 1, 1, List.of()));
        store.put(b("n"), b("w"), Durability.SYNC);
        assertEquals("w", s(store.get(b("n"))));
        assertEquals(List.of(true, true), appliedWritesOf(b("n")), "NO_RANGE is answered before the log");
    }

    @Test
    void aClientFromBeforeRangesIsServedAsRangeOne() throws Exception {
        PeerId leader = new LeaderLookup(TestCluster.GROUP, PeerList.parse(cluster.peers()), transport).find(5_000);
        KvRequest write = KvRequest.write(TestCluster.GROUP, BatchCodec.encode(new WriteBatch().put(b("o"), b("old"))),
                new SessionId(0, 0), 0);
        write.version = 0; // no session, no range: logged as a bare batch, checked against the bounds at apply
        assertEquals(KvResponse.OK, transport.send(leader, write, 5_000).status);
        KvRequest get = KvRequest.get(TestCluster.GROUP, b("o"), false);
        KvResponse read = transport.send(leader, get, 5_000);
        assertEquals(KvResponse.OK, read.status);
        assertEquals("old", s(read.value));
    }

    private static int countOf(io.kegdb.engine.KvIterator it) {
        try (it) {
            int n = 0;
            while (it.hasNext()) {
                it.next();
                n++;
            }
            return n;
        }
    }

    /**
     * Stops every node, then replays the longest log (a follower may have missed the last entries): for each
     * write entry putting {@code key}, in log order, whether it applied.
     */
    private List<Boolean> appliedWritesOf(byte[] key) throws IOException {
        store.close();
        store = null;
        Path root = cluster.root;
        int nodes = cluster.nodes.size();
        cluster.close();
        cluster = null;
        List<LogReplay.Write> longest = List.of();
        for (int i = 0; i < nodes; i++) {
            List<LogReplay.Write> writes = LogReplay.replay(root.resolve("node-" + i).resolve("log"), Long.MAX_VALUE);
            if (writes.size() > longest.size()) {
                longest = writes;
            }
        }
        List<Boolean> applied = new ArrayList<>();
        for (LogReplay.Write w : longest) {
            if (puts(w.batch(), key)) {
                applied.add(w.applied());
            }
        }
        return applied;
    }

    private static boolean puts(WriteBatch batch, byte[] key) {
        boolean[] found = {false};
        batch.replay(new WriteBatch.Handler() {
            @Override
            public void put(byte[] k, byte[] value) {
                found[0] |= Arrays.equals(k, key);
            }

            @Override
            public void delete(byte[] k) {
            }

            @Override
            public void putIfAbsent(byte[] k, byte[] value) {
            }

            @Override
            public void expect(byte[] k, byte[] value) {
            }

            @Override
            public void expectPresent(byte[] k) {
            }

            @Override
            public void expectRange(byte[] from, byte[] to, long digest) {
            }
        });
        return found[0];
    }
}
