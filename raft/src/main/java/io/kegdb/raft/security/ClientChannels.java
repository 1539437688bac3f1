package io.kegdb.raft.security;

import com.alipay.remoting.ExtendedNettyChannelHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.ssl.SslHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The first handler of every connection a TLS side opens (SOFABolt's
 * {@code BoltGenericOption.EXTENDED_NETTY_CHANNEL_HANDLER} on an RPC client): when the connection is made
 * it puts Netty's {@link SslHandler} for the target's host and port in front, so the JDK checks the node's
 * certificate against the CA and its host name or IP against the certificate's names. The last handshake
 * failure per target that a setting caused is kept for a while, so a failed call can say why
 * ({@link FailureTranslatingClient}).
 */
final class ClientChannels implements ExtendedNettyChannelHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ClientChannels.class);
    private static final long FAILURE_MEMORY_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final SslContexts contexts;
    private final TlsFiles files;
    private final RateLimitedLog logged = new RateLimitedLog();
    private final ConcurrentHashMap<String, Failure> failures = new ConcurrentHashMap<>();

    private record Failure(String reason, long atNanos) {
    }

    ClientChannels(SslContexts contexts, TlsFiles files) {
        this.contexts = contexts;
        this.files = files;
    }

    @Override
    public List<ChannelHandler> frontChannelHandlers() {
        return List.of(new Connector());
    }

    @Override
    public List<ChannelHandler> backChannelHandlers() {
        return List.of();
    }

    /** Why the last handshake with {@code hostPort} failed, if it did in the last 30 s and none succeeded since. */
    String recentFailure(String hostPort) {
        Failure f = failures.get(hostPort);
        return f != null && System.nanoTime() - f.atNanos < FAILURE_MEMORY_NANOS ? f.reason : null;
    }

    /** What a failure seen by a call to {@code hostPort} says, and whether trying again would fail the same way. */
    TlsCauses.ClientFailure describe(Throwable failure, String hostPort) {
        return TlsCauses.asClient(failure, hostPort, files.ca(), files.hasCertificate());
    }

    /**
     * Keeps a handshake failure that a setting caused, for the calls that meet it; one that a node going down
     * may have caused (a connection closed mid-handshake) is only logged: the caller treats that node as
     * unreachable for the moment and tries again, as without TLS.
     */
    private void failed(String hostPort, Throwable cause) {
        TlsCauses.ClientFailure failure = describe(cause, hostPort);
        if (failure.configuration()) {
            failures.put(hostPort, new Failure(failure.reason(), System.nanoTime()));
            if (logged.due(hostPort + " " + failure.reason())) {
                LOG.warn("{}", failure.reason());
            }
        } else {
            LOG.debug("{}", failure.reason());
        }
    }

    /**
     * Keeps a TLS alert that arrives after this side's handshake completed: with TLS 1.3 a client finishes
     * its handshake before the node has checked the client's certificate, so a node requiring one ends the
     * connection with an alert only then.
     */
    private final class AlertWatcher extends ChannelInboundHandlerAdapter {
        private final String hostPort;

        AlertWatcher(String hostPort) {
            this.hostPort = hostPort;
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (TlsCauses.find(cause) != null) {
                failed(hostPort, cause);
            }
            ctx.fireExceptionCaught(cause);
        }
    }

    private final class Connector extends ChannelOutboundHandlerAdapter {
        @Override
        public void connect(ChannelHandlerContext ctx, SocketAddress remote, SocketAddress local, ChannelPromise promise) {
            InetSocketAddress target = (InetSocketAddress) remote;
            String host = target.getHostString();
            String hostPort = host + ":" + target.getPort();
            SslHandler ssl = contexts.current().newHandler(ctx.alloc(), host, target.getPort());
            ssl.handshakeFuture().addListener(done -> {
                if (done.isSuccess()) {
                    failures.remove(hostPort);
                } else {
                    failed(hostPort, done.cause());
                }
            });
            ctx.pipeline().addAfter(ctx.name(), "kegdbTls", ssl);
            ctx.pipeline().addAfter("kegdbTls", "kegdbTlsAlerts", new AlertWatcher(hostPort));
            ctx.connect(remote, local, promise);
            ctx.pipeline().remove(this);
        }
    }
}
