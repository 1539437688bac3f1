package io.kegdb.sql;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.kegdb.sql.SqlTestSupport.drain;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Statements stop at their deadline (or a cancel) while planned, executed and fetched: SQLState HYT00. */
class DeadlineTest {

    /** Three 2000-row tables cross joined: 8e9 rows, far more than any test could wait for. */
    private static final String ENDLESS = "SELECT COUNT(*) FROM t a, t b, t c WHERE a.v <> b.v OR b.v <> c.v";

    private SqlFixture sql;
    private SqlSession s;

    @BeforeEach
    void open() throws SqlError {
        sql = SqlFixture.inMemory();
        s = sql.session();
        update(s, "CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR)");
        s.setAutoCommit(false);
        try (SqlStatement ins = s.prepare("INSERT INTO t VALUES (?, ?)")) {
            for (long i = 0; i < 2000; i++) {
                ins.execute(List.of(i, "v" + i), 0).close();
            }
        }
        s.commit();
        s.setAutoCommit(true);
    }

    @AfterEach
    void close() {
        sql.close();
    }

    private SqlError runUntilStopped(SqlStatement st, Deadline deadline) {
        return assertTimeoutPreemptively(Duration.ofSeconds(60), () -> assertThrows(SqlError.class, () -> {
            try (SqlResult r = st.execute(List.of(), 0, deadline)) {
                drain(r);
            }
        }));
    }

    @Test
    void aLongAggregateStopsAtItsTimeout() throws SqlError {
        try (SqlStatement st = s.prepare(ENDLESS)) {
            long start = System.nanoTime();
            SqlError e = runUntilStopped(st, Deadline.after(TimeUnit.MILLISECONDS.toNanos(300)));
            assertEquals("HYT00", e.sqlState(), e::getMessage);
            assertTrue(e.getMessage().contains("timeout"), e::getMessage);
            assertTrue(System.nanoTime() - start >= TimeUnit.MILLISECONDS.toNanos(300), "not before the deadline");
        }
        // The session is still usable afterwards.
        try (SqlStatement st = s.prepare("SELECT COUNT(*) FROM t"); SqlResult r = st.execute(List.of(), 0)) {
            assertEquals(List.of(row(2000L)), drain(r));
        }
    }

    @Test
    void aLongStatementStopsWhenCancelledFromAnotherThread() throws Exception {
        Deadline deadline = Deadline.none();
        CountDownLatch started = new CountDownLatch(1);
        Thread canceller = new Thread(() -> {
            try {
                started.await();
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            deadline.cancel();
        });
        canceller.start();
        try (SqlStatement st = s.prepare(ENDLESS)) {
            started.countDown();
            SqlError e = runUntilStopped(st, deadline);
            assertEquals("HYT00", e.sqlState());
            assertTrue(e.getMessage().contains("cancelled"), e::getMessage);
        } finally {
            canceller.join(10_000);
        }
    }

    @Test
    void aLongInsertSelectStopsAndWritesNothing() throws SqlError {
        update(s, "CREATE TABLE copy (id BIGINT PRIMARY KEY, v VARCHAR)");
        try (SqlStatement st = s.prepare("INSERT INTO copy SELECT a.id * 100000000 + b.id * 10000 + c.id, a.v"
                + " FROM t a, t b, t c")) {
            SqlError e = runUntilStopped(st, Deadline.after(TimeUnit.MILLISECONDS.toNanos(300)));
            assertEquals("HYT00", e.sqlState(), e::getMessage);
        }
        try (SqlStatement st = s.prepare("SELECT COUNT(*) FROM copy"); SqlResult r = st.execute(List.of(), 0)) {
            assertEquals(List.of(row(0L)), drain(r));
        }
    }

    @Test
    void planningStopsAtAReachedDeadline() throws SqlError {
        Deadline reached = Deadline.after(1);
        SqlError e = assertThrows(SqlError.class, () -> s.prepare("SELECT v FROM t WHERE id > 5 ORDER BY v", reached));
        assertEquals("HYT00", e.sqlState());
        // The key/value fast path plans nothing with Calcite and has no long phase to stop.
        try (SqlStatement st = s.prepare("SELECT v FROM t WHERE id = 5", reached)) {
            List<List<Object>> rows = new ArrayList<>();
            try (SqlResult r = st.execute(List.of(), 0)) {
                rows.addAll(drain(r));
            }
            assertEquals(List.of(row("v5")), rows);
        }
    }

    @Test
    void aNegativeTimeoutIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> Deadline.after(-1));
    }
}
