package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.rpc.RpcContext;
import com.alipay.sofa.jraft.rpc.RpcProcessor;

import java.util.function.Predicate;

/** Answers {@link KvRequest}s arriving at the node's RPC server from other nodes and thin clients. */
public final class KvRequestProcessor implements RpcProcessor<KvRequest> {

    private volatile Replica replica;
    private volatile Predicate<RpcContext> fromNode = context -> false;

    public KvRequestProcessor() {
        KvWireSerializer.install(); // a client asking for the compact form must find it on this node
    }

    /** Requests arriving before {@link #serve} are answered {@link KvResponse#UNAVAILABLE}. */
    public void serve(Replica replica) {
        this.replica = replica;
    }

    /** Requests for which {@code fromNode} holds come from nodes of the group: no user checks apply to them. */
    public void trustNodes(Predicate<RpcContext> fromNode) {
        this.fromNode = fromNode;
    }

    @Override
    public void handleRequest(RpcContext context, KvRequest request) {
        Replica r = replica;
        if (r == null) {
            context.sendResponse(KvResponse.of(KvResponse.UNAVAILABLE, "the node is starting"));
            return;
        }
        (fromNode.test(context) ? r.handle(request) : r.handleClient(request)).whenComplete((response, error) -> context.sendResponse(
                error == null ? response : KvResponse.of(KvResponse.FAILED, error.toString())));
    }

    @Override
    public String interest() {
        return KvRequest.class.getName();
    }
}
