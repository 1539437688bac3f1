package io.kegdb.raft.security;

import com.alipay.remoting.Connection;
import com.alipay.remoting.ExtendedNettyChannelHandler;
import com.alipay.remoting.rpc.RpcCommandFactory;
import com.alipay.remoting.rpc.protocol.RpcRequestCommand;
import com.alipay.remoting.rpc.protocol.RpcResponseCommand;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.util.ReferenceCountUtil;
import io.netty.util.concurrent.Future;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import javax.net.ssl.SSLPeerUnverifiedException;
import java.nio.charset.StandardCharsets;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The first handler of every connection a node accepts (SOFABolt's
 * {@code BoltGenericOption.EXTENDED_NETTY_CHANNEL_HANDLER}): it looks at the first bytes the caller sends.
 * On a TLS node a TLS handshake gets Netty's {@link SslHandler} with the current {@link SslContexts} and, once
 * done, the caller's {@link PeerIdentity} on the connection; plain text gets a {@link Refusal} to each request
 * (not decoded further) and the connection closed soon after. On a node without TLS a TLS handshake is logged,
 * answered with a line of plain text (so the caller's TLS says it met plain text) and closed,
 * and plain text goes on as usual. Either mismatch leaves one log line a minute per remote host.
 */
final class ServerChannels implements ExtendedNettyChannelHandler {

    private static final Logger LOG = LoggerFactory.getLogger(ServerChannels.class);
    /** The name SOFABolt gives its decoder in the pipeline; the plain-text refusal goes right after it. */
    private static final String BOLT_DECODER = "decoder";
    private static final int TLS_RECORD_HEADER = 5;
    /** What a node without TLS answers to a TLS handshake before it closes the connection. */
    private static final byte[] PLAIN_TEXT_ANSWER = "KegDB node without TLS\n".getBytes(StandardCharsets.US_ASCII);

    private final SslContexts contexts;
    private final String self;
    private final RateLimitedLog logged = new RateLimitedLog();

    /** @param contexts the node's TLS, or null for a node without TLS */
    ServerChannels(SslContexts contexts, String self) {
        this.contexts = contexts;
        this.self = self;
    }

    @Override
    public List<ChannelHandler> frontChannelHandlers() {
        return List.of(new Detector());
    }

    @Override
    public List<ChannelHandler> backChannelHandlers() {
        return List.of();
    }

    private void warn(Channel channel, String cause, String line, Object... args) {
        String remote = String.valueOf(channel.remoteAddress());
        String host = remote.contains(":") ? remote.substring(0, remote.lastIndexOf(':')) : remote;
        if (logged.due(host + " " + cause)) {
            LOG.warn(line, args);
        }
    }

    private final class Detector extends ByteToMessageDecoder {
        @Override
        protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
            if (in.readableBytes() < TLS_RECORD_HEADER) {
                return;
            }
            Channel channel = ctx.channel();
            boolean tls = SslHandler.isEncrypted(in, false);
            if (tls && contexts == null) {
                warn(channel, "tls-on-open", "node {} runs without TLS and refused a TLS connection from {}"
                        + " (a node or client of a TLS cluster? start this node with --tls-ca, --tls-cert and"
                        + " --tls-key to join it)", self, channel.remoteAddress());
                in.skipBytes(in.readableBytes());
                // Plain text, which the caller's TLS reports as such ("not an SSL/TLS record"): a mere close
                // would look like a node going down, which a caller retries until its timeout.
                ctx.writeAndFlush(Unpooled.copiedBuffer(PLAIN_TEXT_ANSWER)).addListener(ChannelFutureListener.CLOSE);
            } else if (tls) {
                SslHandler ssl = contexts.current().newHandler(ctx.alloc());
                ssl.handshakeFuture().addListener(done -> handshakeDone(channel, ssl, done));
                ctx.pipeline().replace(this, "kegdbTls", ssl);
            } else if (contexts != null) {
                warn(channel, "plain-on-tls", "node {} requires TLS and refused a plain-text connection from {}"
                        + " (a node or client started without TLS options?)", self, channel.remoteAddress());
                ctx.pipeline().addAfter(BOLT_DECODER, "kegdbRefusePlainText", new PlainTextRefusal(self));
                ctx.pipeline().remove(this);
            } else {
                ctx.pipeline().remove(this);
            }
        }
    }

    private void handshakeDone(Channel channel, SslHandler ssl, Future<? super Channel> done) {
        if (!done.isSuccess()) {
            String remote = String.valueOf(channel.remoteAddress());
            warn(channel, "handshake", "node {}: {}", self, TlsCauses.asServer(done.cause(), remote));
            return;
        }
        PeerIdentity identity;
        try {
            Certificate[] chain = ssl.engine().getSession().getPeerCertificates();
            X509Certificate leaf = (X509Certificate) chain[0];
            identity = new PeerIdentity(CertificateRole.of(leaf) == CertificateRole.NODE
                    ? PeerIdentity.Kind.NODE : PeerIdentity.Kind.CLIENT, CertificateRole.commonName(leaf));
        } catch (SSLPeerUnverifiedException e) {
            identity = new PeerIdentity(PeerIdentity.Kind.ANONYMOUS, null);
        }
        Connection connection = channel.attr(Connection.CONNECTION).get();
        if (connection != null) {
            connection.setAttribute(PeerIdentity.ATTRIBUTE, identity);
        } else {
            channel.close(); // no place to keep the identity: nothing on this connection could be authorized
        }
    }

    /**
     * After SOFABolt's decoder on a plain-text connection to a TLS node: answers each request with a refusal
     * without deserializing it (so nothing the caller sent reaches a processor) and closes the connection a
     * second later.
     */
    private static final class PlainTextRefusal extends ChannelInboundHandlerAdapter {
        private static final long CLOSE_DELAY_MS = 1000;
        private final String self;
        private boolean closing;

        PlainTextRefusal(String self) {
            this.self = self;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (msg instanceof RpcRequestCommand request) {
                    Refusal refusal = new Refusal(Refusal.Kind.TLS_REQUIRED, "node " + self + " requires TLS;"
                            + " connect with TLS (ssl=true and sslrootcert, or --tls-ca) and a certificate of its CA");
                    request.deserializeClazz(); // the request's class name only; its body is never read
                    RpcResponseCommand response = new RpcCommandFactory().createResponse(
                            refusal.toResponse(request.getRequestClass()), request);
                    response.serialize();
                    ctx.channel().writeAndFlush(response);
                    if (!closing) {
                        // not at once: the caller handles answers on another thread than the closed connection,
                        // and a close seen first would hide the answer
                        closing = true;
                        ctx.executor().schedule(() -> ctx.close(), CLOSE_DELAY_MS, TimeUnit.MILLISECONDS);
                    }
                } else {
                    ctx.close();
                }
            } catch (Exception e) {
                ctx.close();
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }
    }
}
