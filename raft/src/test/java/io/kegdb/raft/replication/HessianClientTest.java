package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.option.RpcOptions;
import com.alipay.sofa.jraft.rpc.RpcClient;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.util.Endpoint;
import com.alipay.sofa.jraft.util.RpcFactoryHelper;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import io.kegdb.raft.TestCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A client from before the compact wire form sends its requests in the RPC layer's default (Hessian)
 * serialization: a node still serves it, and answers it in that form.
 */
class HessianClientTest {

    @Test
    void aNodeServesAClientThatSendsHessian(@TempDir Path dir) throws Exception {
        try (TestCluster cluster = new TestCluster(dir, 1)) {
            cluster.startAll();
            int leader = cluster.awaitLeader();
            KvStore store = cluster.client(Duration.ofSeconds(10));
            byte[] key = {0, 0, 0, 9, 'k'};
            store.put(key, new byte[]{42}, Durability.SYNC);

            RpcClient old = RpcFactoryHelper.rpcFactory().createRpcClient();
            old.init(new RpcOptions());
            try {
                Endpoint node = PeerId.parsePeer(cluster.addresses.get(leader)).getEndpoint();
                Object answer = old.invokeSync(node, KvRequest.get(TestCluster.GROUP, key, false), 10_000);
                KvResponse r = (KvResponse) answer;
                assertEquals(KvResponse.OK, r.status, r.message);
                assertArrayEquals(new byte[]{42}, r.value);
            } finally {
                old.shutdown();
            }
        }
    }
}
