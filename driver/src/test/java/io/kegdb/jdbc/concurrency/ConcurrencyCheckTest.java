package io.kegdb.jdbc.concurrency;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * 16 JDBC connections read and write a 20-key counter table at once, in autocommit and in explicit
 * transactions that commit or roll back, while the store merges continuously (4 KiB segments, a merge every
 * 100 ms). Isolation is READ_COMMITTED with last-writer-wins, so a counter is only lost-update-free when one
 * connection writes it: each counter has an owner thread and every thread reads every counter. Checked:
 * <ul>
 *   <li>read-your-writes inside a transaction (point read and ordered scan see the pending value);</li>
 *   <li>monotonic reads: no thread ever sees a counter's version go backwards;</li>
 *   <li>no lost committed update: each final counter equals its committed increments, also after a restart;</li>
 *   <li>rolled-back and uncommitted writes (negative "poison" values, poison rows) are never visible to others;</li>
 *   <li>a transaction is atomic: its log row exists exactly when its increment counted; a commit that fails
 *       (a racing INSERT of the same key, 23505) writes nothing;</li>
 *   <li>a contested INSERT has exactly one winner.</li>
 * </ul>
 * A shared counter incremented read-modify-write (SELECT, then UPDATE) by all threads shows what READ_COMMITTED
 * does not promise: a commit fails with 40001 if the row changed after its UPDATE read it, but a change between
 * the SELECT and the UPDATE is lost; the losses are counted and printed, and only "never more than committed"
 * is asserted.
 */
class ConcurrencyCheckTest {

    private static final int THREADS = 16;
    private static final int KEYS = 20;
    private static final int RACE_KEYS = 200;

    @TempDir
    Path tmp;

    private final Map<String, LongAdder> ops = new ConcurrentHashMap<>();
    private final AtomicLong[] committed = new AtomicLong[KEYS];
    private final Set<String> committedLogRows = ConcurrentHashMap.newKeySet();
    private final Map<Integer, List<Integer>> raceWinners = new ConcurrentHashMap<>();
    private final AtomicLong sharedCommitted = new AtomicLong();
    private final List<String> violations = Collections.synchronizedList(new ArrayList<>());

    private static String key(int i) {
        return String.format("c%02d", i);
    }

