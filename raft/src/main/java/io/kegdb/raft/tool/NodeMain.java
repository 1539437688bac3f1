package io.kegdb.raft.tool;

import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RangeHost;
import io.kegdb.raft.RaftNodeOptions;
import io.kegdb.raft.security.ClientCertificates;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * Runs one node in the foreground, a {@link RangeHost} hosting the group as range 1 and the ranges its splits
 * make, until the process is told to stop (SIGTERM, SIGINT), then leaves the groups cleanly:
 * {@code NodeMain --dir DIR --group G --self HOST:PORT --peers H1:P1,H2:P2,H3:P3
 * [--election-timeout-ms 600] [--snapshot-interval-secs 600] [--tls-ca CA --tls-cert CERT --tls-key KEY
 * [--tls-client-auth optional|require]] [--admin-password-file FILE] [--http HOST:PORT]}.
 * {@code --tls-client-auth require} makes every client present a certificate of the CA; by default
 * ({@code optional}) a client may present none and log in with a password (on a cluster with users).
 * {@code --admin-password-file} (TLS only) creates the first admin, {@code ADMIN}, with the file's content
 * (less a trailing newline) as password, if the cluster has never had users.
 * The node binds exactly {@code --self}; with the TLS options every connection to and from it is TLS (see
 * {@link io.kegdb.raft.security.TransportSecurity}), without them it is open to anyone who can reach it.
 * Its meters are a JMX MBean while it runs ({@link NodeMonitor}); with {@code --http} it also serves
 * {@code GET /metrics} (Prometheus text) and {@code GET /health} on that address ({@link NodeHttpServer}), over
 * HTTPS with the node's certificate when it has the TLS options.
 * To join a running group, list its current members (not this node) in {@code --peers}, then add this node
 * with {@link ClusterMain} {@code add-peer}.
 */
public final class NodeMain {

    private static final Logger LOG = LoggerFactory.getLogger(NodeMain.class);
    private static final Set<String> OPTIONS = CommandLine.withTls(Set.of("dir", "group", "self", "peers",
            "election-timeout-ms", "snapshot-interval-secs", "http", "admin-password-file", "tls-client-auth"));

    private NodeMain() {
    }

    public static void main(String[] args) throws Exception {
        RaftNodeOptions options;
        InetSocketAddress http;
        try {
            CommandLine cl = CommandLine.parse(args, OPTIONS);
            options = RaftNodeOptions.builder()
                    .dir(Path.of(cl.required("dir")))
                    .group(cl.required("group"))
                    .self(cl.required("self"))
                    .peers(cl.required("peers"))
                    .electionTimeoutMs(cl.intOption("election-timeout-ms", RaftNodeOptions.DEFAULT_ELECTION_TIMEOUT_MS))
                    .snapshotIntervalSecs(cl.intOption("snapshot-interval-secs", 600))
                    .tls(cl.tls(true))
                    .clientCertificates(ClientCertificates.parse(cl.optional("tls-client-auth", "optional")))
                    .adminPassword(cl.secretFile("admin-password-file"))
                    .build();
            String httpOption = cl.optional("http", null);
            http = httpOption == null ? null : address(httpOption);
        } catch (IllegalArgumentException e) {
            System.err.println("kegdb node: " + e.getMessage());
            System.err.println("usage: kegdb node --dir DIR --group G --self HOST:PORT --peers H1:P1,H2:P2,H3:P3"
                    + " [--election-timeout-ms MS] [--snapshot-interval-secs S]"
                    + " [--tls-ca CA.crt --tls-cert NODE.crt --tls-key NODE.key [--tls-client-auth optional|require]]"
                    + " [--admin-password-file FILE] [--http HOST:PORT]");
            System.exit(2);
            return;
        }
        RangeHost host;
        try {
            host = RangeHost.start(options);
        } catch (IOException | IllegalArgumentException e) {
            LOG.error("raft node {} did not start", options.self(), e);
            System.err.println("kegdb node: " + e.getMessage());
            System.exit(1);
            return;
        }
        RaftNode node = host.replica(options.group());
        NodeMonitor monitor;
        NodeHttpServer server = null;
        try {
            monitor = NodeMonitor.start(node, options); // without its MBean if JMX refuses it (logged)
        } catch (RuntimeException e) {
            LOG.error("raft node {}: cannot watch its status", options.self(), e);
            System.err.println("kegdb node: cannot watch its status: " + e.getMessage());
            host.close();
            System.exit(1);
            return;
        }
        if (http != null) {
            try {
                server = NodeHttpServer.serve(monitor, options.tls(), http);
                LOG.info("raft node {} serves /metrics and /health on {}://{}:{}", options.self(), server.scheme(),
                        http.getHostString(), server.address().getPort());
            } catch (IOException | RuntimeException e) {
                LOG.error("raft node {}: cannot serve HTTP on {}", options.self(), http, e);
                System.err.println("kegdb node: cannot serve HTTP on " + http + ": " + e.getMessage());
                monitor.close();
                host.close();
                System.exit(1);
                return;
            }
        }
        NodeHttpServer endpoints = server;
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("stopping raft node {}", options.self());
            try {
                if (endpoints != null) {
                    endpoints.close();
                }
                monitor.close();
                host.close();
            } finally {
                stopped.countDown();
            }
        }, "kegdb-node-shutdown"));
        LOG.info("raft node {} of group {} running; data in {}", options.self(), options.group(), options.dir());
        stopped.await();
    }

    /** {@code HOST:PORT} (an IPv6 host in brackets), not resolved beyond what binding needs. */
    static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        if (colon <= 0 || colon == hostPort.length() - 1) {
            throw new IllegalArgumentException("--http must be HOST:PORT, not " + hostPort);
        }
        String host = hostPort.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(hostPort.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--http port must be a number, not " + hostPort);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("--http port out of range: " + hostPort);
        }
        return new InetSocketAddress(host, port);
    }
}
