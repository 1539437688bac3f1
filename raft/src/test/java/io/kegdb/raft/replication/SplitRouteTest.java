package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.CliOptions;
import com.alipay.sofa.jraft.rpc.impl.cli.CliClientServiceImpl;
import io.kegdb.engine.Durability;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.RangeHost;
import io.kegdb.raft.TestCluster;
import io.kegdb.raft.range.RangeDescriptor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A client holding the route from before a split sends a write of a moved key to the old range: applied as a
 * no-op and answered STALE_ROUTE carrying the range's new descriptor; the new range's group answers a request
 * naming the old range with NO_RANGE carrying its own.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SplitRouteTest {

    @TempDir
    Path dir;

    private final List<RangeHost> hosts = new ArrayList<>();
    private final CliClientServiceImpl cli = new CliClientServiceImpl();

    @AfterEach
    void stop() {
        cli.shutdown();
        hosts.forEach(RangeHost::close);
    }

    private static byte[] key(int table, int n) {
        return ByteBuffer.allocate(8).putInt(table).putInt(n).array();
    }

    @Test
    void aWriteOfAMovedKeyUnderTheOldRouteIsAnsweredWithTheNewDescriptor() throws Exception {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            addresses.add("127.0.0.1:" + TestCluster.freePort());
        }
        for (int i = 0; i < 3; i++) {
            RangeHost host = RangeHost.start(addresses.get(i), dir.resolve("host-" + i));
            hosts.add(host);
            host.host("kg", String.join(",", addresses), TestCluster.ELECTION_TIMEOUT_MS);
        }
        TestCluster.await(() -> hosts.stream().filter(h -> h.isLeader("kg")).count() == 1, "a leader");
        RangeHost leader = hosts.stream().filter(h -> h.isLeader("kg")).findFirst().orElseThrow();
        leader.store("kg").put(key(9, 1), new byte[]{1}, Durability.SYNC);
        RangeDescriptor[] halves = leader.split("kg", ByteBuffer.allocate(4).putInt(9).array());

        cli.init(new CliOptions());
        RpcTransport transport = new RpcTransport(cli.getRpcClient());
        PeerId at = PeerId.parsePeer(addresses.get(hosts.indexOf(leader)));
        SessionId session = new SessionId(42, 42);
        assertEquals(KvResponse.OK, transport.send(at, KvRequest.openSession("kg", session), 5_000).status);
        KvRequest write = KvRequest.write("kg", BatchCodec.encode(new WriteBatch().put(key(9, 2), new byte[]{2})),
                session, 1);
        write.rangeId = 1;
        write.generation = 1; // the route from before the split
        KvResponse stale = transport.send(at, write, 5_000);
        assertEquals(KvResponse.STALE_ROUTE, stale.status);
        assertEquals(halves[0], RangeDescriptor.decode(stale.descriptor), "answered with range 1 as it is now");

        TestCluster.await(() -> hosts.stream().filter(h -> h.isLeader("kg_r2")).count() == 1, "range 2 has a leader");
        KvRequest get = KvRequest.get("kg_r2", key(9, 1), false);
        get.rangeId = 1;
        get.generation = 2;
        KvResponse noRange = transport.send(at, get, 5_000);
        assertEquals(KvResponse.NO_RANGE, noRange.status);
        assertEquals(halves[1], RangeDescriptor.decode(noRange.descriptor), "the new group's own range");
        assertNull(leader.store("kg_r2").get(key(9, 2)), "the stale write went nowhere");
    }
}
