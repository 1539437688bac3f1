package io.kegdb.tests.cluster;

import io.kegdb.engine.WriteBatch;
import io.kegdb.jdbc.isolation.LinearizabilityChecker;
import io.kegdb.jdbc.isolation.RegisterOperation;
import io.kegdb.raft.RaftLogReplay;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static io.kegdb.tests.cluster.ClusterSql.connectWhenUp;
import static io.kegdb.tests.cluster.ClusterSql.leaderOf;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Registers under a nemesis, in the manner of a Jepsen test: three {@code ./kegdb node} processes; writers
 * doing blind {@code UPSERT}s of unique values into a few registers (KV rows) and readers reading them, all
 * through JDBC thin clients, while the leader is paused ({@code SIGSTOP}, then {@code SIGCONT}) or killed
 * ({@code SIGKILL}, then restarted), alternately. Then:
 * <ul>
 *   <li>each register's history (invocation and answer times, unknown outcomes as open-ended) is
 *       linearizable ({@link LinearizabilityChecker});</li>
 *   <li>every node's Raft log, replayed up to the index all nodes applied ({@link RaftLogReplay}), applies
 *       each written value at most once, each acknowledged one exactly once, none that failed with 08006,
 *       and all nodes the same writes in the same order.</li>
 * </ul>
 * Rounds: 2 (a pause and a kill), or 8 under {@code -Pstress}. The longest write outage per round and the
 * resends found in the logs are printed.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ClusterNemesisTest {

    private static final String GROUP = "nemesis";
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
    private static final int ROUNDS = Boolean.getBoolean("kegdb.stress") ? 8 : 2;
    private static final int REGISTERS = 3;
    private static final int WRITERS = 3;
    private static final int READERS = 2;
    private static final long PAUSE_MS = 3000;
    /** A written value: writer and sequence number, fixed width so that no value is part of another. */
    private static final Pattern VALUE = Pattern.compile("w(\\d)-(\\d{7})");

    @TempDir
    Path dir;

    private final List<String> nodes = new ArrayList<>();
    private final List<Process> processes = new ArrayList<>();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> workers = new ArrayList<>();
    private final List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());

    @AfterEach
    void stopAll() throws Exception {
        stop.set(true);
        for (Thread t : workers) {
            t.join(60_000);
        }
        for (Process p : processes) {
            if (p != null && p.isAlive()) {
                signal(p, "CONT");
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    private Process startNode(int i) throws IOException {
        ProcessBuilder pb = new ProcessBuilder("bash", ROOT.resolve("kegdb").toString(), "node", "--dir",
                dir.resolve("node-" + i).toString(), "--group", GROUP, "--self", nodes.get(i),
                "--peers", String.join(",", nodes));
        pb.environment().put("KEGDB_SKIP_BUILD", "1"); // the reactor built the driver jar before this module
        pb.environment().put("KEGDB_JAVA_OPTS", "-Xmx256m");
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("node-" + i + ".log").toFile()));
        return pb.start();
    }

    /** Sends SIGSTOP or SIGCONT ({@code ./kegdb node} execs the JVM, so the process is the node itself). */
    private static void signal(Process p, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
        assertEquals(0, kill.waitFor(), "kill -" + signal + " " + p.pid());
    }

    private static String value(int writer, long n) {
        return String.format("w%d-%07d", writer, n);
    }

    /** A register value for the checker: 0 is the initial (absent) value. */
    private static long number(String value) {
        if (value == null) {
            return 0;
        }
        Matcher m = VALUE.matcher(value);
        assertTrue(m.matches(), "unexpected register value " + value);
        return Long.parseLong(m.group(1)) * 10_000_000L + Long.parseLong(m.group(2)) + 1;
    }

    @Test
    void registersStayLinearizableAndEachWriteIsAppliedOnceThroughPausesAndKills() throws Exception {
        for (int i = 0; i < 3; i++) {
            nodes.add("127.0.0.1:" + LoopbackPorts.free());
        }
        for (int i = 0; i < 3; i++) {
            processes.add(startNode(i));
        }
        String url = "jdbc:kegdb:raft://" + String.join(",", nodes) + "/" + GROUP + "?raft.timeout=10s";
        List<List<RegisterOperation>> histories = new ArrayList<>();
        for (int r = 0; r < REGISTERS; r++) {
            histories.add(Collections.synchronizedList(new ArrayList<>()));
        }
        Map<String, String> writeOutcomes = new ConcurrentHashMap<>(); // value -> ACKNOWLEDGED, NOT_WRITTEN, UNKNOWN
        AtomicLong acks = new AtomicLong();
        AtomicLong lastAck = new AtomicLong(System.nanoTime());
        AtomicLong longestGap = new AtomicLong();
        List<String> rounds = new ArrayList<>();

        try (Connection admin = connectWhenUp(url)) {
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                Connection c = DriverManager.getConnection(url);
                workers.add(worker("writer-" + w, c, () -> {
                    try (PreparedStatement p = c.prepareStatement("UPSERT INTO KV VALUES (?, ?)")) {
                        for (long n = 0; !stop.get(); n++) {
                            int register = (int) ((n + writer) % REGISTERS);
                            String v = value(writer, n);
                            p.setString(1, "r" + register);
                            p.setString(2, v);
                            long invoked = System.nanoTime();
                            try {
                                p.executeUpdate();
                                long answered = System.nanoTime();
                                histories.get(register).add(RegisterOperation.write(number(v), invoked, answered));
                                writeOutcomes.put(v, "ACKNOWLEDGED");
                                acks.incrementAndGet();
                                longestGap.accumulateAndGet(answered - lastAck.getAndSet(answered), Math::max);
                            } catch (SQLException e) {
                                switch (e.getSQLState()) {
                                    case "08006" -> writeOutcomes.put(v, "NOT_WRITTEN");
                                    case "08007" -> {
                                        writeOutcomes.put(v, "UNKNOWN");
                                        histories.get(register).add(RegisterOperation.write(number(v), invoked,
                                                RegisterOperation.UNKNOWN));
                                    }
                                    default -> throw e;
                                }
                            }
                            Thread.sleep(5);
                        }
                    }
                }));
            }
            for (int r = 0; r < READERS; r++) {
                int reader = r;
                Connection c = DriverManager.getConnection(url);
                workers.add(worker("reader-" + r, c, () -> {
                    try (PreparedStatement p = c.prepareStatement("SELECT V FROM KV WHERE K = ?")) {
                        for (long n = 0; !stop.get(); n++) {
                            int register = (int) ((n + reader) % REGISTERS);
                            p.setString(1, "r" + register);
                            long invoked = System.nanoTime();
                            try (ResultSet rs = p.executeQuery()) {
                                String v = rs.next() ? rs.getString(1) : null;
                                histories.get(register).add(RegisterOperation.read(number(v), invoked, System.nanoTime()));
                            } catch (SQLException e) {
                                if (!e.getSQLState().startsWith("08")) {
                                    throw e;
                                }
                                // a failed read observed nothing
                            }
                            Thread.sleep(5);
                        }
                    }
                }));
            }
            workers.forEach(Thread::start);

            for (int round = 0; round < ROUNDS; round++) {
                awaitMore(acks, 60);
                String leader = leaderOf(admin);
                int victim = nodes.indexOf(leader);
                boolean pause = round % 2 == 0;
                longestGap.set(0);
                lastAck.set(System.nanoTime());
                if (pause) {
                    signal(processes.get(victim), "STOP");
                    Thread.sleep(PAUSE_MS);
                    signal(processes.get(victim), "CONT");
                } else {
                    processes.get(victim).destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
                awaitMore(acks, 60);
                rounds.add((pause ? "pause " : "kill ") + leader + ": longest write gap "
                        + TimeUnit.NANOSECONDS.toMillis(longestGap.get()) + " ms");
                if (!pause) {
                    processes.set(victim, startNode(victim));
                }
                ClusterSql.awaitCaughtUp(admin, nodes.get(victim));
            }
            awaitMore(acks, 50);
            stop.set(true);
            for (Thread t : workers) {
                t.join(60_000);
                assertTrue(!t.isAlive(), t.getName() + " stopped");
            }
            assertEquals(List.of(), errors);

            for (int r = 0; r < REGISTERS; r++) {
                List<RegisterOperation> history = new ArrayList<>(histories.get(r));
                Optional<String> violation = check(history);
                assertEquals(Optional.empty(), violation, "register r" + r + " (" + history.size() + " operations)");
            }
            long upTo = ClusterSql.awaitAllApplied(admin, nodes);
            stopNodes();
            Map<String, Long> outcomes = new HashMap<>();
            writeOutcomes.values().forEach(o -> outcomes.merge(o, 1L, Long::sum));
            List<String> reference = null;
            long resends = 0;
            for (int i = 0; i < nodes.size(); i++) {
                List<RaftLogReplay.Write> writes = RaftLogReplay.writes(dir.resolve("node-" + i), upTo);
                resends = checkApplications(writes, writeOutcomes, nodes.get(i));
                List<String> applied = writes.stream().filter(RaftLogReplay.Write::applied)
                        .map(w -> w.index() + " " + w.request()).toList();
                if (reference != null) {
                    assertEquals(reference, applied, "node " + nodes.get(i) + " applied what the others did");
                }
                reference = applied;
            }
            System.out.printf("ClusterNemesisTest: %d rounds; writes %s; %d log entries up to %d; %d resends answered"
                    + " as duplicates; %s%n", ROUNDS, outcomes, reference.size(), upTo, resends, rounds);
        }
    }

    /** The linearizability search recurses once per operation: a thread with room for long histories. */
    private static Optional<String> check(List<RegisterOperation> history) throws InterruptedException {
        AtomicReference<Optional<String>> result = new AtomicReference<>();
        Thread t = new Thread(null, () -> result.set(LinearizabilityChecker.violation(history, 0)), "checker",
                512L << 20);
        t.start();
        t.join();
        assertTrue(result.get() != null, "the checker failed");
        return result.get();
    }

    /**
     * Every request (session, serial) and every value applied at most once; acknowledged values exactly
     * once; none failed with 08006; returns the write entries that were not applied (resends).
     */
    private static long checkApplications(List<RaftLogReplay.Write> writes, Map<String, String> outcomes,
                                          String node) {
        Map<String, Integer> applications = new HashMap<>();
        Map<String, Long> appliedRequests = new HashMap<>();
        long notApplied = 0;
        for (RaftLogReplay.Write w : writes) {
            if (!w.applied()) {
                notApplied++;
                continue;
            }
            if (w.request() != null) {
                Long earlier = appliedRequests.put(w.request(), w.index());
                assertEquals(null, earlier, "request " + w.request() + " applied at " + earlier + " and again at "
                        + w.index() + " on " + node);
            }
            w.batch().replay(new WriteBatch.Handler() {
                @Override
                public void put(byte[] key, byte[] value) {
                    Matcher m = VALUE.matcher(new String(value, StandardCharsets.ISO_8859_1));
                    while (m.find()) {
                        applications.merge(m.group(), 1, Integer::sum);
                    }
                }

                @Override
                public void delete(byte[] key) {
                }

                @Override
                public void putIfAbsent(byte[] key, byte[] value) {
                    put(key, value);
                }
            });
        }
        applications.forEach((v, n) -> assertEquals(1, n, v + " applied " + n + " times on " + node));
        outcomes.forEach((v, outcome) -> {
            switch (outcome) {
                case "ACKNOWLEDGED" -> assertEquals(1, applications.getOrDefault(v, 0),
                        "acknowledged " + v + " applied on " + node);
                case "NOT_WRITTEN" -> assertEquals(0, applications.getOrDefault(v, 0),
                        v + " failed with 08006 yet was applied on " + node);
                default -> { }
            }
        });
        return notApplied;
    }

    private void stopNodes() throws InterruptedException {
        for (Process p : processes) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    private Thread worker(String name, Connection c, Body body) {
        return new Thread(() -> {
            try (c) {
                body.run();
            } catch (Throwable t) {
                errors.add(t);
                stop.set(true);
            }
        }, name);
    }

    private interface Body {
        void run() throws Exception;
    }

    private void awaitMore(AtomicLong counter, int more) throws InterruptedException {
        long target = counter.get() + more;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (counter.get() < target) {
            assertEquals(List.of(), errors, "a worker failed");
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + target + " acknowledged writes");
            Thread.sleep(20);
        }
    }
}
