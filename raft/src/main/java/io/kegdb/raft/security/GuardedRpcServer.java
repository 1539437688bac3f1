package io.kegdb.raft.security;

import com.alipay.sofa.jraft.rpc.RpcContext;
import com.alipay.sofa.jraft.rpc.RpcProcessor;
import com.alipay.sofa.jraft.rpc.RpcServer;
import com.alipay.sofa.jraft.rpc.impl.ConnectionClosedEventListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executor;

/**
 * A TLS node's RPC server: every processor registered through it (SOFAJRaft's Raft and CLI processors, the
 * replicated store's) first checks the caller's {@link PeerIdentity} against the {@link AccessPolicy}; a
 * refused request gets a {@link Refusal} and never reaches the processor, so it changes nothing.
 */
final class GuardedRpcServer implements RpcServer {

    private static final Logger LOG = LoggerFactory.getLogger(GuardedRpcServer.class);

    private final RpcServer delegate;
    private final RateLimitedLog logged = new RateLimitedLog();

    GuardedRpcServer(RpcServer delegate) {
        this.delegate = delegate;
    }

    @Override
    public void registerProcessor(RpcProcessor<?> processor) {
        delegate.registerProcessor(guard(processor));
    }

    private <T> RpcProcessor<T> guard(RpcProcessor<T> processor) {
        return new RpcProcessor<>() {
            @Override
            public void handleRequest(RpcContext context, T request) {
                String refusal = AccessPolicy.refusal(processor.interest(), PeerIdentity.of(context));
                if (refusal == null) {
                    processor.handleRequest(context, request);
                    return;
                }
                String remote = context.getRemoteAddress();
                if (logged.due(host(remote) + " " + processor.interest())) {
                    LOG.warn("refused a request from {}: {} (further refusals of this kind from it are not logged"
                            + " for a minute)", remote, refusal);
                }
                context.sendResponse(new Refusal(Refusal.Kind.NOT_AUTHORIZED, refusal).toResponse(processor.interest()));
            }

            @Override
            public String interest() {
                return processor.interest();
            }

            @Override
            public Executor executor() {
                return processor.executor();
            }

            @Override
            public ExecutorSelector executorSelector() {
                return processor.executorSelector();
            }
        };
    }

    private static String host(String remote) {
        if (remote == null) {
            return "?";
        }
        int colon = remote.lastIndexOf(':');
        return colon > 0 ? remote.substring(0, colon) : remote;
    }

    @Override
    public void registerConnectionClosedEventListener(ConnectionClosedEventListener listener) {
        delegate.registerConnectionClosedEventListener(listener);
    }

    @Override
    public int boundPort() {
        return delegate.boundPort();
    }

    @Override
    public boolean isStarted() {
        return delegate.isStarted();
    }

    @Override
    public boolean init(Void options) {
        return delegate.init(options);
    }

    @Override
    public void shutdown() {
        delegate.shutdown();
    }
}
