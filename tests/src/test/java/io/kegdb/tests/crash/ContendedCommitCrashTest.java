package io.kegdb.tests.crash;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.CheckReport;
import io.kegdb.tests.support.ChildProcess;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * kill -9 of a JVM whose threads run contended transactions ({@link ContendedCommitterChild}: bank transfers
 * and counter increments at SERIALIZABLE and REPEATABLE_READ, retried on 40001, and autocommitted
 * {@code V = V + 1}), at random moments, round after round on one directory. After each kill the reopened
 * tables must be exactly the state before the round plus every acknowledged operation plus some whole
 * subset of the operations in flight (at most one per thread): the bank total never moves (no transfer in
 * part), each counter is at least its acknowledged increments and at most those plus its in-flight ones, no
 * acknowledged commit is missing, and the store passes its consistency check. The next round starts from
 * that state. Both durabilities: a kill loses nothing at {@code nosync} either, only a power cut can.
 *
 * <p>5 rounds per durability in the normal build, 25 with {@code -Pstress} ({@code kegdb.stress=true}).
 * The figures are printed at the end.
 */
class ContendedCommitCrashTest {

    @TempDir
    Path tmp;

    private final Map<String, Integer> acknowledged = new TreeMap<>();
    private long retries;
    private int inFlight;
    private int inFlightApplied;

    @ParameterizedTest(name = "durability={0}")
    @ValueSource(strings = {"sync", "nosync"})
    void contendedCommitsAreWholeAndNeverLostAcrossKill9(String durability) throws Exception {
        int rounds = Boolean.getBoolean("kegdb.stress") ? 25 : 5;
        Random rnd = new Random(20261201L + durability.hashCode());
        Path dir = tmp.resolve("db");
        try (Connection c = DriverManager.getConnection(ContendedCommitterChild.url(dir, durability))) {
            ContendedCommitterChild.createTables(c);
        }
        Map<String, Long> state = rows(dir, durability);
        assertEquals(bankTotal(), total(state), "opening balances");
        long started = System.nanoTime();
        for (int round = 0; round < rounds; round++) {
            long childSeed = rnd.nextLong();
            List<String> lines;
            try (ChildProcess child = ChildProcess.start(ContendedCommitterChild.class,
                    tmp.resolve("child-" + durability + "-" + round + ".log"),
                    dir.toString(), durability, String.valueOf(childSeed))) {
                child.awaitLine("OPEN", 120_000);
                lines = untilFirstAcknowledgement(child);
                Thread.sleep(300 + rnd.nextInt(1200));
                child.kill();
                lines.addAll(child.drain(10_000));
            }
            String context = durability + " round " + round + " (child seed " + childSeed + ")";
            try {
                state = check(state, lines, rows(dir, durability));
                try (Bitcask db = Bitcask.open(dir)) {
                    CheckReport report = db.verify();
                    assertTrue(report.ok(), "store fails the consistency check: " + report.problems());
                }
            } catch (AssertionError e) {
                throw new AssertionError(context + ": " + e.getMessage(), e);
            }
        }
        int acks = acknowledged.values().stream().mapToInt(Integer::intValue).sum();
        assertTrue(acks >= 20 * rounds, "too few commits acknowledged to prove anything: " + acknowledged);
        assertTrue(retries > 0, "no commit ever failed with 40001: the transactions were not contended");
        System.out.printf("contended commit crash (%s): %d rounds (kill -9 each) in %d s; %d operations"
                        + " acknowledged %s; %d attempts retried after 40001; %d in flight at the kills, %d of them"
                        + " found applied whole; bank total %d every round; lost = 0%n",
                durability, rounds, (System.nanoTime() - started) / 1_000_000_000L, acks, acknowledged, retries,
                inFlight, inFlightApplied, bankTotal());
    }

    /**
     * The child's lines up to its first acknowledgement: the first statements of a fresh JVM are slow, and a
     * kill before any commit would test nothing.
     */
    private static List<String> untilFirstAcknowledgement(ChildProcess child) throws InterruptedException {
        List<String> lines = new ArrayList<>();
        while (lines.isEmpty() || !lines.get(lines.size() - 1).startsWith("ACK ")) {
            String line = child.nextLine(120_000);
            if (line == null) {
                fail("the child acknowledged nothing (see its log); it printed " + lines);
            }
            lines.add(line);
        }
        return lines;
    }

