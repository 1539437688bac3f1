package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.rpc.InvokeContext;
import com.alipay.sofa.jraft.rpc.RpcClient;

/** Sends {@link KvRequest}s over SOFAJRaft's RPC client to a node's {@link KvRequestProcessor}. */
public final class RpcTransport implements Transport {

    private final RpcClient client;
    /** Every call asks for the compact wire form ({@link KvWireSerializer}); the context is only read. */
    private final InvokeContext compact = new InvokeContext();

    public RpcTransport(RpcClient client) {
        KvWireSerializer.install();
        this.client = client;
        compact.put(KvWireSerializer.CONTEXT_KEY, KvWireSerializer.INDEX);
    }

    @Override
    public KvResponse send(PeerId target, KvRequest request, long timeoutMs) throws Exception {
        Object answer = client.invokeSync(target.getEndpoint(), request, compact, timeoutMs);
        if (answer instanceof KvResponse r) {
            return r;
        }
        throw new IllegalStateException(target + " answered a " + (answer == null ? "null" : answer.getClass().getName()));
    }
}
