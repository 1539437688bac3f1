package io.kegdb.raft;

import io.kegdb.engine.KvStore;
import io.kegdb.raft.security.ClientCertificates;
import io.kegdb.raft.security.TlsFiles;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;
import java.util.stream.Collectors;

/** Raft nodes on 127.0.0.1 in this JVM, each in its own directory, with short election timeouts. */
public final class TestCluster implements AutoCloseable {

    public static final String GROUP = "kegdb-test";
    public static final int ELECTION_TIMEOUT_MS = 600;

    public final Path root;
    public final List<String> addresses = new ArrayList<>();
    public final List<RaftNode> nodes = new ArrayList<>();
    /** Cuts nodes off or pauses them; nothing until a test asks. */
    public final NetworkFaults faults = new NetworkFaults();
    /** The TLS files of node i, or null for none (the default). */
    public IntFunction<TlsFiles> tls = i -> null;
    /** With TLS: whether the nodes require client certificates (default optional). */
    public ClientCertificates clientCertificates = ClientCertificates.OPTIONAL;
    /** With TLS: the first admin's password the nodes are started with, or null for a cluster without users. */
    public String adminPassword;
    private final List<KvStore> clients = new ArrayList<>();

    public TestCluster(Path root, int size) throws IOException {
        this.root = root;
        for (int i = 0; i < size; i++) {
            addresses.add(newAddress());
            nodes.add(null);
        }
    }

    public String peers() {
        return String.join(",", addresses);
    }

    public RaftNode start(int i) throws IOException {
        return start(i, peers());
    }

    public RaftNode start(int i, String peers) throws IOException {
        RaftNode node = RaftNode.start(RaftNodeOptions.builder()
                .dir(root.resolve("node-" + i))
                .group(GROUP)
                .self(addresses.get(i))
                .peers(peers)
                .electionTimeoutMs(ELECTION_TIMEOUT_MS)
                .requestTimeout(Duration.ofSeconds(15))
                .tls(tls.apply(i))
                .clientCertificates(clientCertificates)
                .adminPassword(adminPassword)
                .build(), faults.serverOf(addresses.get(i)));
        nodes.set(i, node);
        return node;
    }

    public void startAll() throws IOException {
        for (int i = 0; i < addresses.size(); i++) {
            start(i);
        }
    }

    public void stop(int i) {
        RaftNode n = nodes.get(i);
        if (n != null) {
            n.close();
            nodes.set(i, null);
        }
    }

    public int addNode() throws IOException {
        addresses.add(newAddress());
        nodes.add(null);
        return addresses.size() - 1;
    }

    /** The index of the node that leads, waiting until one does. */
    public int awaitLeader() throws InterruptedException {
        int[] found = {-1};
        await(() -> {
            for (int i = 0; i < nodes.size(); i++) {
                if (nodes.get(i) != null && nodes.get(i).isLeader()) {
                    found[0] = i;
                    return true;
                }
            }
            return false;
        }, "a leader is elected");
        return found[0];
    }

    public String running() {
        return nodes.stream().filter(n -> n != null).map(n -> n.status().toString()).collect(Collectors.joining("\n"));
    }

    public static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("timed out after 30 s waiting until " + what);
            }
            Thread.sleep(20);
        }
    }

    /** A free loopback address none of the cluster's nodes has: the system may hand out a port just freed again. */
    private String newAddress() throws IOException {
        String address;
        do {
            address = "127.0.0.1:" + freePort();
        } while (addresses.contains(address));
        return address;
    }

    public static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** A thin client of the whole group with {@code timeout} per request, closed with the cluster. */
    public KvStore client(Duration timeout) {
        KvStore client = RaftGroupClient.connect(GROUP, peers(), timeout);
        clients.add(client);
        return client;
    }

    /** Closes the clients {@link #client} made, then stops every node. */
    @Override
    public void close() {
        clients.forEach(KvStore::close);
        for (int i = 0; i < nodes.size(); i++) {
            stop(i);
        }
    }
}
