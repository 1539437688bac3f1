package io.kegdb.raft.tool;

import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftNodeOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.CountDownLatch;

/**
 * Runs one Raft node in the foreground until the process is told to stop (SIGTERM, SIGINT), then leaves the
 * group cleanly:
 * {@code NodeMain --dir DIR --group G --self HOST:PORT --peers H1:P1,H2:P2,H3:P3
 * [--election-timeout-ms 600] [--snapshot-interval-secs 600] [--tls-ca CA --tls-cert CERT --tls-key KEY]}.
 * The node binds exactly {@code --self}; with the TLS options every connection to and from it is TLS (see
 * {@link io.kegdb.raft.security.TransportSecurity}), without them it is open to anyone who can reach it.
 * To join a running group, list its current members (not this node) in {@code --peers}, then add this node
 * with {@link ClusterMain} {@code add-peer}.
 */
public final class NodeMain {

    private static final Logger LOG = LoggerFactory.getLogger(NodeMain.class);
    private static final Set<String> OPTIONS = CommandLine.withTls(Set.of("dir", "group", "self", "peers",
            "election-timeout-ms", "snapshot-interval-secs"));

    private NodeMain() {
    }

    public static void main(String[] args) throws Exception {
        RaftNodeOptions options;
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
                    .build();
        } catch (IllegalArgumentException e) {
            System.err.println("kegdb node: " + e.getMessage());
            System.err.println("usage: kegdb node --dir DIR --group G --self HOST:PORT --peers H1:P1,H2:P2,H3:P3"
                    + " [--election-timeout-ms MS] [--snapshot-interval-secs S]"
                    + " [--tls-ca CA.crt --tls-cert NODE.crt --tls-key NODE.key]");
            System.exit(2);
            return;
        }
        RaftNode node;
        try {
            node = RaftNode.start(options);
        } catch (IOException | IllegalArgumentException e) {
            LOG.error("raft node {} did not start", options.self(), e);
            System.err.println("kegdb node: " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("stopping raft node {}", options.self());
            try {
                node.close();
            } finally {
                stopped.countDown();
            }
        }, "kegdb-node-shutdown"));
        LOG.info("raft node {} of group {} running; data in {}", options.self(), options.group(), options.dir());
        stopped.await();
    }
}
