package io.kegdb.sql.calcite;

import io.kegdb.engine.KvStore;
import io.kegdb.sql.Deadline;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.stats.PlanningTimes;
import org.apache.calcite.runtime.Bindable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A plan's compilation is bounded by the statement's deadline: a compilation that outlasts it is abandoned (the
 * statement fails with HYT00 while the compilation still runs), finishes on its own thread, and leaves no thread
 * behind; a cancel stops a statement waiting for its compilation. A statement without a time limit compiles on
 * its own thread. The slow compilation is injected: Janino's, held until the test lets it go.
 */
class PlanCompilerTest {

    private static final String QUERY = "SELECT k, v FROM kv WHERE v = 'a'";

    private KvStore store;
    private CatalogSchema schema;
    private ThreadPoolExecutor threads;
    private final CountDownLatch release = new CountDownLatch(1);
    private final CountDownLatch entered = new CountDownLatch(1);
    private final AtomicInteger started = new AtomicInteger();
    private final AtomicInteger finished = new AtomicInteger();
    private CalcitePlanner held;
    /** The deadline of the statement under test: the held compilation lets it pass before it waits to be let go. */
    private volatile Deadline passing;
    private volatile Thread compiledOn;
    /** A time limit no test reaches: the statement has a clock, so its compilation goes to a compiler thread. */
    private static Deadline limited() {
        return Deadline.after(TimeUnit.HOURS.toNanos(1));
    }

    @BeforeEach
    void open() throws SqlError {
        store = KvStore.inMemory();
        schema = new CatalogSchema(store, Catalog.open(store, false).snapshot(), List.of());
        threads = PlanCompiler.threads(1, 1);
        PlanCompiler slow = new PlanCompiler(threads, (className, source) -> {
            started.incrementAndGet();
            compiledOn = Thread.currentThread();
            for (int i = 0; i < 6000 && passing != null && !passing.reached(); i++) {
                Thread.sleep(10);
            }
            entered.countDown();
            release.await();
            Bindable<?> b = PlanCompiler.JANINO_COMPILATION.compile(className, source);
            finished.incrementAndGet();
            return b;
        });
        held = new CalcitePlanner(new PlanningTimes(), slow);
    }

    @AfterEach
    void close() {
        release.countDown();
        threads.shutdownNow();
        store.close();
    }

    @Test
    void aCompilationPastTheDeadlineFailsWithHYT00AndEndsOnItsOwn() throws Exception {
        // Long enough to reach the compilation on a loaded machine; the compilation outlasts it.
        passing = Deadline.after(TimeUnit.SECONDS.toNanos(2));
        SqlError e = assertThrows(SqlError.class, () -> held.plan(QUERY, schema, Catalog.DEFAULT_SCHEMA, passing));
        assertEquals("HYT00", e.sqlState(), e.getMessage());
        assertTrue(e.getMessage().contains("query timeout"), e.getMessage());
        assertEquals(1, started.get(), "the compilation had begun");
        assertEquals(0, finished.get(), "the statement did not wait for it");
        release.countDown();
        awaitIdle();
        assertEquals(1, finished.get(), "the abandoned compilation ran to its end");
    }

    @Test
    void aCancelStopsAStatementWaitingForItsCompilation() throws Exception {
        Deadline deadline = limited();
        Thread canceller = new Thread(() -> {
            try {
                if (entered.await(30, TimeUnit.SECONDS)) {
                    deadline.cancel();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        canceller.start();
        SqlError e = assertThrows(SqlError.class, () -> held.plan(QUERY, schema, Catalog.DEFAULT_SCHEMA, deadline));
        canceller.join();
        assertEquals("HYT00", e.sqlState(), e.getMessage());
        assertTrue(e.getMessage().contains("cancelled"), e.getMessage());
        assertEquals(0, finished.get());
    }

    @Test
    void aCompilationQueuedWhenItsStatementGaveUpNeverRuns() throws Exception {
        Thread first = new Thread(() -> {
            try {
                held.plan(QUERY, schema, Catalog.DEFAULT_SCHEMA, limited());
            } catch (SqlError e) {
                throw new AssertionError(e);
            }
        });
        first.start();
        assertTrue(entered.await(30, TimeUnit.SECONDS));
        // The one compiler thread is busy: this statement's compilation waits in the queue until it is cancelled.
        Deadline second = limited();
        Thread canceller = new Thread(() -> {
            for (int i = 0; i < 6000 && threads.getQueue().isEmpty(); i++) {
                try {
                    Thread.sleep(10);
                } catch (InterruptedException x) {
                    return;
                }
            }
            second.cancel();
        });
        canceller.start();
        SqlError e = assertThrows(SqlError.class, () -> held.plan("SELECT COUNT(*) FROM kv WHERE v > 'b'", schema,
                Catalog.DEFAULT_SCHEMA, second));
        canceller.join();
        assertEquals("HYT00", e.sqlState());
        release.countDown();
        first.join(TimeUnit.SECONDS.toMillis(60));
        awaitIdle();
        assertEquals(1, started.get(), "only the first statement's compilation ran");
        assertEquals(1, finished.get());
    }

    @Test
    void thePlanOfACompilationInTimeRuns() throws Exception {
        release.countDown();
        CalcitePlan plan = held.plan(QUERY, schema, Catalog.DEFAULT_SCHEMA, limited());
        assertNotNull(plan);
        assertEquals(1, finished.get());
        assertTrue(compiledOn.getName().startsWith("kegdb-plan-compiler-"), compiledOn.getName());
        awaitIdle();
    }

    @Test
    void withoutATimeLimitTheStatementsOwnThreadCompiles() throws Exception {
        release.countDown();
        assertNotNull(held.plan(QUERY, schema, Catalog.DEFAULT_SCHEMA, Deadline.none()));
        assertEquals(Thread.currentThread(), compiledOn, "no hand-off to a compiler thread");
        assertEquals(1, finished.get());
        assertEquals(0, threads.getPoolSize(), "no compiler thread was started");
    }

    /** The compiler threads finish what they run and then end (their idle time is one second here). */
    private void awaitIdle() throws InterruptedException {
        for (int i = 0; i < 600 && (threads.getActiveCount() > 0 || threads.getPoolSize() > 0); i++) {
            Thread.sleep(50);
        }
        assertEquals(0, threads.getActiveCount(), "no compilation left running");
        assertEquals(0, threads.getPoolSize(), "no compiler thread left");
    }
}
