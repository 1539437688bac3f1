package io.kegdb.jdbc.isolation;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

import static io.kegdb.jdbc.isolation.IsolationLevel.REPEATABLE_READ;
import static io.kegdb.jdbc.isolation.IsolationLevel.SERIALIZABLE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Ten accounts holding 1000 in all; transfers between random pairs in transactions, audits in read-only
 * transactions. Every audit sees exactly 1000 and the total stays 1000.
 */
@Tag("isolation")
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BankHistoryTest {

    private static final OpenStores STORES = new OpenStores();
    private static final int ACCOUNTS = 10;
    private static final long TOTAL = 1000;
    private static final int TRANSFER_WORKERS = 4;
    private static final int AUDIT_WORKERS = 2;

    @AfterAll
    static void closeStores() throws SQLException {
        STORES.close();
    }

    static Stream<Arguments> repeatableReadAndAbove() {
        return OpenStores.kindsAnd(REPEATABLE_READ, SERIALIZABLE);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("repeatableReadAndAbove")
    void transfersKeepTheTotalAndEveryAuditSeesIt(StoreKind kind, IsolationLevel level) throws Exception {
        TestStore store = STORES.get(kind);
        Object[] rows = new Object[ACCOUNTS * 2];
        for (int i = 0; i < ACCOUNTS; i++) {
            rows[2 * i] = "acct-" + i;
            rows[2 * i + 1] = TOTAL / ACCOUNTS;
        }
        String t = store.newTable(rows);
        AtomicLong transfers = new AtomicLong();
        AtomicLong audits = new AtomicLong();
        ConcurrentLinkedQueue<Long> wrongAudits = new ConcurrentLinkedQueue<>();
        BoundedWorkers.run(TRANSFER_WORKERS + AUDIT_WORKERS, store.workloadTime(), w -> {
            Connection c = store.connect(level, true);
            c.setReadOnly(w >= TRANSFER_WORKERS);
            return c;
        }, new BoundedWorkers.Step() {
            private final ThreadLocal<Random> random = ThreadLocal.withInitial(Random::new);

            @Override
            public void run(Connection c, int w) throws SQLException {
                if (w >= TRANSFER_WORKERS) {
                    long seen = Rows.sum(c, t);
                    c.commit();
                    audits.incrementAndGet();
                    if (seen != TOTAL) {
                        wrongAudits.add(seen);
                    }
                    return;
                }
                Random r = random.get();
                String from = "acct-" + r.nextInt(ACCOUNTS);
                String to = "acct-" + r.nextInt(ACCOUNTS);
                long amount = 1 + r.nextInt(20);
                if (from.equals(to)) {
                    return;
                }
                BoundedWorkers.retryingTransaction(c, () -> {
                    Rows.set(c, t, from, Rows.value(c, t, from) - amount);
                    Rows.set(c, t, to, Rows.value(c, t, to) + amount);
                });
                transfers.incrementAndGet();
            }
        });
        assertTrue(transfers.get() > 0 && audits.get() > 0, "transfers and audits ran");
        List<Long> wrong = List.copyOf(wrongAudits);
        assertEquals(List.of(), wrong.subList(0, Math.min(10, wrong.size())),
                wrong.size() + " of " + audits.get() + " audits saw a total other than " + TOTAL + " (first 10 shown)");
        try (Connection c = store.connect()) {
            assertEquals(TOTAL, Rows.sum(c, t), "total after " + transfers.get() + " transfers");
        }
    }
}
