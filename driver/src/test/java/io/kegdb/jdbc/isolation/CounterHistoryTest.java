package io.kegdb.jdbc.isolation;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static io.kegdb.jdbc.isolation.IsolationLevel.REPEATABLE_READ;
import static io.kegdb.jdbc.isolation.IsolationLevel.SERIALIZABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Concurrent increments of two hot counters: the final values equal the acknowledged increments. */
@Tag("isolation")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CounterHistoryTest {

    private static final OpenStores STORES = new OpenStores();
    private static final int WORKERS = 6;
    private static final String[] KEYS = {"a", "b"};

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

    /** {@code UPDATE ... SET V = V + 1} autocommitted is atomic at every level. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("everyLevel")
    void autocommittedIncrementsAreNeverLost(StoreKind kind, IsolationLevel level) throws Exception {
        TestStore store = STORES.get(kind);
        String t = store.newTable("a", 0, "b", 0);
        AtomicLong acknowledged = new AtomicLong();
        BoundedWorkers.run(WORKERS, store.workloadTime(), w -> store.connect(level, false), (c, w) -> {
            try (PreparedStatement p = c.prepareStatement("UPDATE " + t + " SET V = V + 1 WHERE K = ?")) {
                p.setString(1, KEYS[w % KEYS.length]);
                assertEquals(1, p.executeUpdate());
                acknowledged.incrementAndGet();
            }
        });
        assertCountersEqual(store, t, acknowledged.get());
    }

    /** SELECT V, then UPDATE V = read + 1, committed; a 40001 is retried. */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("repeatableReadAndAbove")
    void readModifyWriteTransactionsLoseNoIncrement(StoreKind kind, IsolationLevel level) throws Exception {
        TestStore store = STORES.get(kind);
        String t = store.newTable("a", 0, "b", 0);
        AtomicLong acknowledged = new AtomicLong();
        AtomicLong retries = new AtomicLong();
        BoundedWorkers.run(WORKERS, store.workloadTime(), w -> store.connect(level, true), (c, w) -> {
            String key = KEYS[w % KEYS.length];
            retries.addAndGet(BoundedWorkers.retryingTransaction(c, () -> Rows.set(c, t, key, Rows.value(c, t, key) + 1)));
            acknowledged.incrementAndGet();
        });
        assertCountersEqual(store, t, acknowledged.get());
    }

    private static void assertCountersEqual(TestStore store, String table, long acknowledged) throws SQLException {
        assertTrue(acknowledged > 0, "some increments were acknowledged");
        try (Connection c = store.connect()) {
            long total = Rows.sum(c, table);
            assertEquals(acknowledged, total, "final counters vs acknowledged increments: "
                    + (acknowledged - total) + " lost of " + acknowledged);
        }
    }
}
