package io.kegdb.jdbc.isolation;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Per-key register histories from concurrent clients, each operation recorded with its invocation and answer
 * times and checked by {@link LinearizabilityChecker}. Values written are unique, so every read names the
 * write it saw.
 */
@Tag("isolation")
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RegisterHistoryTest {

    private static final OpenStores STORES = new OpenStores();
    private static final int WORKERS = 4;
    private static final String[] KEYS = {"r0", "r1", "r2"};
    /** Operations kept per key: enough for conflicts, small enough for the search. */
    private static final int MAX_OPS_PER_KEY = 250;

    @AfterAll
    static void closeStores() throws SQLException {
        STORES.close();
    }

    /** Autocommitted single-row reads and writes: linearizable on every store. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(StoreKind.class)
    void autocommittedReadsAndWritesAreLinearizable(StoreKind kind) throws Exception {
        check(kind, false);
    }

    /** SERIALIZABLE transactions that read a register and write a new value: each is one atomic step. */
    @ParameterizedTest(name = "{0}")
    @EnumSource(StoreKind.class)
    void serializableReadModifyWriteTransactionsAreLinearizable(StoreKind kind) throws Exception {
        check(kind, true);
    }

    private static void check(StoreKind kind, boolean transactional) throws Exception {
        TestStore store = STORES.get(kind);
        String t = store.newTable("r0", 0, "r1", 0, "r2", 0);
        Map<String, ConcurrentLinkedQueue<RegisterOperation>> histories = new ConcurrentHashMap<>();
        Map<String, AtomicLong> recorded = new ConcurrentHashMap<>();
        for (String k : KEYS) {
            histories.put(k, new ConcurrentLinkedQueue<>());
            recorded.put(k, new AtomicLong());
        }
        AtomicLong unique = new AtomicLong();
        BoundedWorkers.run(WORKERS, store.workloadTime(),
                w -> store.connect(IsolationLevel.SERIALIZABLE, transactional), new BoundedWorkers.Step() {
                    private final ThreadLocal<Random> random = ThreadLocal.withInitial(Random::new);

                    @Override
                    public void run(Connection c, int w) throws SQLException {
                        String key = KEYS[random.get().nextInt(KEYS.length)];
                        if (recorded.get(key).incrementAndGet() > MAX_OPS_PER_KEY) {
                            return;
                        }
                        long value = unique.incrementAndGet();
                        long invoked = System.nanoTime();
                        RegisterOperation op;
                        if (transactional) {
                            long read = Rows.value(c, t, key);
                            Rows.set(c, t, key, value);
                            try {
                                c.commit();
                            } catch (SQLException e) {
                                c.rollback();
                                if (SerializationFailure.is(e)) {
                                    return; // aborted: it never happened
                                }
                                throw e;
                            }
                            op = RegisterOperation.readWrite(read, value, invoked, System.nanoTime());
                        } else if (random.get().nextBoolean()) {
                            op = RegisterOperation.read(Rows.value(c, t, key), invoked, System.nanoTime());
                        } else {
                            assertEquals(1, Rows.set(c, t, key, value));
                            op = RegisterOperation.write(value, invoked, System.nanoTime());
                        }
                        histories.get(key).add(op);
                    }
                });
        for (String k : KEYS) {
            List<RegisterOperation> history = new ArrayList<>(histories.get(k));
            assertTrue(history.size() > 1, "operations on " + k);
            Optional<String> violation = LinearizabilityChecker.violation(history, 0);
            assertTrue(violation.isEmpty(), "register " + k + ": " + violation.orElse(""));
        }
    }
}