    @Test
    void concurrentTransactionsKeepTheirGuaranteesWhileMerging() throws Exception {
        boolean stress = Boolean.getBoolean("kegdb.stress");
        long seconds = Long.getLong("kegdb.concurrency.seconds", stress ? 120 : 10);
        String url = "jdbc:kegdb:" + tmp.resolve("db")
                + "?durability=nosync&segmentSize=4k&mergeInterval=100ms&mergeMinFiles=1&mergeGarbageRatio=0";
        for (int i = 0; i < KEYS; i++) {
            committed[i] = new AtomicLong();
        }
        try (Connection setup = DriverManager.getConnection(url); Statement s = setup.createStatement()) {
            s.executeUpdate("CREATE TABLE C (K VARCHAR PRIMARY KEY, V BIGINT)");
            s.executeUpdate("CREATE TABLE L (K VARCHAR PRIMARY KEY, V BIGINT)");
            for (int i = 0; i < KEYS; i++) {
                s.executeUpdate("INSERT INTO C VALUES ('" + key(i) + "', 0)");
            }
            s.executeUpdate("INSERT INTO C VALUES ('shared', 0)");
            long mergesBefore = merges(setup);

            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                int thread = t;
                futures.add(pool.submit(() -> {
                    worker(url, thread, deadline);
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get(seconds + 120, TimeUnit.SECONDS);
            }
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
            long mergesDuring = merges(setup) - mergesBefore;

            long sharedFinal = verifyFinalState(setup);
            System.out.println("Concurrency: " + THREADS + " threads, " + KEYS + " owned counters, " + seconds
                    + " s, " + mergesDuring + " merges during the run; operations " + new java.util.TreeMap<>(ops));
            System.out.println("  committed increments " + totalCommitted() + ", log rows " + committedLogRows.size()
                    + ", contested inserts won " + raceWinners.size() + " of " + RACE_KEYS + " keys");
            System.out.println("  shared read-modify-write counter: " + sharedCommitted.get() + " committed increments,"
                    + " final value " + sharedFinal + " (" + (sharedCommitted.get() - sharedFinal)
                    + " lost between a SELECT and its UPDATE, as READ_COMMITTED allows)");
            assertTrue(mergesDuring > 0, "no merge ran during the test");
        }
        // After a restart the store holds exactly the committed state.
        try (Connection reopened = DriverManager.getConnection(url)) {
            verifyFinalState(reopened);
        }
        assertTrue(violations.isEmpty(), violations.size() + " violations, first: "
                + violations.subList(0, Math.min(10, violations.size())));
        assertTrue(totalCommitted() > 0, "no increment committed");
    }

    private long totalCommitted() {
        long sum = 0;
        for (AtomicLong c : committed) {
            sum += c.get();
        }
        return sum;
    }

    private static long merges(Connection c) throws SQLException {
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT \"VALUE\" FROM SYS.STATS WHERE NAME = 'merges'")) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    private void count(String op) {
        ops.computeIfAbsent(op, k -> new LongAdder()).increment();
    }

    private void violation(String what) {
        violations.add(what);
    }

    private void worker(String url, int thread, long deadline) throws SQLException {
        Random random = new Random(thread * 7919L);
        long[] lastSeen = new long[KEYS];
        List<Integer> owned = new ArrayList<>();
        for (int i = thread; i < KEYS; i += THREADS) {
            owned.add(i);
        }
        int serial = 0;
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement point = c.prepareStatement("SELECT V FROM C WHERE K = ?");
             PreparedStatement scan = c.prepareStatement("SELECT K, V FROM C WHERE K LIKE 'c%' ORDER BY K");
             PreparedStatement poisonRows = c.prepareStatement("SELECT COUNT(*) FROM L WHERE K LIKE 'poison%'");
             PreparedStatement increment = c.prepareStatement("UPDATE C SET V = V + 1 WHERE K = ?");
             PreparedStatement set = c.prepareStatement("UPDATE C SET V = ? WHERE K = ?");
             PreparedStatement insert = c.prepareStatement("INSERT INTO L VALUES (?, ?)")) {
            while (System.nanoTime() - deadline < 0 && violations.size() < 20) {
                int dice = random.nextInt(100);
                int mine = owned.get(random.nextInt(owned.size()));
                serial++;
                if (dice < 30) {
                    int k = random.nextInt(KEYS);
                    long v = readPoint(point, key(k));
                    checkMonotonic(thread, k, lastSeen, v, "point read");
                    count("read-point");
                } else if (dice < 42) {
                    checkScan(thread, scan, lastSeen);
                    try (ResultSet rs = poisonRows.executeQuery()) {
                        rs.next();
                        if (rs.getLong(1) != 0) {
                            violation("thread " + thread + " saw " + rs.getLong(1) + " uncommitted/rolled-back rows");
                        }
                    }
                    count("read-scan");
                } else if (dice < 60) {
                    increment.setString(1, key(mine));
                    if (increment.executeUpdate() != 1) {
                        violation("autocommit increment of " + key(mine) + " updated no row");
                    }
                    committed[mine].incrementAndGet();
                    count("increment-autocommit");
                } else if (dice < 85) {
                    transactionalIncrement(c, thread, mine, serial, random, point, scan, set, insert, lastSeen);
                } else if (dice < 93) {
                    poisonTransaction(c, thread, mine, serial, point, set, insert);
                } else if (dice < 97) {
                    raceInsert(insert, thread, random.nextInt(RACE_KEYS));
                } else {
                    sharedIncrement(c, point, set);
                }
            }
        } catch (SQLException | RuntimeException e) {
            violation("thread " + thread + " failed: " + e);
            throw e;
        }
    }

