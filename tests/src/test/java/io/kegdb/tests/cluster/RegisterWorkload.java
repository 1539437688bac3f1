package io.kegdb.tests.cluster;

import io.kegdb.engine.WriteBatch;
import io.kegdb.jdbc.isolation.LinearizabilityChecker;
import io.kegdb.jdbc.isolation.RegisterOperation;
import io.kegdb.raft.RaftLogReplay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The client side of a nemesis test, in the manner of a Jepsen test: through JDBC thin clients, writers doing
 * blind {@code UPSERT}s of unique values into a few registers (KV rows), compare-and-setters reading a register
 * and then {@code UPDATE ... WHERE K = ? AND V = ?} to a unique value, and readers, each operation recorded with
 * its invocation and answer times (an unknown outcome, 08007, as open-ended). Afterwards {@link #findings}:
 * <ul>
 *   <li>each register's history is linearizable ({@link LinearizabilityChecker});</li>
 *   <li>every node's Raft log, replayed up to an index all nodes applied ({@link RaftLogReplay}), applies each
 *       request (session, serial) and each written value at most once, each acknowledged one exactly once, none
 *       the client was told was not written (08006, 40001, a compare-and-set of 0 rows), and all nodes the same
 *       writes in the same order. Whether an entry's preconditions held is decided against the replayed data.</li>
 * </ul>
 * A failed compare-and-set (0 rows) read something other than its expected value, which a register history
 * cannot say; it is left out of the history (that only weakens the check) and must not be applied.
 */
final class RegisterWorkload implements AutoCloseable {

    static final int REGISTERS = 3;
    /** A written value: writer and sequence number, fixed width so that no value is part of another. */
    private static final Pattern VALUE = Pattern.compile("w(\\d)-(\\d{7})");

    /** What a write's client was told: done, nothing written (08006, 40001, a compare-and-set of 0 rows), unknown. */
    enum Outcome { ACKNOWLEDGED, NOT_WRITTEN, UNKNOWN }

    private final List<List<RegisterOperation>> histories = new ArrayList<>();
    private final Map<String, Outcome> writes = new ConcurrentHashMap<>();
    /** For writes that were not acknowledged: why, and when (ms since the workload started). */
    private final Map<String, String> failures = new ConcurrentHashMap<>();
    private final long started = System.nanoTime();
    private final ConcurrentSkipListSet<Long> ackTimes = new ConcurrentSkipListSet<>();
    private final AtomicLong acks = new AtomicLong();
    private final AtomicLong compareAndSets = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final List<Thread> workers = new ArrayList<>();
    private final List<Throwable> errors = Collections.synchronizedList(new ArrayList<>());

    /** Starts the workers: {@code writers} blind writers, {@code casWriters} compare-and-setters, {@code readers} readers. */
    RegisterWorkload(String url, int writers, int casWriters, int readers) throws SQLException {
        assertTrue(writers + casWriters <= 10, "a writer's number is one digit");
        for (int r = 0; r < REGISTERS; r++) {
            histories.add(Collections.synchronizedList(new ArrayList<>()));
        }
        for (int w = 0; w < writers; w++) {
            int writer = w;
            workers.add(worker("writer-" + w, DriverManager.getConnection(url), c -> blindWrites(c, writer)));
        }
        for (int w = writers; w < writers + casWriters; w++) {
            int writer = w;
            workers.add(worker("cas-" + w, DriverManager.getConnection(url), c -> compareAndSets(c, writer)));
        }
        for (int r = 0; r < readers; r++) {
            int reader = r;
            workers.add(worker("reader-" + r, DriverManager.getConnection(url), c -> reads(c, reader)));
        }
        workers.forEach(Thread::start);
    }

    private void blindWrites(Connection c, int writer) throws Exception {
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
                    acknowledged(v, answered);
                } catch (SQLException e) {
                    if (failed(e, v)) {
                        histories.get(register).add(RegisterOperation.write(number(v), invoked,
                                RegisterOperation.UNKNOWN));
                    }
                }
                Thread.sleep(5);
            }
        }
    }

    private void compareAndSets(Connection c, int writer) throws Exception {
        try (PreparedStatement read = c.prepareStatement("SELECT V FROM KV WHERE K = ?");
             PreparedStatement cas = c.prepareStatement("UPDATE KV SET V = ? WHERE K = ? AND V = ?")) {
            for (long n = 0; !stop.get(); n++) {
                int register = (int) ((n + writer) % REGISTERS);
                String expected = read(read, register);
                if (expected == null) {
                    Thread.sleep(5);
                    continue; // nothing to compare with yet
                }
                String v = value(writer, n);
                cas.setString(1, v);
                cas.setString(2, "r" + register);
                cas.setString(3, expected);
                long invoked = System.nanoTime();
                try {
                    int rows = cas.executeUpdate();
                    long answered = System.nanoTime();
                    if (rows == 1) {
                        histories.get(register).add(RegisterOperation.readWrite(number(expected), number(v), invoked,
                                answered));
                        acknowledged(v, answered);
                        compareAndSets.incrementAndGet();
                    } else {
                        assertEquals(0, rows, "rows updated by a compare-and-set");
                        writes.put(v, Outcome.NOT_WRITTEN);
                        failures.put(v, "0 rows at " + sinceStart(answered) + " ms");
                    }
                } catch (SQLException e) {
                    if (failed(e, v)) {
                        histories.get(register).add(RegisterOperation.readWrite(number(expected), number(v), invoked,
                                RegisterOperation.UNKNOWN));
                    }
                }
                Thread.sleep(5);
            }
        }
    }

    private void reads(Connection c, int reader) throws Exception {
        try (PreparedStatement p = c.prepareStatement("SELECT V FROM KV WHERE K = ?")) {
            for (long n = 0; !stop.get(); n++) {
                read(p, (int) ((n + reader) % REGISTERS));
                Thread.sleep(5);
            }
        }
    }

    /** Reads a register, recording the read; null when it is empty or the read failed (which observed nothing). */
    private String read(PreparedStatement p, int register) throws SQLException {
        p.setString(1, "r" + register);
        long invoked = System.nanoTime();
        try (ResultSet rs = p.executeQuery()) {
            String v = rs.next() ? rs.getString(1) : null;
            histories.get(register).add(RegisterOperation.read(number(v), invoked, System.nanoTime()));
            return v;
        } catch (SQLException e) {
            if (!e.getSQLState().startsWith("08")) {
                throw e;
            }
            return null;
        }
    }

    private void acknowledged(String v, long answered) {
        writes.put(v, Outcome.ACKNOWLEDGED);
        ackTimes.add(answered);
        acks.incrementAndGet();
    }

    /**
     * Records a failed write; true if its outcome is unknown. 08006 (the connection failed before the request
     * left) and 40001 (a conflict, rolled back) wrote nothing; anything but these and 08007 fails the worker.
     */
    private boolean failed(SQLException e, String v) throws SQLException {
        failures.put(v, e.getSQLState() + " at " + sinceStart(System.nanoTime()) + " ms: " + e.getMessage());
        switch (e.getSQLState()) {
            case "08006", "40001" -> {
                writes.put(v, Outcome.NOT_WRITTEN);
                return false;
            }
            case "08007" -> {
                writes.put(v, Outcome.UNKNOWN);
                return true;
            }
            default -> throw e;
        }
    }

    private long sinceStart(long nanoTime) {
        return TimeUnit.NANOSECONDS.toMillis(nanoTime - started);
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

    long acknowledgedWrites() {
        return acks.get();
    }

    /** The first write acknowledged after {@code nanoTime}, if any yet. */
    Optional<Long> firstAckAfter(long nanoTime) {
        return Optional.ofNullable(ackTimes.higher(nanoTime));
    }

    /** The longest time between consecutive acknowledged writes (or the bounds) within [from, to]. */
    long longestGapNanos(long from, long to) {
        long longest = 0;
        long previous = from;
        for (long t : ackTimes.subSet(from, true, to, true)) {
            longest = Math.max(longest, t - previous);
            previous = t;
        }
        return Math.max(longest, to - previous);
    }

    /** Waits (at most 60 s) for {@code more} acknowledged writes, failing if a worker failed. */
    void awaitMore(int more) throws InterruptedException {
        long target = acks.get() + more;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (acks.get() < target) {
            assertEquals(List.of(), errors, "a worker failed");
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + target + " acknowledged writes");
            Thread.sleep(20);
        }
    }

    /** Stops the workers and waits for them; fails if one failed or does not stop. */
    void stop() throws InterruptedException {
        stop.set(true);
        for (Thread t : workers) {
            t.join(60_000);
            assertTrue(!t.isAlive(), t.getName() + " stopped");
        }
        assertEquals(List.of(), errors);
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        for (Thread t : workers) {
            t.join(60_000);
        }
    }

    /** What the checks found; every list empty when all is well. */
    record Findings(Map<Outcome, Long> outcomes, long compareAndSets, long logEntries, long resends, long refused,
                    List<String> nonLinearizable, List<String> appliedTwice, List<String> lostAcknowledged,
                    List<String> failedButApplied, List<String> divergent) {

        boolean clean() {
            return nonLinearizable.isEmpty() && appliedTwice.isEmpty() && lostAcknowledged.isEmpty()
                    && failedButApplied.isEmpty() && divergent.isEmpty();
        }

        @Override
        public String toString() {
            return "writes " + outcomes + " (" + compareAndSets + " compare-and-sets); " + logEntries
                    + " applied log entries, " + resends + " resends answered as duplicates, " + refused
                    + " refused by their preconditions; non-linearizable "
                    + nonLinearizable + ", applied twice " + appliedTwice + ", lost acknowledged " + lostAcknowledged
                    + ", not written by what the client was told but applied " + failedButApplied + ", diverging nodes " + divergent;
        }
    }

    /**
     * Checks the histories and, for every node directory in {@code nodeDirs} (nodes stopped), the log up to
     * {@code upTo}; the workers must have stopped.
     */
    Findings findings(List<Path> nodeDirs, long upTo) throws IOException, InterruptedException {
        List<String> nonLinearizable = new ArrayList<>();
        for (int r = 0; r < REGISTERS; r++) {
            List<RegisterOperation> history = new ArrayList<>(histories.get(r));
            Optional<String> violation = check(history);
            if (violation.isPresent()) {
                nonLinearizable.add("r" + r + " (" + history.size() + " operations): " + violation.get());
            }
        }
        Map<Outcome, Long> outcomes = new TreeMap<>();
        writes.values().forEach(o -> outcomes.merge(o, 1L, Long::sum));
        List<String> appliedTwice = new ArrayList<>();
        List<String> lost = new ArrayList<>();
        List<String> failedButApplied = new ArrayList<>();
        List<String> divergent = new ArrayList<>();
        List<String> reference = null;
        long resends = 0;
        long refused = 0;
        for (Path nodeDir : nodeDirs) {
            String node = nodeDir.getFileName().toString();
            List<RaftLogReplay.Write> log = RaftLogReplay.writes(nodeDir, upTo);
            Map<String, Integer> applications = new HashMap<>();
            Map<String, Long> appliedRequests = new HashMap<>();
            Map<ByteBuffer, byte[]> data = new HashMap<>();
            List<String> applied = new ArrayList<>();
            resends = 0;
            refused = 0;
            for (RaftLogReplay.Write w : log) {
                if (!w.applied()) {
                    resends++;
                    continue;
                }
                if (w.request() != null) {
                    Long earlier = appliedRequests.put(w.request(), w.index());
                    if (earlier != null) {
                        appliedTwice.add("request " + w.request() + " at " + earlier + " and " + w.index() + " on " + node);
                    }
                }
                ReplayedBatch batch = new ReplayedBatch();
                w.batch().replay(batch);
                if (batch.applyTo(data)) {
                    batch.countValues(applications);
                    applied.add(w.index() + " " + w.request());
                } else {
                    refused++;
                }
            }
            applications.forEach((v, n) -> {
                if (n != 1) {
                    appliedTwice.add(v + " " + n + " times on " + node);
                }
            });
            writes.forEach((v, outcome) -> {
                int n = applications.getOrDefault(v, 0);
                if (outcome == Outcome.ACKNOWLEDGED && n == 0) {
                    lost.add(v + " on " + node);
                } else if (outcome == Outcome.NOT_WRITTEN && n > 0) {
                    failedButApplied.add(v + " on " + node + " (" + failures.get(v) + ")");
                }
            });
            if (reference != null && !reference.equals(applied)) {
                divergent.add(node + " (" + applied.size() + " writes, the first node " + reference.size() + ")");
            }
            if (reference == null) {
                reference = applied;
            }
        }
        return new Findings(outcomes, compareAndSets.get(), reference == null ? 0 : reference.size(), resends, refused,
                nonLinearizable, appliedTwice, lost, failedButApplied, divergent);
    }

    /**
     * One log entry's batch, taken apart: its writes and its point preconditions. {@link RaftLogReplay} says
     * which entries are duplicates; whether an entry's preconditions held is decided here, against the data
     * replayed so far, as every replica decides it at apply.
     */
    private static final class ReplayedBatch implements WriteBatch.Handler {
        private final List<byte[][]> puts = new ArrayList<>(); // {key, value}; a null value deletes
        private final List<byte[][]> expectations = new ArrayList<>(); // {key, value or null for absent}
        private final List<byte[]> expectedPresent = new ArrayList<>(); // keys that must hold some value

        @Override
        public void put(byte[] key, byte[] value) {
            puts.add(new byte[][] {key, value});
        }

        @Override
        public void delete(byte[] key) {
            puts.add(new byte[][] {key, null});
        }

        @Override
        public void putIfAbsent(byte[] key, byte[] value) {
            expectations.add(new byte[][] {key, null});
            puts.add(new byte[][] {key, value});
        }

        @Override
        public void expect(byte[] key, byte[] value) {
            expectations.add(new byte[][] {key, value});
        }

        @Override
        public void expectPresent(byte[] key) {
            expectedPresent.add(key);
        }

        @Override
        public void expectRange(byte[] fromInclusive, byte[] toExclusive, long digest) {
            throw new AssertionError("the workload's statements make no range preconditions");
        }

        /** Applies the batch to {@code data} if its preconditions hold there; whether they did. */
        boolean applyTo(Map<ByteBuffer, byte[]> data) {
            for (byte[][] e : expectations) {
                if (!Arrays.equals(data.get(ByteBuffer.wrap(e[0])), e[1])) {
                    return false;
                }
            }
            for (byte[] key : expectedPresent) {
                if (!data.containsKey(ByteBuffer.wrap(key))) {
                    return false;
                }
            }
            for (byte[][] p : puts) {
                if (p[1] == null) {
                    data.remove(ByteBuffer.wrap(p[0]));
                } else {
                    data.put(ByteBuffer.wrap(p[0]), p[1]);
                }
            }
            return true;
        }

        /** Counts the written values the batch puts. */
        void countValues(Map<String, Integer> applications) {
            for (byte[][] p : puts) {
                if (p[1] != null) {
                    Matcher m = VALUE.matcher(new String(p[1], StandardCharsets.ISO_8859_1));
                    while (m.find()) {
                        applications.merge(m.group(), 1, Integer::sum);
                    }
                }
            }
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

    private Thread worker(String name, Connection c, Body body) {
        return new Thread(() -> {
            try (c) {
                body.run(c);
            } catch (Throwable t) {
                errors.add(t);
                stop.set(true);
            }
        }, name);
    }

    private interface Body {
        void run(Connection c) throws Exception;
    }
}