    /**
     * Checks the reopened rows against {@code before} and the round's output; returns the rows as the next
     * round's starting state.
     */
    private Map<String, Long> check(Map<String, Long> before, List<String> lines, Map<String, Long> observed) {
        Map<Integer, ContendedOp> pending = new HashMap<>();
        Map<Integer, Long> pendingSeq = new HashMap<>();
        Map<String, Long> expected = new HashMap<>(before);
        for (String line : lines) {
            String[] p = line.split(" ");
            switch (p[0]) {
                case "TRY" -> {
                    int thread = Integer.parseInt(p[1]);
                    assertTrue(!pending.containsKey(thread), "thread " + thread + " started a second operation: " + line);
                    pending.put(thread, ContendedOp.parse(p, 3));
                    pendingSeq.put(thread, Long.parseLong(p[2]));
                }
                case "ACK" -> {
                    int thread = Integer.parseInt(p[1]);
                    ContendedOp op = ContendedOp.parse(p, 4);
                    assertEquals(pending.remove(thread), op, "acknowledged without being announced: " + line);
                    assertEquals(pendingSeq.remove(thread), Long.parseLong(p[2]), "out of order: " + line);
                    op.effect().forEach((row, delta) -> expected.merge(row, delta, Long::sum));
                    acknowledged.merge(op.label(), 1, Integer::sum);
                    retries += Integer.parseInt(p[3]) - 1;
                }
                default -> fail("the child failed (see its log): " + line);
            }
        }
        List<ContendedOp> unacknowledged = new ArrayList<>(pending.values());
        inFlight += unacknowledged.size();

        assertEquals(expected.keySet(), observed.keySet(), "rows of the bank and the counters");
        assertEquals(bankTotal(), total(observed), "bank total: a transfer is there in part; rows " + observed);
        for (int k = 0; k < ContendedCommitterChild.COUNTERS; k++) {
            String row = ContendedOp.counterRow(k);
            long least = expected.get(row);
            long most = least + unacknowledged.stream().filter(op -> op.effect().containsKey(row)).count();
            long got = observed.get(row);
            assertTrue(got >= least, row + " is " + got + ", below its " + least + " acknowledged: an increment lost");
            assertTrue(got <= most, row + " is " + got + ", above acknowledged " + least + " plus in flight: "
                    + unacknowledged);
        }
        int applied = wholeInFlightApplied(expected, unacknowledged, observed);
        if (applied < 0) {
            fail("no whole subset of the operations in flight " + unacknowledged + " turns the acknowledged state "
                    + new TreeMap<>(expected) + " into the one found " + new TreeMap<>(observed)
                    + ": an acknowledged commit lost or a transaction in part");
        }
        inFlightApplied += applied;
        return observed;
    }

    /**
     * The fewest in-flight operations whose whole effects, added to {@code expected}, give {@code observed};
     * -1 if no subset does. At most one per thread, so at most 2^{@value ContendedCommitterChild#THREADS} subsets.
     */
    private static int wholeInFlightApplied(Map<String, Long> expected, List<ContendedOp> inFlight,
                                            Map<String, Long> observed) {
        int best = -1;
        for (int mask = 0; mask < 1 << inFlight.size(); mask++) {
            Map<String, Long> candidate = new HashMap<>(expected);
            for (int i = 0; i < inFlight.size(); i++) {
                if ((mask & 1 << i) != 0) {
                    inFlight.get(i).effect().forEach((row, delta) -> candidate.merge(row, delta, Long::sum));
                }
            }
            if (candidate.equals(observed) && (best < 0 || Integer.bitCount(mask) < best)) {
                best = Integer.bitCount(mask);
            }
        }
        return best;
    }

    private static Map<String, Long> rows(Path dir, String durability) throws Exception {
        Map<String, Long> rows = new HashMap<>();
        try (Connection c = DriverManager.getConnection(ContendedCommitterChild.url(dir, durability));
             Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT K, V FROM BANK")) {
                while (rs.next()) {
                    rows.put(ContendedOp.bankRow(rs.getLong(1)), rs.getLong(2));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT K, V FROM CTR")) {
                while (rs.next()) {
                    rows.put(ContendedOp.counterRow(rs.getLong(1)), rs.getLong(2));
                }
            }
        }
        return rows;
    }

    private static long total(Map<String, Long> rows) {
        long sum = 0;
        for (int k = 0; k < ContendedCommitterChild.ACCOUNTS; k++) {
            sum += rows.get(ContendedOp.bankRow(k));
        }
        return sum;
    }

    private static long bankTotal() {
        return ContendedCommitterChild.ACCOUNTS * ContendedCommitterChild.OPENING_BALANCE;
    }
}
