package io.kegdb.bench.cluster;

import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftNodeOptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Three Raft nodes of one group in this JVM, on 127.0.0.1 ports free when it starts, each under its own
 * directory; closing it stops them all.
 */
public final class LocalCluster implements AutoCloseable {

    private static final int NODES = 3;

    private final String peers;
    private final List<RaftNode> nodes;

    private LocalCluster(String peers, List<RaftNode> nodes) {
        this.peers = peers;
        this.nodes = nodes;
    }

    /**
     * Starts the nodes under {@code dir/node-0..2}; {@code options} adds settings to each node's builder,
     * which already has its directory, the group, its own address and the peers.
     */
    public static LocalCluster start(Path dir, String group, UnaryOperator<RaftNodeOptions.Builder> options)
            throws IOException {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            addresses.add("127.0.0.1:" + freePort());
        }
        String peers = String.join(",", addresses);
        List<RaftNode> nodes = new ArrayList<>();
        LocalCluster cluster = new LocalCluster(peers, nodes);
        try {
            for (int i = 0; i < NODES; i++) {
                nodes.add(RaftNode.start(options.apply(RaftNodeOptions.builder().dir(dir.resolve("node-" + i))
                        .group(group).self(addresses.get(i)).peers(peers)).build()));
            }
        } catch (IOException | RuntimeException e) {
            cluster.close();
            throw e;
        }
        return cluster;
    }

    /** The nodes' addresses, {@code host:port,...}, as clients and the thin JDBC URL list them. */
    public String peers() {
        return peers;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (RaftNode n : nodes) {
            n.close();
        }
    }
}
