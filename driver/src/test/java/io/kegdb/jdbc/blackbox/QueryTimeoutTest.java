package io.kegdb.jdbc.blackbox;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLTimeoutException;
import java.sql.Statement;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code setQueryTimeout} and {@code cancel()} stop a statement while it executes (here a three-way cross
 * join of 2000-row tables, far too long to finish), not only while rows are fetched: SQLTimeoutException,
 * HYT00. Bounds are generous; nothing here measures speed.
 */
class QueryTimeoutTest {

    private static final AtomicInteger NAMES = new AtomicInteger();
    private static final String ENDLESS = "SELECT COUNT(*) FROM N A, N B, N C WHERE A.V <> B.V OR B.V <> C.V";

    private Connection c;

    @BeforeEach
    void open() throws SQLException {
        c = DriverManager.getConnection("jdbc:kegdb:mem:timeout-test-" + NAMES.incrementAndGet());
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE N (K BIGINT PRIMARY KEY, V VARCHAR)");
        }
        c.setAutoCommit(false);
        try (PreparedStatement ins = c.prepareStatement("INSERT INTO N VALUES (?, ?)")) {
            for (int i = 0; i < 2000; i++) {
                ins.setLong(1, i);
                ins.setString(2, "v" + i);
                ins.addBatch();
            }
            ins.executeBatch();
        }
        c.commit();
        c.setAutoCommit(true);
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    /** Rows in {@code table}, through {@code s} (which must have no timeout left to stop it). */
    private static long count(Statement s, String table) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    private static SQLTimeoutException stopped(ThrowingQuery query) {
        return assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> assertThrows(SQLTimeoutException.class, query::run));
    }

    interface ThrowingQuery {
        void run() throws SQLException;
    }

    @Test
    void anAdHocQueryStopsAtItsTimeoutWhileExecuting() throws SQLException {
        try (Statement s = c.createStatement()) {
            s.setQueryTimeout(1);
            SQLTimeoutException e = stopped(() -> {
                try (ResultSet rs = s.executeQuery(ENDLESS)) {
                    rs.next();
                }
            });
            assertEquals("HYT00", e.getSQLState());
            // The statement and the connection stay usable.
            s.setQueryTimeout(0);
            assertEquals(2000, count(s, "N"));
        }
    }

    @Test
    void aPreparedQueryStopsAtItsTimeout() throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(ENDLESS)) {
            ps.setQueryTimeout(1);
            SQLTimeoutException e = stopped(() -> {
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                }
            });
            assertEquals("HYT00", e.getSQLState());
        }
    }

    @Test
    void aLongUpdateStopsAtItsTimeoutAndWritesNothing() throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE M (K BIGINT PRIMARY KEY, V VARCHAR)");
            s.setQueryTimeout(1);
            SQLTimeoutException e = stopped(() -> s.executeUpdate(
                    "INSERT INTO M SELECT A.K * 100000000 + B.K * 10000 + C.K, A.V FROM N A, N B, N C"));
            assertEquals("HYT00", e.getSQLState());
            s.setQueryTimeout(0);
            assertEquals(0, count(s, "M"));
        }
    }

    @Test
    void cancelFromAnotherThreadStopsARunningQuery() throws Exception {
        try (Statement s = c.createStatement()) {
            AtomicBoolean done = new AtomicBoolean();
            // Cancels again and again: the first cancel may come before the statement started running.
            Thread canceller = new Thread(() -> {
                try {
                    while (!done.get()) {
                        Thread.sleep(300);
                        s.cancel();
                    }
                } catch (InterruptedException | SQLException e) {
                    Thread.currentThread().interrupt();
                }
            });
            canceller.start();
            try {
                SQLTimeoutException e = stopped(() -> {
                    try (ResultSet rs = s.executeQuery(ENDLESS)) {
                        rs.next();
                    }
                });
                assertEquals("HYT00", e.getSQLState());
            } finally {
                done.set(true);
                canceller.join(10_000);
            }
        }
    }
}