    private static long readPoint(PreparedStatement point, String key) throws SQLException {
        point.setString(1, key);
        try (ResultSet rs = point.executeQuery()) {
            if (!rs.next()) {
                throw new SQLException("row " + key + " is missing");
            }
            return rs.getLong(1);
        }
    }

    private void checkMonotonic(int thread, int k, long[] lastSeen, long v, String how) {
        if (v < 0) {
            violation("thread " + thread + " saw uncommitted or rolled-back value " + v + " of " + key(k) + " (" + how + ")");
        } else if (v < lastSeen[k]) {
            violation("thread " + thread + " saw " + key(k) + " go back from " + lastSeen[k] + " to " + v + " (" + how + ")");
        } else {
            lastSeen[k] = v;
        }
    }

    private void checkScan(int thread, PreparedStatement scan, long[] lastSeen) throws SQLException {
        int rows = 0;
        try (ResultSet rs = scan.executeQuery()) {
            while (rs.next()) {
                int k = Integer.parseInt(rs.getString(1).substring(1));
                checkMonotonic(thread, k, lastSeen, rs.getLong(2), "scan");
                rows++;
            }
        }
        if (rows != KEYS) {
            violation("thread " + thread + " scanned " + rows + " counters, expected " + KEYS);
        }
    }

    /**
     * Read own counter, write it + 1, check read-your-writes, add a log row and maybe a contested row, then commit
     * or roll back. Only a successful commit counts; a failed one must have written nothing.
     */
    private void transactionalIncrement(Connection c, int thread, int mine, int serial, Random random,
                                        PreparedStatement point, PreparedStatement scan, PreparedStatement set,
                                        PreparedStatement insert, long[] lastSeen) throws SQLException {
        c.setAutoCommit(false);
        String logRow = "log-" + thread + "-" + serial;
        int race = random.nextInt(4) == 0 ? random.nextInt(RACE_KEYS) : -1;
        boolean commit = random.nextInt(5) != 0;
        try {
            long v = readPoint(point, key(mine));
            if (v != committed[mine].get()) {
                violation("owner " + thread + " read " + v + " for " + key(mine) + " but committed " + committed[mine].get());
            }
            set.setLong(1, v + 1);
            set.setString(2, key(mine));
            set.executeUpdate();
            if (readPoint(point, key(mine)) != v + 1) {
                violation("read-your-writes: point read of " + key(mine) + " misses the pending " + (v + 1));
            }
            boolean sawPending = false;
            try (ResultSet rs = scan.executeQuery()) {
                while (rs.next()) {
                    sawPending |= rs.getString(1).equals(key(mine)) && rs.getLong(2) == v + 1;
                }
            }
            if (!sawPending) {
                violation("read-your-writes: scan misses the pending " + key(mine) + " = " + (v + 1));
            }
            insert.setString(1, logRow);
            insert.setLong(2, v + 1);
            insert.executeUpdate();
            if (race >= 0) {
                insert.setString(1, "race-" + race);
                insert.setLong(2, thread);
                try {
                    insert.executeUpdate();
                } catch (SQLException e) {
                    expectDuplicate(e);
                    commit = false; // the row is taken already: give the whole transaction up
                }
            }
            if (!commit) {
                c.rollback();
                count("transaction-rollback");
                return;
            }
            try {
                c.commit();
            } catch (SQLException e) {
                expectDuplicate(e); // another thread committed the same contested row first
                count("transaction-commit-conflict");
                return;
            }
            committed[mine].incrementAndGet();
            committedLogRows.add(logRow);
            if (race >= 0) {
                raceWinners.computeIfAbsent(race, r -> Collections.synchronizedList(new ArrayList<>())).add(thread);
            }
            lastSeen[mine] = Math.max(lastSeen[mine], v + 1);
            count("transaction-commit");
        } finally {
            if (!c.getAutoCommit()) {
                c.rollback();
                c.setAutoCommit(true);
            }
        }
    }

