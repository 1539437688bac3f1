package io.kegdb.raft.security;

import io.netty.handler.ssl.JdkSslContext;

import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLContextSpi;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocketFactory;
import javax.net.ssl.SSLSessionContext;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.TrustManager;
import java.io.IOException;
import java.security.SecureRandom;

/**
 * A node's certificate for a JDK HTTPS server (its {@code /metrics} and {@code /health}): an {@link SSLContext}
 * whose every new connection takes the node's TLS files as {@link SslContexts} has them then, so a rotation
 * reaches it without a restart as it reaches the cluster's connections. TLS 1.3 or 1.2; no client certificate
 * is asked for, since monitoring systems present none.
 */
public final class HttpsServerContext {

    private HttpsServerContext() {
    }

    /**
     * The context for a node with {@code files} (its certificate and key needed).
     *
     * @throws IOException if the files do not load now
     */
    public static SSLContext of(TlsFiles files) throws IOException {
        SslContexts contexts = SslContexts.server(files, ClientCertificates.OPTIONAL); // asks none: see parameters
        SSLContext first = current(contexts);
        return new Delegating(new CurrentFiles(contexts), first);
    }

    /** The JDK context inside Netty's (built on the JDK's provider, see {@link SslContexts}). */
    private static SSLContext current(SslContexts contexts) {
        return ((JdkSslContext) contexts.current()).context();
    }

    /** The protocols and client authentication every connection gets. */
    private static SSLParameters parameters(SSLParameters base) {
        base.setProtocols(SslContexts.PROTOCOLS.clone());
        base.setNeedClientAuth(false);
        base.setWantClientAuth(false);
        return base;
    }

    private static final class Delegating extends SSLContext {
        Delegating(SSLContextSpi spi, SSLContext first) {
            super(spi, first.getProvider(), first.getProtocol());
        }
    }

    /** Each call goes to the context of the files as they are now. */
    private static final class CurrentFiles extends SSLContextSpi {
        private final SslContexts contexts;

        CurrentFiles(SslContexts contexts) {
            this.contexts = contexts;
        }

        private SSLContext now() {
            return current(contexts);
        }

        private static SSLEngine server(SSLEngine engine) {
            engine.setUseClientMode(false);
            engine.setSSLParameters(parameters(engine.getSSLParameters()));
            return engine;
        }

        @Override
        protected void engineInit(KeyManager[] km, TrustManager[] tm, SecureRandom sr) {
            throw new UnsupportedOperationException("the node's TLS files give this context its keys");
        }

        @Override
        protected SSLSocketFactory engineGetSocketFactory() {
            return now().getSocketFactory();
        }

        @Override
        protected SSLServerSocketFactory engineGetServerSocketFactory() {
            return now().getServerSocketFactory();
        }

        @Override
        protected SSLEngine engineCreateSSLEngine() {
            return server(now().createSSLEngine());
        }

        @Override
        protected SSLEngine engineCreateSSLEngine(String host, int port) {
            return server(now().createSSLEngine(host, port));
        }

        @Override
        protected SSLSessionContext engineGetServerSessionContext() {
            return now().getServerSessionContext();
        }

        @Override
        protected SSLSessionContext engineGetClientSessionContext() {
            return now().getClientSessionContext();
        }

        @Override
        protected SSLParameters engineGetDefaultSSLParameters() {
            return parameters(now().getDefaultSSLParameters());
        }

        @Override
        protected SSLParameters engineGetSupportedSSLParameters() {
            return now().getSupportedSSLParameters();
        }
    }
}
