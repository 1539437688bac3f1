package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.rpc.RpcClient;

/** Sends {@link KvRequest}s over SOFAJRaft's RPC client to a node's {@link KvRequestProcessor}. */
public final class RpcTransport implements Transport {

    private final RpcClient client;

    public RpcTransport(RpcClient client) {
        this.client = client;
    }

    @Override
    public KvResponse send(PeerId target, KvRequest request, long timeoutMs) throws Exception {
        Object answer = client.invokeSync(target.getEndpoint(), request, timeoutMs);
        if (answer instanceof KvResponse r) {
            return r;
        }
        throw new IllegalStateException(target + " answered a " + (answer == null ? "null" : answer.getClass().getName()));
    }
}
