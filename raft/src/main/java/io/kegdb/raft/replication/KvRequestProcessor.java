package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.rpc.RpcContext;
import com.alipay.sofa.jraft.rpc.RpcProcessor;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Answers {@link KvRequest}s arriving at the node's RPC server from other nodes and thin clients, each by the
 * replica of the group it names (one for a {@code RaftNode}, many for a {@code RangeHost}).
 */
public final class KvRequestProcessor implements RpcProcessor<KvRequest> {

    private final Map<String, Replica> replicas = new ConcurrentHashMap<>();
    private volatile Function<RpcContext, Caller> callers = context -> Caller.CLIENT;

    public KvRequestProcessor() {
        KvWireSerializer.install(); // a client asking for the compact form must find it on this node
    }

    /** Requests arriving before the first {@link #serve} are answered {@link KvResponse#UNAVAILABLE}. */
    public void serve(Replica replica) {
        replicas.put(replica.group(), replica);
    }

    /** Stops answering requests for {@code replica}'s group (its replica is stopping). */
    public void stopServing(Replica replica) {
        replicas.remove(replica.group(), replica);
    }

    /** Who sent each request, as the node's transport proved it (default: every caller is a {@code CLIENT}). */
    public void identify(Function<RpcContext, Caller> callers) {
        this.callers = callers;
    }

    @Override
    public void handleRequest(RpcContext context, KvRequest request) {
        Replica r = request.group == null ? null : replicas.get(request.group);
        if (r == null) {
            context.sendResponse(replicas.isEmpty() ? KvResponse.of(KvResponse.UNAVAILABLE, "the node is starting")
                    : KvResponse.of(KvResponse.FAILED, "this node serves group " + String.join(", ", replicas.keySet())
                    + ", not " + request.group));
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
