package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.rpc.RpcContext;
import com.alipay.sofa.jraft.rpc.RpcProcessor;

/** Answers {@link KvRequest}s arriving at the node's RPC server from other nodes and thin clients. */
public final class KvRequestProcessor implements RpcProcessor<KvRequest> {

    private volatile Replica replica;

    /** Requests arriving before {@link #serve} are answered {@link KvResponse#UNAVAILABLE}. */
    public void serve(Replica replica) {
        this.replica = replica;
    }

    @Override
    public void handleRequest(RpcContext context, KvRequest request) {
        Replica r = replica;
        if (r == null) {
            context.sendResponse(KvResponse.of(KvResponse.UNAVAILABLE, "the node is starting"));
            return;
        }
        r.handle(request).whenComplete((response, error) -> context.sendResponse(
                error == null ? response : KvResponse.of(KvResponse.FAILED, error.toString())));
    }

    @Override
    public String interest() {
        return KvRequest.class.getName();
    }
}
