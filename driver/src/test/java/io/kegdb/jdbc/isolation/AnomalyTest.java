package io.kegdb.jdbc.isolation;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;

import static io.kegdb.jdbc.isolation.IsolationLevel.READ_COMMITTED;
import static io.kegdb.jdbc.isolation.IsolationLevel.REPEATABLE_READ;
import static io.kegdb.jdbc.isolation.IsolationLevel.SERIALIZABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The anomalies of Adya's and Berenson et al.'s lists, each as one deterministic interleaving of two connections
 * (the statements run in the order written, from one thread), on every store and at every level that must
 * prevent it. A transaction at REPEATABLE_READ or SERIALIZABLE either commits as if it ran alone at its commit
 * point or fails at commit with 40001 and writes nothing.
 */
@Tag("isolation")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AnomalyTest {

    private static final OpenStores STORES = new OpenStores();

    @AfterAll
    static void closeStores() throws SQLException {
        STORES.close();
    }

    static Stream<Arguments> everyLevel() {
        return OpenStores.kindsAnd(IsolationLevel.values());
    }

    static Stream<Arguments> repeatableReadAndAbove() {
        return OpenStores.kindsAnd(REPEATABLE_READ, SERIALIZABLE);
    }

    static Stream<Arguments> serializable() {
        return OpenStores.kindsAnd(SERIALIZABLE);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyLevel")
    void theLevelSetIsTheLevelReported(StoreKind kind, IsolationLevel level) throws SQLException {
        try (Connection c = STORES.get(kind).connect()) {
            c.setTransactionIsolation(level.jdbc());
            assertEquals(level.jdbc(), c.getTransactionIsolation(), "getTransactionIsolation after setting " + level);
            c.setAutoCommit(false);
            assertEquals(level.jdbc(), c.getTransactionIsolation(), level + " kept inside a transaction");
        }
    }

    /** G0: two transactions write x and y; the committed state is all of one or all of the other, never a mix. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyLevel")
    void dirtyWriteNeverMixesTwoTransactions(StoreKind kind, IsolationLevel level) throws SQLException {
        TestStore store = STORES.get(kind);
        String t = store.newTable("x", 0, "y", 0);
        try (Connection a = store.connect(level, true); Connection b = store.connect(level, true)) {
            Rows.set(a, t, "x", 1);
            Rows.set(b, t, "x", 2);
            Rows.set(b, t, "y", 2);
            Rows.set(a, t, "y", 1);
            a.commit();
            boolean bCommitted = commitOrSerializationFailure(b);
            try (Connection check = store.connect()) {
                long x = Rows.value(check, t, "x");
                long y = Rows.value(check, t, "y");
                assertEquals(x, y, "x and y come from one transaction");
                assertEquals(bCommitted ? 2 : 1, x, "the last committed transaction's values");
            }
        }
    }

    /** G1a: a write rolled back is never seen by another connection, before or after the rollback. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyLevel")
    void dirtyReadNeverSeesUncommittedOrAbortedWrites(StoreKind kind, IsolationLevel level) throws SQLException {
        TestStore store = STORES.get(kind);
        String t = store.newTable("x", 0);
        try (Connection writer = store.connect(level, true); Connection reader = store.connect(level, true)) {
            Rows.set(writer, t, "x", 1);
            Rows.insert(writer, t, "new", 1);
            assertEquals(0L, Rows.value(reader, t, "x"), "an uncommitted update is invisible");
            assertNull(Rows.value(reader, t, "new"), "an uncommitted insert is invisible");
            writer.rollback();
            assertEquals(0L, Rows.value(reader, t, "x"), "a rolled-back update is never seen");
            reader.commit();
        }
    }

    /** P4: both read x, both write x + 1; the second commit must fail and the counter must end at 1. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("repeatableReadAndAbove")
    void lostUpdateFailsTheSecondCommit(StoreKind kind, IsolationLevel level) throws SQLException {
        TestStore store = STORES.get(kind);
        String t = store.newTable("x", 0);
        try (Connection a = store.connect(level, true); Connection b = store.connect(level, true)) {
            long readA = Rows.value(a, t, "x");
            long readB = Rows.value(b, t, "x");
            Rows.set(a, t, "x", readA + 1);
            Rows.set(b, t, "x", readB + 1);
            Rows.insert(b, t, "written-by-b", 1);
            a.commit();
            SerializationFailure.expect("lost update (P4)", b::commit);
            try (Connection check = store.connect()) {
                assertEquals(1L, Rows.value(check, t, "x"), "one increment committed");
                assertNull(Rows.value(check, t, "written-by-b"), "the failed commit wrote nothing");
            }
        }
    }

    /** Two transactions each run {@code v = v + 1} (no SELECT): either both increments count or the second fails. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("repeatableReadAndAbove")
    void lostUpdateOfInPlaceIncrementsFailsTheSecondCommit(StoreKind kind, IsolationLevel level) throws SQLException {
        TestStore store = STORES.get(kind);
        String t = store.newTable("x", 0);
        try (Connection a = store.connect(level, true); Connection b = store.connect(level, true)) {
            increment(a, t, "x");
            increment(b, t, "x");
            a.commit();
            boolean bCommitted = commitOrSerializationFailure(b);
            try (Connection check = store.connect()) {
                assertEquals(bCommitted ? 2L : 1L, Rows.value(check, t, "x"),
                        "every committed increment counted (b committed: " + bCommitted + ")");
            }
        }
    }

    /** A5A: a transaction reads x, another moves 25 from x to y and commits, the first reads y. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("repeatableReadAndAbove")
    void readSkewIsNeverCommitted(StoreKind kind, IsolationLevel level) throws SQLException {
        TestStore store = STORES.get(kind);
        String t = store.newTable("x", 50, "y", 50);
        try (Connection reader = store.connect(level, true); Connection mover = store.connect(level, true)) {
            long x = Rows.value(reader, t, "x");
            Rows.set(mover, t, "x", 25);
            Rows.set(mover, t, "y", 75);
            mover.commit();
            long y = Rows.value(reader, t, "y");
            long total = Rows.sum(reader, t);
            if (x + y == 100 && total == 100) {
                reader.commit(); // it saw one consistent state
            } else {
                SerializationFailure.expect("read skew (A5A): read x=" + x + ", y=" + y + ", sum=" + total, reader::commit);
            }
        }
    }

    /** A5A, read-only: an audit sees one state (its snapshot), so it always sees the total. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("repeatableReadAndAbove")
    void aReadOnlyTransactionSeesOneState(StoreKind kind, IsolationLevel level) throws SQLException {
        TestStore store = STORES.get(kind);
        String t = store.newTable("x", 50, "y", 50);
        try (Connection reader = store.connect(level, true); Connection mover = store.connect(level, true)) {
            reader.setReadOnly(true);
            long x = Rows.value(reader, t, "x");
            Rows.set(mover, t, "x", 25);
            Rows.set(mover, t, "y", 75);
            mover.commit();
            long y = Rows.value(reader, t, "y");
            assertEquals(100, x + y, "read-only transaction read x=" + x + " then y=" + y);
            assertEquals(100, Rows.sum(reader, t), "SUM in the same read-only transaction");
            reader.commit();
        }
    }

    /** A5B: on-call doctors. Both see two on call, each takes one off; the second commit must fail. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("serializable")
    void writeSkewFailsTheSecondCommit(StoreKind kind, IsolationLevel level) throws SQLException {
        TestStore store = STORES.get(kind);
        String t = store.newTable("alice", 1, "bob", 1);
        try (Connection a = store.connect(level, true); Connection b = store.connect(level, true)) {
            assertEquals(2, Rows.sum(a, t));
            assertEquals(2, Rows.sum(b, t));
            Rows.set(a, t, "alice", 0);
            Rows.set(b, t, "bob", 0);
            a.commit();
            SerializationFailure.expect("write skew (A5B)", b::commit);
            try (Connection check = store.connect()) {
                assertEquals(1, Rows.sum(check, t), "one doctor still on call");
            }
        }
    }

    /** Phantom: an aggregate over a range, then another transaction inserts into the range before the commit. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("serializable")
    void phantomInsertIntoAReadRangeFailsTheCommit(StoreKind kind, IsolationLevel level) throws SQLException {
        TestStore store = STORES.get(kind);
        String t = store.newTable("slot-1", 1, "slot-2", 1, "total", 2);
        String range = "SELECT COUNT(*) FROM " + t + " WHERE K >= 'slot-' AND K < 'slot.'";
        try (Connection a = store.connect(level, true); Connection b = store.connect(level, true)) {
            long slots = Rows.aggregate(a, range);
            assertEquals(2, slots);
            Rows.insert(b, t, "slot-3", 1);
            b.commit();
            Rows.set(a, t, "total", slots);
            SerializationFailure.expect("phantom: COUNT over a range another transaction inserted into", a::commit);
            try (Connection check = store.connect()) {
                assertEquals(2L, Rows.value(check, t, "total"), "the failed commit wrote nothing");
                assertEquals(3, Rows.aggregate(check, range));
            }
        }
    }

    /**
     * A join on the key run as lookups (one get of the keyed table per row of the other) reads only the keys
     * it looks up: a concurrent change of one of them fails the reader's commit, a row added beside them does
     * not.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("serializable")
    void aLookupJoinConflictsWithAChangeOfALookedUpKeyOnly(StoreKind kind, IsolationLevel level) throws SQLException {
        TestStore store = STORES.get(kind);
        String orders = store.newTable("x", 1, "y", 2);
        String prices = store.newTable("x", 10, "y", 20);
        String total = store.newTable("sum", 0);
        String join = "SELECT p.V FROM " + orders + " o JOIN " + prices + " p ON o.K = p.K WHERE o.V = 1";
        try (Connection c = store.connect(); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("EXPLAIN PLAN FOR " + join)) {
            assertTrue(rs.next());
            assertTrue(rs.getString(1).contains("KvLookupJoin(table=[[PUBLIC, " + prices + "]]"), rs.getString(1));
        }
        for (boolean changeLookedUpKey : new boolean[] {false, true}) {
            try (Connection reader = store.connect(level, true); Connection writer = store.connect(level, true)) {
                long price = Rows.aggregate(reader, join);
                if (changeLookedUpKey) {
                    Rows.set(writer, prices, "x", price + 1);
                } else {
                    Rows.insert(writer, prices, "w", 5);
                }
                writer.commit();
                Rows.set(reader, total, "sum", price);
                if (changeLookedUpKey) {
                    SerializationFailure.expect("a looked-up key changed after the join read it", reader::commit);
                } else {
                    reader.commit();
                }
            }
        }
        try (Connection check = store.connect()) {
            assertEquals(10L, Rows.value(check, total, "sum"), "the first commit only");
        }
    }

    /**
     * SELECT ... FOR UPDATE, then another connection changes the row: at every level the reader must not commit
     * a write based on what it read over the other's acknowledged write. Rows may be conflict-checked at commit
     * (the reader fails with 40001) or locked (the other connection waits until the reader commits): the other
     * statement runs on its own thread so a lock cannot hang the test.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyLevel")
    void selectForUpdateConflictsWithAConcurrentWrite(StoreKind kind, IsolationLevel level) throws Exception {
        TestStore store = STORES.get(kind);
        String t = store.newTable("x", 0);
        ExecutorService other = Executors.newSingleThreadExecutor();
        try (Connection a = store.connect(level, true); Connection b = store.connect(level, false)) {
            long read;
            try (PreparedStatement p = a.prepareStatement("SELECT V FROM " + t + " WHERE K = ? FOR UPDATE")) {
                p.setString(1, "x");
                try (ResultSet rs = p.executeQuery()) {
                    assertTrue(rs.next());
                    read = rs.getLong(1);
                }
            }
            Future<Integer> write = other.submit(() -> Rows.set(b, t, "x", 5));
            try {
                write.get(2, TimeUnit.SECONDS); // optimistic: it commits now; locking: it waits for a's commit
            } catch (TimeoutException locked) {
                // the row is locked by a: a commits first and b's write follows it
            }
            Rows.set(a, t, "x", read + 1);
            boolean aCommitted = commitOrSerializationFailure(a);
            assertEquals(1, write.get(30, TimeUnit.SECONDS), "the other connection's update");
            try (Connection check = store.connect()) {
                assertEquals(5L, Rows.value(check, t, "x"), aCommitted
                        ? "a committed read+1 over the write it never saw (lost update under FOR UPDATE)"
                        : "a failed: only the other write stands");
            }
        } finally {
            other.shutdownNow();
        }
    }

    /** {@code UPDATE ... WHERE K = ? AND V = ?} from many connections at once: exactly one wins each round. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(StoreKind.class)
    void compareAndSetHasExactlyOneWinnerPerRound(StoreKind kind) throws Exception {
        TestStore store = STORES.get(kind);
        String t = store.newTable("x", 0);
        int threads = 6;
        int rounds = kind == StoreKind.RAFT_CLUSTER ? 8 : 40;
        CyclicBarrier start = new CyclicBarrier(threads + 1);
        CyclicBarrier end = new CyclicBarrier(threads + 1);
        int[][] won = new int[rounds][threads];
        List<Connection> connections = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int i = 0; i < threads; i++) {
                connections.add(store.connect());
            }
            List<CompletableFuture<Void>> workers = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                int id = i;
                workers.add(CompletableFuture.runAsync(() -> {
                    try (PreparedStatement cas = connections.get(id).prepareStatement(
                            "UPDATE " + t + " SET V = ? WHERE K = 'x' AND V = ?")) {
                        for (int r = 0; r < rounds; r++) {
                            start.await();
                            long base = r * 1000L;
                            cas.setLong(1, base + 1 + id);
                            cas.setLong(2, base);
                            won[r][id] = cas.executeUpdate();
                            end.await();
                        }
                    } catch (Exception e) {
                        start.reset();
                        end.reset();
                        throw new IllegalStateException(e);
                    }
                }, pool));
            }
            try (Connection control = store.connect()) {
                for (int r = 0; r < rounds; r++) {
                    Rows.set(control, t, "x", r * 1000L);
                    start.await(30, TimeUnit.SECONDS);
                    end.await(30, TimeUnit.SECONDS);
                    List<Integer> winners = new ArrayList<>();
                    for (int i = 0; i < threads; i++) {
                        if (won[r][i] == 1) {
                            winners.add(i);
                        }
                    }
                    assertEquals(1, winners.size(), "round " + r + ": winners " + winners);
                    assertEquals(r * 1000L + 1 + winners.get(0), Rows.value(control, t, "x"), "round " + r);
                }
            }
            for (CompletableFuture<Void> w : workers) {
                w.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            for (Connection c : connections) {
                c.close();
            }
        }
    }

    private static void increment(Connection c, String table, String key) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("UPDATE " + table + " SET V = V + 1 WHERE K = ?")) {
            p.setString(1, key);
            assertEquals(1, p.executeUpdate());
        }
    }

    /** Commits; true when it committed, false when it failed with a proper serialization failure. */
    private static boolean commitOrSerializationFailure(Connection c) throws SQLException {
        try {
            c.commit();
            return true;
        } catch (SQLException e) {
            if (!SerializationFailure.is(e)) {
                throw e;
            }
            SerializationFailure.expect("commit conflict", () -> {
                throw e;
            });
            c.rollback();
            return false;
        }
    }
}
