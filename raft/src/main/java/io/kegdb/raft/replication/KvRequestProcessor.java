package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.rpc.RpcContext;
import com.alipay.sofa.jraft.rpc.RpcProcessor;

import java.util.function.Function;

/** Answers {@link KvRequest}s arriving at the node's RPC server from other nodes and thin clients. */
public final class KvRequestProcessor implements RpcProcessor<KvRequest> {

    private volatile Replica replica;
    private volatile Function<RpcContext, Caller> callers = context -> Caller.CLIENT;

    /** Requests arriving before {@link #serve} are answered {@link KvResponse#UNAVAILABLE}. */
    public void serve(Replica replica) {
        this.replica = replica;
    }

    /** Who sent each request, as the node's transport proved it (default: every caller is a {@code CLIENT}). */
    public void identify(Function<RpcContext, Caller> callers) {
        this.callers = callers;
    }

    @Override
    public void handleRequest(RpcContext context, KvRequest request) {
        Replica r = replica;
        if (r == null) {
            context.sendResponse(KvResponse.of(KvResponse.UNAVAILABLE, "the node is starting"));
            return;
        }
        Caller caller = callers.apply(context);
        (caller == Caller.NODE ? r.handle(request) : r.handleClient(request, caller)).whenComplete((response, error) -> context.sendResponse(
                error == null ? response : KvResponse.of(KvResponse.FAILED, error.toString())));
    }

    @Override
    public String interest() {
        return KvRequest.class.getName();
    }
}