    /** Writes a negative value and a poison row, checks they are visible to this connection, rolls back. */
    private void poisonTransaction(Connection c, int thread, int mine, int serial, PreparedStatement point,
                                   PreparedStatement set, PreparedStatement insert) throws SQLException {
        c.setAutoCommit(false);
        try {
            set.setLong(1, -1 - serial);
            set.setString(2, key(mine));
            set.executeUpdate();
            insert.setString(1, "poison-" + thread + "-" + serial);
            insert.setLong(2, -1);
            insert.executeUpdate();
            if (readPoint(point, key(mine)) != -1 - serial) {
                violation("read-your-writes: the pending poison value of " + key(mine) + " is not visible to its writer");
            }
            c.rollback();
            if (readPoint(point, key(mine)) != committed[mine].get()) {
                violation("after rollback " + key(mine) + " is not its committed " + committed[mine].get());
            }
            count("poison-rollback");
        } finally {
            c.rollback();
            c.setAutoCommit(true);
        }
    }

    private void raceInsert(PreparedStatement insert, int thread, int race) throws SQLException {
        insert.setString(1, "race-" + race);
        insert.setLong(2, thread);
        try {
            insert.executeUpdate();
            raceWinners.computeIfAbsent(race, r -> Collections.synchronizedList(new ArrayList<>())).add(thread);
            count("race-insert-won");
        } catch (SQLException e) {
            expectDuplicate(e);
            count("race-insert-lost");
        }
    }

    private void sharedIncrement(Connection c, PreparedStatement point, PreparedStatement set) throws SQLException {
        c.setAutoCommit(false);
        try {
            long v = readPoint(point, "shared");
            set.setLong(1, v + 1);
            set.setString(2, "shared");
            set.executeUpdate();
            c.commit();
            sharedCommitted.incrementAndGet();
            count("shared-increment");
        } catch (SQLException e) {
            // The UPDATE's row changed before the commit: the commit wrote nothing (checked at the end).
            if (!"40001".equals(e.getSQLState())) {
                throw e;
            }
            c.rollback();
            count("shared-increment-conflict");
        } finally {
            c.setAutoCommit(true);
        }
    }

    private static void expectDuplicate(SQLException e) throws SQLException {
        if (!"23505".equals(e.getSQLState())) {
            throw e;
        }
    }

    /** Checks counters, log rows, contested rows and poison rows; returns the shared counter's value. */
    private long verifyFinalState(Connection c) throws SQLException {
        Map<String, Long> counters = new HashMap<>();
        Map<String, Long> rows = new HashMap<>();
        try (Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT K, V FROM C")) {
                while (rs.next()) {
                    counters.put(rs.getString(1), rs.getLong(2));
                }
            }
            try (ResultSet rs = s.executeQuery("SELECT K, V FROM L")) {
                while (rs.next()) {
                    rows.put(rs.getString(1), rs.getLong(2));
                }
            }
        }
        for (int i = 0; i < KEYS; i++) {
            assertEquals(committed[i].get(), counters.get(key(i)), "lost or phantom update of " + key(i));
        }
        Set<String> logRows = new HashSet<>();
        for (Map.Entry<String, Long> e : rows.entrySet()) {
            String k = e.getKey();
            if (k.startsWith("log-")) {
                logRows.add(k);
            } else if (k.startsWith("race-")) {
                List<Integer> winners = raceWinners.get(Integer.parseInt(k.substring(5)));
                assertTrue(winners != null && winners.size() == 1 && winners.get(0) == e.getValue().intValue(),
                        k + " = " + e.getValue() + " but the winners were " + winners);
            } else {
                throw new AssertionError("row " + k + " was never committed");
            }
        }
        assertEquals(committedLogRows, logRows, "log rows of committed transactions");
        for (Map.Entry<Integer, List<Integer>> e : raceWinners.entrySet()) {
            assertTrue(rows.containsKey("race-" + e.getKey()), "contested row race-" + e.getKey() + " is missing");
        }
        long shared = counters.get("shared");
        assertTrue(shared <= sharedCommitted.get() && (sharedCommitted.get() == 0 || shared > 0),
                "shared counter " + shared + " after " + sharedCommitted.get() + " committed increments");
        return shared;
    }
}
