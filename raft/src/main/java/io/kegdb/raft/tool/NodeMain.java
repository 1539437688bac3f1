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
import java.util.concurrent.TimeUnit;

/**
 * Runs one node in the foreground, a {@link RangeHost} hosting the group as range 1 and the ranges its splits
 * make, until the process is told to stop (SIGTERM, SIGINT), then leaves the groups cleanly:
 * {@code NodeMain --dir DIR --group G --self HOST:PORT --peers H1:P1,H2:P2,H3:P3
 * [--election-timeout-ms 600] [--snapshot-interval-secs 600] [--tls-ca CA --tls-cert CERT --tls-key KEY
 * [--tls-client-auth optional|require]] [--admin-password-file FILE] [--http HOST:PORT]
 * [--split-keys N] [--split-bytes N] [--split-check-secs 10]}.
 * {@code --split-keys} or {@code --split-bytes} turns on the size trigger ({@link RangeHost#splitWhenLarger}):
 * each range this node leads splits at its middle key once it holds more keys or live bytes (the other limit
 * then {@value RangeHost#DEFAULT_SPLIT_KEYS} keys or 256 MiB); without them no range splits unless asked to.
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
            "election-timeout-ms", "snapshot-interval-secs", "http", "admin-password-file", "tls-client-auth",
            "split-keys", "split-bytes", "split-check-secs"));

    private NodeMain() {
    }

    public static void main(String[] args) throws Exception {
        RaftNodeOptions options;
        InetSocketAddress http;
        SplitTrigger splits;
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
            splits = SplitTrigger.of(cl);
            String httpOption = cl.optional("http", null);
            http = httpOption == null ? null : address(httpOption);
        } catch (IllegalArgumentException e) {
            System.err.println("kegdb node: " + e.getMessage());
            System.err.println("usage: kegdb node --dir DIR --group G --self HOST:PORT --peers H1:P1,H2:P2,H3:P3"
                    + " [--election-timeout-ms MS] [--snapshot-interval-secs S]"
                    + " [--tls-ca CA.crt --tls-cert NODE.crt --tls-key NODE.key [--tls-client-auth optional|require]]"
                    + " [--admin-password-file FILE] [--http HOST:PORT]"
                    + " [--split-keys N] [--split-bytes N] [--split-check-secs S]");
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
        if (splits != null) {
            host.splitWhenLarger(splits.keys(), splits.bytes(), TimeUnit.SECONDS.toMillis(splits.checkSecs()));
            LOG.info("node {} splits each range it leads past {} keys or {} bytes (checked every {} s)",
                    options.self(), splits.keys(), splits.bytes(), splits.checkSecs());
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

    /**
     * The size trigger of {@code --split-keys} / {@code --split-bytes} (either turns it on, the other then takes
     * its default), checked every {@code --split-check-secs}; null without either: no range splits unless asked
     * to ({@code kegdb cluster split}), as before ranges.
     */
    private record SplitTrigger(long keys, long bytes, long checkSecs) {
        static SplitTrigger of(CommandLine cl) {
            long checkSecs = cl.positiveLong("split-check-secs", 10);
            if (!cl.has("split-keys") && !cl.has("split-bytes")) {
                if (cl.has("split-check-secs")) {
                    throw new IllegalArgumentException("--split-check-secs needs --split-keys or --split-bytes");
                }
                return null;
            }
            return new SplitTrigger(cl.positiveLong("split-keys", RangeHost.DEFAULT_SPLIT_KEYS),
                    cl.positiveLong("split-bytes", RangeHost.DEFAULT_SPLIT_BYTES), checkSecs);
        }
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
