package io.kegdb.tests.cluster;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The cluster kill loop, in the manner of a Jepsen test: on a running {@link NodeCluster}, a JDBC thin client
 * runs two workloads without pause while nodes are killed with SIGKILL and restarted (the current leader, found
 * in {@code SYS.RAFT}, every other round; otherwise the node killed least so far, so every node goes down):
 * <ul>
 *   <li><b>inserts</b>: {@code INSERT INTO KV VALUES ('w<n>', 'v<n>')}, each outcome recorded;</li>
 *   <li><b>increments</b>: transactions that read a counter, write it back plus one and insert a row keyed by
 *       the new value naming the operation ({@code INCS (N, OP)}).</li>
 * </ul>
 * Afterwards, on every node: every acknowledged insert is there; no insert that failed with 08006 ("nothing
 * was written") is; the counter equals the number of increment rows, their keys are exactly 1..counter, every
 * acknowledged increment appears exactly once and no operation appears twice. Outcomes reported as unknown
 * (08007) may go either way. Any other failure of a workload's statement fails the loop, so the workloads'
 * connections must keep working across every kill (with users: their logins too). The longest write outage
 * after a kill is reported, not asserted.
 */
final class KillLoop implements AutoCloseable {

    /** The tables the workloads write, which a user running them needs ALL on. */
    static final List<String> TABLES = List.of("KV", "INCS", "COUNTER");

    /** Opens a connection to a URL of the cluster, as the workloads' user. */
    interface Connector {
        Connection connect(String url) throws SQLException;
    }

    /** What became of one operation. */
    enum Outcome { ACKNOWLEDGED, NOT_WRITTEN, UNKNOWN }

    private final NodeCluster cluster;
    private final List<String> nodes;
    private final String query;
    private final Connector connector;
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> workers = new ArrayList<>();

    /**
     * @param query     the URL options of every connection ({@code raft.timeout=20s}, TLS options)
     * @param connector how the workloads connect (with a user and password on a cluster with users)
     */
    KillLoop(NodeCluster cluster, String query, Connector connector) {
        this.cluster = cluster;
        this.nodes = cluster.nodes();
        this.query = query;
        this.connector = connector;
    }

    /** Creates the workloads' tables and the counter's row (as a user who may run DDL). */
    static void createTables(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE INCS (N BIGINT PRIMARY KEY, OP VARCHAR)");
            s.executeUpdate("CREATE TABLE COUNTER (K VARCHAR PRIMARY KEY, V BIGINT)");
            s.executeUpdate("INSERT INTO COUNTER VALUES ('c', 0)");
        }
    }

    private static Outcome failure(SQLException e) {
        return switch (e.getSQLState()) {
            case "08006" -> Outcome.NOT_WRITTEN;
            case "08007" -> Outcome.UNKNOWN;
            default -> throw new AssertionError("unexpected failure " + e.getSQLState() + ": " + e, e);
        };
    }

    /**
     * Runs {@code rounds} kills and restarts under the workloads (the tables must exist), then checks every
     * node.
     *
     * @return one line: the outcomes counted and each round's victim and outage
     */
    String run(int rounds) throws Exception {
        String url = cluster.url(query);
        Map<Long, Outcome> inserts = new ConcurrentHashMap<>();
        Map<Long, Outcome> increments = new ConcurrentHashMap<>();
        AtomicLong insertAcks = new AtomicLong();
        AtomicLong lastAck = new AtomicLong();
        AtomicLong longestGap = new AtomicLong();
        List<Throwable> workerErrors = new ArrayList<>();

        try (Connection c = connector.connect(url); Connection inc = connector.connect(url);
             Connection admin = connector.connect(url)) {
            lastAck.set(System.nanoTime());
            workers.add(worker("inserts", workerErrors, () -> {
                try (PreparedStatement p = c.prepareStatement("INSERT INTO KV VALUES (?, ?)")) {
                    for (long n = 0; !stop.get(); n++) {
                        p.setString(1, "w" + n);
                        p.setString(2, "v" + n);
                        try {
                            assertEquals(1, p.executeUpdate());
                            inserts.put(n, Outcome.ACKNOWLEDGED);
                            insertAcks.incrementAndGet();
                            long now = System.nanoTime();
                            longestGap.accumulateAndGet(now - lastAck.getAndSet(now), Math::max);
                        } catch (SQLException e) {
                            inserts.put(n, failure(e));
                        }
                    }
                }
            }));
            workers.add(worker("increments", workerErrors, () -> {
                inc.setAutoCommit(false);
                try (PreparedStatement read = inc.prepareStatement("SELECT V FROM COUNTER WHERE K = 'c'");
                     PreparedStatement write = inc.prepareStatement("UPSERT INTO COUNTER VALUES ('c', ?)");
                     PreparedStatement row = inc.prepareStatement("INSERT INTO INCS VALUES (?, ?)")) {
                    for (long op = 0; !stop.get(); op++) {
                        try {
                            long v;
                            try (ResultSet rs = read.executeQuery()) {
                                assertTrue(rs.next());
                                v = rs.getLong(1);
                            }
                            write.setLong(1, v + 1);
                            write.executeUpdate();
                            row.setLong(1, v + 1);
                            row.setString(2, "op" + op);
                            row.executeUpdate();
                            inc.commit();
                            increments.put(op, Outcome.ACKNOWLEDGED);
                        } catch (SQLException e) {
                            inc.rollback();
                            // a failed read writes nothing either: record it like a failed commit
                            increments.put(op, failure(e));
                        }
                    }
                }
            }));
            workers.forEach(Thread::start);

            Map<Integer, Integer> kills = new HashMap<>();
            List<String> log = new ArrayList<>();
            for (int round = 0; round < rounds; round++) {
                awaitMore(insertAcks, 50, workerErrors);
                String leader = ClusterSql.leaderOf(admin);
                int victim = round % 2 == 0 ? nodes.indexOf(leader) : leastKilledFollower(kills, leader);
                kills.merge(victim, 1, Integer::sum);
                longestGap.set(0);
                lastAck.set(System.nanoTime());
                cluster.kill(victim);
                awaitMore(insertAcks, 50, workerErrors); // the two others keep the group writable
                log.add((victim == nodes.indexOf(leader) ? "leader " : "follower ") + nodes.get(victim) + ": outage "
                        + TimeUnit.NANOSECONDS.toMillis(longestGap.get()) + " ms");
                cluster.start(victim);
                ClusterSql.awaitCaughtUp(admin, nodes.get(victim)); // so the next kill never takes the majority down
            }
            awaitMore(insertAcks, 50, workerErrors);
            stopWorkers();
            assertEquals(List.of(), workerErrors);

            Map<Outcome, Long> insertCounts = count(inserts);
            Map<Outcome, Long> incCounts = count(increments);

            // every node on its own (local reads), once it applied the last acknowledged insert
            long lastInsert = inserts.entrySet().stream().filter(e -> e.getValue() == Outcome.ACKNOWLEDGED)
                    .mapToLong(Map.Entry::getKey).max().orElseThrow();
            long counter = -1;
            long unknownInsertsApplied = -1;
            String local = "readConsistency=local&raft.timeout=20s" + (query.isEmpty() ? "" : "&" + query);
            for (String node : nodes) {
                try (Connection one = connector.connect(cluster.url(cluster.indexOf(node), local))) {
                    awaitKey(one, "w" + lastInsert, node);
                    long applied = checkInserts(one, inserts, node);
                    long nodeCounter = checkIncrements(one, increments, node);
                    if (counter >= 0) {
                        assertEquals(counter, nodeCounter, "counter on " + node + " agrees with the others");
                        assertEquals(unknownInsertsApplied, applied, "the same inserts on " + node);
                    }
                    counter = nodeCounter;
                    unknownInsertsApplied = applied;
                }
            }
            long ackedIncrements = incCounts.getOrDefault(Outcome.ACKNOWLEDGED, 0L);
            assertTrue(counter >= ackedIncrements, "counter " + counter);
            return String.format("%d rounds; inserts %s, %d of the unknown applied; increments %s, %d of the unknown"
                    + " applied; %s", rounds, insertCounts, unknownInsertsApplied, incCounts, counter - ackedIncrements,
                    log);
        }
    }

    private void stopWorkers() throws InterruptedException {
        stop.set(true);
        for (Thread t : workers) {
            t.join(60_000);
            assertTrue(!t.isAlive(), t.getName() + " stopped");
        }
    }

    /** Stops the workloads if a check failed before they were stopped. */
    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread t : workers) {
            t.join(60_000);
        }
    }

    private Thread worker(String name, List<Throwable> errors, Body body) {
        return new Thread(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                synchronized (errors) {
                    errors.add(t);
                }
                stop.set(true);
            }
        }, name);
    }

    private interface Body {
        void run() throws Exception;
    }

    private static Map<Outcome, Long> count(Map<Long, Outcome> outcomes) {
        Map<Outcome, Long> counts = new TreeMap<>();
        outcomes.values().forEach(o -> counts.merge(o, 1L, Long::sum));
        return counts;
    }

    /** Acknowledged inserts are all there, inserts that failed with 08006 are not; returns the unknown ones there. */
    private static long checkInserts(Connection c, Map<Long, Outcome> inserts, String node) throws SQLException {
        Set<String> keys = new HashSet<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT K, V FROM KV")) {
            while (rs.next()) {
                String k = rs.getString(1);
                assertEquals("v" + k.substring(1), rs.getString(2), k + " on " + node);
                keys.add(k);
            }
        }
        long unknownApplied = 0;
        for (Map.Entry<Long, Outcome> e : inserts.entrySet()) {
            boolean there = keys.contains("w" + e.getKey());
            switch (e.getValue()) {
                case ACKNOWLEDGED -> assertTrue(there, "acknowledged insert w" + e.getKey() + " missing on " + node);
                case NOT_WRITTEN -> assertTrue(!there, "insert w" + e.getKey() + " failed with 08006 yet is on " + node);
                case UNKNOWN -> unknownApplied += there ? 1 : 0;
            }
        }
        return unknownApplied;
    }

    /** The counter and its rows agree, no operation appears twice, acknowledged ones once; returns the counter. */
    private static long checkIncrements(Connection c, Map<Long, Outcome> increments, String node) throws SQLException {
        long counter;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT V FROM COUNTER WHERE K = 'c'")) {
            assertTrue(rs.next());
            counter = rs.getLong(1);
        }
        Map<String, Long> opRows = new HashMap<>();
        long expectedKey = 1;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT N, OP FROM INCS ORDER BY N")) {
            while (rs.next()) {
                assertEquals(expectedKey++, rs.getLong(1), "increment rows are 1..counter on " + node);
                Long before = opRows.put(rs.getString(2), rs.getLong(1));
                assertEquals(null, before, rs.getString(2) + " applied twice on " + node);
            }
        }
        assertEquals(counter, expectedKey - 1, "counter equals its rows on " + node);
        increments.forEach((op, outcome) -> {
            if (outcome == Outcome.ACKNOWLEDGED) {
                assertNotNull(opRows.get("op" + op), "acknowledged increment op" + op + " missing on " + node);
            } else if (outcome == Outcome.NOT_WRITTEN) {
                assertEquals(null, opRows.get("op" + op), "op" + op + " failed with 08006 yet is on " + node);
            }
        });
        return counter;
    }

    private int leastKilledFollower(Map<Integer, Integer> kills, String leader) {
        int best = -1;
        for (int i = 0; i < nodes.size(); i++) {
            if (!nodes.get(i).equals(leader) && (best < 0 || kills.getOrDefault(i, 0) < kills.getOrDefault(best, 0))) {
                best = i;
            }
        }
        return best;
    }

    private static void awaitMore(AtomicLong acks, int more, List<Throwable> errors) throws InterruptedException {
        long target = acks.get() + more;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (acks.get() < target) {
            synchronized (errors) {
                assertEquals(List.of(), errors, "a worker failed");
            }
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + target + " acknowledged inserts");
            Thread.sleep(20);
        }
    }

    private static void awaitKey(Connection c, String key, String node) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (PreparedStatement p = c.prepareStatement("SELECT V FROM KV WHERE K = ?")) {
                p.setString(1, key);
                try (ResultSet rs = p.executeQuery()) {
                    if (rs.next()) {
                        return;
                    }
                }
            }
            assertTrue(System.nanoTime() < deadline, node + " never applied " + key);
            Thread.sleep(50);
        }
    }
}
