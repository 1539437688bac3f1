package io.kegdb.raft.security;

import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * The TLS settings of one side, built by Netty's {@link SslContextBuilder} on the JDK's TLS from
 * {@link TlsFiles}: TLS 1.3 or 1.2, the CA as the only trust anchor. {@link #current()} is asked for each new
 * connection and rebuilds the context when a file's content changed (a rotation); files that do not load
 * (half replaced, mismatched) keep the last good context and are logged.
 */
final class SslContexts {

    private static final Logger LOG = LoggerFactory.getLogger(SslContexts.class);
    static final String[] PROTOCOLS = {"TLSv1.3", "TLSv1.2"};

    private final TlsFiles files;
    private final boolean server;
    private final ClientAuth clientAuth;
    private byte[][] loaded;
    private SslContext context;

    private SslContexts(TlsFiles files, boolean server, ClientAuth clientAuth) throws IOException {
        this.files = files;
        this.server = server;
        this.clientAuth = clientAuth;
        byte[][] content = read();
        this.context = build(content);
        this.loaded = content;
    }

    /** A node's server side: its certificate, and a client certificate of the CA asked for, optional or required. */
    static SslContexts server(TlsFiles files, ClientCertificates clients) throws IOException {
        if (!files.hasCertificate()) {
            throw new IllegalArgumentException("a node's TLS needs its certificate and key");
        }
        return new SslContexts(files, true, clients == ClientCertificates.REQUIRED ? ClientAuth.REQUIRE : ClientAuth.OPTIONAL);
    }

    /** A client side (a node's own calls, or a thin client): the node's host name is checked on connect. */
    static SslContexts client(TlsFiles files) throws IOException {
        return new SslContexts(files, false, ClientAuth.NONE);
    }

    /** The context for a new connection, rebuilt first if the files changed since the last one. */
    synchronized SslContext current() {
        byte[][] content;
        try {
            content = read();
        } catch (IOException e) {
            LOG.warn("TLS files unreadable ({}); new connections keep the previous certificate", e.getMessage());
            return context;
        }
        if (!Arrays.deepEquals(content, loaded)) {
            try {
                context = build(content);
                LOG.info("TLS files {} changed: new connections use them", files);
            } catch (IOException | RuntimeException e) {
                LOG.warn("TLS files {} changed but do not load ({}); new connections keep the previous ones",
                        files, e.getMessage());
            }
            loaded = content; // a broken set is reported once, not at every connection
        }
        return context;
    }

    private byte[][] read() throws IOException {
        return new byte[][]{readFile(files.ca()), readFile(files.cert()), readFile(files.key())};
    }

    private static byte[] readFile(Path p) throws IOException {
        return p == null ? null : Files.readAllBytes(p);
    }

    private SslContext build(byte[][] content) throws IOException {
        try {
            SslContextBuilder builder = server
                    ? SslContextBuilder.forServer(new ByteArrayInputStream(content[1]), new ByteArrayInputStream(content[2]))
                            .clientAuth(clientAuth)
                    : SslContextBuilder.forClient().endpointIdentificationAlgorithm("HTTPS");
            if (!server && content[1] != null) {
                builder.keyManager(new ByteArrayInputStream(content[1]), new ByteArrayInputStream(content[2]));
            }
            return builder.sslProvider(SslProvider.JDK)
                    .protocols(PROTOCOLS)
                    .trustManager(new ByteArrayInputStream(content[0]))
                    .build();
        } catch (IOException e) {
            throw e;
        } catch (Exception e) {
            throw new IOException("TLS files " + files + " do not load: " + e.getMessage(), e);
        }
    }
}
