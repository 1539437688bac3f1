package io.kegdb.raft.security;

import com.alipay.sofa.jraft.ReplicatorGroup;
import com.alipay.sofa.jraft.error.RemotingException;
import com.alipay.sofa.jraft.option.RpcOptions;
import com.alipay.sofa.jraft.rpc.InvokeCallback;
import com.alipay.sofa.jraft.rpc.InvokeContext;
import com.alipay.sofa.jraft.rpc.RpcClient;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.util.Endpoint;
import io.kegdb.raft.ReplicationException;
import io.kegdb.raft.replication.GroupCaller;

import javax.net.ssl.SSLException;

/**
 * A KegDB client's RPC client: a call whose connection failed its TLS handshake, or that the node refused
 * ({@link Refusal}), fails at once with a {@link ReplicationException} of kind {@code TLS} or
 * {@code NOT_AUTHORIZED} naming the cause in one line, instead of being retried until the request timeout as
 * an unreachable node would be. {@link #reporting} does the same for a leader lookup that found no node
 * because every one of them failed so.
 */
final class FailureTranslatingClient implements RpcClient {

    private final RpcClient delegate;
    private final ClientChannels tls;
    private volatile ReplicationException lastFailure;

    /** @param tls the client's TLS, or null for a client without TLS */
    FailureTranslatingClient(RpcClient delegate, ClientChannels tls) {
        this.delegate = delegate;
        this.tls = tls;
    }

    @Override
    public Object invokeSync(Endpoint endpoint, Object request, InvokeContext context, long timeoutMs)
            throws InterruptedException, RemotingException {
        Object answer;
        try {
            answer = delegate.invokeSync(endpoint, request, context, timeoutMs);
        } catch (RemotingException | RuntimeException e) {
            ReplicationException translated = translate(endpoint, e);
            if (translated != null) {
                throw remember(translated);
            }
            throw e;
        }
        Refusal refusal = Refusal.of(answer);
        if (refusal != null) {
            throw remember(new ReplicationException(refusal.kind() == Refusal.Kind.TLS_REQUIRED
                    ? ReplicationException.Kind.TLS : ReplicationException.Kind.NOT_AUTHORIZED, refusal.reason()));
        }
        return answer;
    }

    private ReplicationException translate(Endpoint endpoint, Exception e) {
        if (tls == null || e instanceof ReplicationException) {
            return null;
        }
        String hostPort = endpoint.getIp() + ":" + endpoint.getPort();
        SSLException ssl = TlsCauses.find(e);
        if (ssl != null) {
            TlsCauses.ClientFailure failure = tls.describe(ssl, hostPort);
            // a node going down mid-handshake is unreachable like any other, and the call goes on elsewhere
            return failure.configuration() ? new ReplicationException(ReplicationException.Kind.TLS, failure.reason(), e)
                    : null;
        }
        // The latest handshake with this node failed and none succeeded since: SOFABolt keeps one connection
        // per node, so the call had no established TLS connection, and a connection whose handshake failed
        // carried nothing (the SslHandler holds writes until the handshake succeeds). Or the node ended the
        // connection with an alert after this side's handshake (TLS 1.3: a node requiring a certificate this
        // side did not present), before its own handshake completed, so it read no request. Nothing applied.
        String reason = tls.recentFailure(hostPort);
        return reason == null ? null : new ReplicationException(ReplicationException.Kind.TLS, reason, e);
    }

    private ReplicationException remember(ReplicationException e) {
        lastFailure = e;
        return e;
    }

    /**
     * A leader finder that, when {@code finder} found no leader and a call made meanwhile failed for TLS or
     * authorization, throws that failure instead of answering "none known".
     */
    GroupCaller.LeaderFinder reporting(GroupCaller.LeaderFinder finder) {
        return timeoutMs -> {
            lastFailure = null;
            PeerId leader = finder.find(timeoutMs);
            ReplicationException failure = lastFailure;
            if (leader == null && failure != null) {
                throw failure;
            }
            return leader;
        };
    }

    @Override
    public void invokeAsync(Endpoint endpoint, Object request, InvokeContext context, InvokeCallback callback,
                            long timeoutMs) throws InterruptedException, RemotingException {
        delegate.invokeAsync(endpoint, request, context, callback, timeoutMs);
    }

    @Override
    public boolean checkConnection(Endpoint endpoint) {
        return delegate.checkConnection(endpoint);
    }

    @Override
    public boolean checkConnection(Endpoint endpoint, boolean createIfAbsent) {
        return delegate.checkConnection(endpoint, createIfAbsent);
    }

    @Override
    public void closeConnection(Endpoint endpoint) {
        delegate.closeConnection(endpoint);
    }

    @Override
    public void registerConnectEventListener(ReplicatorGroup group) {
        delegate.registerConnectEventListener(group);
    }

    @Override
    public boolean init(RpcOptions options) {
        return delegate.init(options);
    }

    @Override
    public void shutdown() {
        delegate.shutdown();
    }
}
