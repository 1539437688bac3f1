package io.kegdb.jdbc.isolation;

import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftNodeOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

/**
 * One open store of a {@link StoreKind} that hands out any number of connections to it. A connection held by
 * the store itself keeps embedded and in-memory stores open between tests; the Raft kind starts three nodes on
 * 127.0.0.1 ports chosen at run time. Each test makes its own tables ({@link #newTable}), so tests sharing a
 * store never see each other's rows.
 */
final class TestStore implements AutoCloseable {

    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final int ELECTION_TIMEOUT_MS = 600;

    private final StoreKind kind;
    private final Path dir;
    private final String url;
    private final List<RaftNode> nodes = new ArrayList<>();
    private final Connection keepOpen;

    private TestStore(StoreKind kind) throws IOException, SQLException {
        this.kind = kind;
        this.dir = Files.createTempDirectory("kegdb-isolation-" + kind.name().toLowerCase());
        this.url = switch (kind) {
            case EMBEDDED -> "jdbc:kegdb:" + dir.resolve("db");
            case MEMORY -> "jdbc:kegdb:mem:isolation-" + NAMES.incrementAndGet();
            case RAFT_CLUSTER -> "jdbc:kegdb:raft://" + startCluster() + "/isolation";
        };
        this.keepOpen = DriverManager.getConnection(url);
    }

    static TestStore open(StoreKind kind) {
        try {
            return new TestStore(kind);
        } catch (IOException | SQLException e) {
            throw new IllegalStateException("cannot open a " + kind + " store", e);
        }
    }

    /** Three nodes started through the public raft API; returns their addresses as the thin client lists them. */
    private String startCluster() throws IOException {
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            addresses.add("127.0.0.1:" + freePort());
        }
        String peers = String.join(",", addresses);
        for (int i = 0; i < 3; i++) {
            nodes.add(RaftNode.start(RaftNodeOptions.builder().dir(dir.resolve("node-" + i)).group("isolation")
                    .self(addresses.get(i)).peers(peers).electionTimeoutMs(ELECTION_TIMEOUT_MS)
                    .requestTimeout(Duration.ofSeconds(15)).build()));
        }
        return peers;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    StoreKind kind() {
        return kind;
    }

    /** A new connection, autocommit on, at the driver's default isolation level. */
    Connection connect() throws SQLException {
        return DriverManager.getConnection(url);
    }

    /** A new connection at {@code level}; autocommit off when {@code transactional}. */
    Connection connect(IsolationLevel level, boolean transactional) throws SQLException {
        Connection c = connect();
        c.setTransactionIsolation(level.jdbc());
        c.setAutoCommit(!transactional);
        return c;
    }

    /**
     * Creates a table {@code (K VARCHAR PRIMARY KEY, V BIGINT)} with a fresh name and the given rows
     * ({@code key, value, key, value, ...}); returns its name.
     */
    String newTable(Object... keysAndValues) throws SQLException {
        String name = "T" + NAMES.incrementAndGet();
        try (Statement s = keepOpen.createStatement()) {
            s.executeUpdate("CREATE TABLE " + name + " (K VARCHAR PRIMARY KEY, V BIGINT)");
            for (int i = 0; i < keysAndValues.length; i += 2) {
                s.executeUpdate("INSERT INTO " + name + " VALUES ('" + keysAndValues[i] + "', " + keysAndValues[i + 1] + ")");
            }
        }
        return name;
    }

    /** Seconds a bounded concurrent workload runs on this store: the cluster's commits take milliseconds each. */
    Duration workloadTime() {
        return kind == StoreKind.RAFT_CLUSTER ? Duration.ofMillis(2500) : Duration.ofMillis(1200);
    }

    @Override
    public String toString() {
        return kind.name();
    }

    @Override
    public void close() throws SQLException {
        try {
            keepOpen.close();
        } finally {
            nodes.forEach(RaftNode::close);
            deleteTree(dir);
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
