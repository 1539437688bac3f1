package io.kegdb.jdbc.differential;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;

/**
 * The same tables in a fresh KegDB (in memory or in a directory: the file store gives the planner real row
 * counts), a fresh in-memory H2 and a fresh in-memory SQLite, and a {@link Case} run on each. Each set has
 * databases of its own, so nothing one set loaded is seen by the next.
 *
 * <p>The oracles run a writing case in a transaction that is committed only once they agree ({@link #settle}),
 * so a write they disagree on leaves all three as they were. KegDB runs it as a user would: one statement
 * autocommitted, or the case's transaction ending as the case says. KegDB's statements run on a thread of
 * their own with a deadline, so a planner that does not stop fails the case instead of the build.
 */
final class DatabaseSet implements AutoCloseable {

    /** Where KegDB keeps the tables. */
    enum Store { MEMORY, FILE }

    private static final AtomicLong NAMES = new AtomicLong();
    private static final int QUERY_TIMEOUT_SECONDS = 20;
    private static final long KEGDB_DEADLINE_SECONDS = 60;

    private final Store store;
    private final Path dir;
    private final Connection kegdb;
    private final Connection h2;
    private final Connection sqlite;
    private final ExecutorService kegdbThread = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "differential-kegdb");
        t.setDaemon(true);
        return t;
    });
    /** KegDB missed a deadline: its connection may still be busy and is left alone. */
    private boolean stuck;

    DatabaseSet(List<RandomTable> tables, Store store, Path scratch) throws SQLException {
        this.store = store;
        long name = NAMES.incrementAndGet();
        dir = store == Store.FILE ? scratch.resolve("db" + name) : null;
        List<Connection> opened = new ArrayList<>();
        try {
            opened.add(DriverManager.getConnection(dir != null ? "jdbc:kegdb:" + dir + "?durability=nosync"
                    : "jdbc:kegdb:mem:differential" + name));
            opened.add(DriverManager.getConnection("jdbc:h2:mem:differential" + name));
            opened.add(DriverManager.getConnection("jdbc:sqlite::memory:"));
            try (Statement s = opened.get(2).createStatement()) {
                s.execute("PRAGMA case_sensitive_like = ON"); // LIKE as the standard (and H2 and KegDB) mean it
            }
            for (RandomTable t : tables) {
                t.load(opened.get(0), Dialect.KEGDB);
                t.load(opened.get(1), Dialect.H2);
                t.load(opened.get(2), Dialect.SQLITE);
            }
        } catch (SQLException | RuntimeException e) {
            for (Connection c : opened) {
                c.close();
            }
            kegdbThread.shutdownNow();
            throw e;
        }
        kegdb = opened.get(0);
        h2 = opened.get(1);
        sqlite = opened.get(2);
    }

    Store store() {
        return store;
    }

    boolean stuck() {
        return stuck;
    }

    /**
     * Runs the case on one database. A probe runs a writing case on KegDB in a transaction that always rolls
     * back: where the oracles did not agree, KegDB is still asked (an internal error is a failure anyway), but
     * keeps its rows.
     */
    Outcome run(Dialect d, Case k, boolean probe) {
        if (d != Dialect.KEGDB) {
            return runOn(connection(d), d, k, false);
        }
        Future<Outcome> f = kegdbThread.submit(() -> runOn(kegdb, d, k, probe));
        try {
            return f.get(KEGDB_DEADLINE_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            stuck = true;
            f.cancel(true);
            return Outcome.failed("TIMEOUT no answer within " + KEGDB_DEADLINE_SECONDS + " s (query timeout "
                    + QUERY_TIMEOUT_SECONDS + " s)", Map.of(), Map.of());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (ExecutionException e) {
            return Outcome.failed("raw " + e.getCause(), Map.of(), Map.of());
        }
    }

    /** Ends an oracle's transaction over a writing case: kept where the oracles agreed, discarded otherwise. */
    void settle(Dialect oracle, Case k, boolean keep) throws SQLException {
        Connection c = connection(oracle);
        if (!c.getAutoCommit()) {
            if (keep && k.end() != Case.End.ROLLBACK) {
                c.commit();
            } else {
                c.rollback();
            }
            c.setAutoCommit(true);
        }
    }

    private Connection connection(Dialect d) {
        return switch (d) {
            case KEGDB -> kegdb;
            case H2 -> h2;
            case SQLITE -> sqlite;
        };
    }

    private static Outcome runOn(Connection c, Dialect d, Case k, boolean probe) {
        boolean transaction = k.isWrite() && (d != Dialect.KEGDB || probe || k.end() != Case.End.AUTOCOMMIT);
        List<Object> results = new ArrayList<>();
        String error = null;
        try {
            if (transaction) {
                c.setAutoCommit(false);
            }
            for (Case.Step step : k.steps()) {
                try (Statement s = c.createStatement()) {
                    s.setQueryTimeout(QUERY_TIMEOUT_SECONDS);
                    if (step.query()) {
                        try (ResultSet rs = s.executeQuery(step.sql(d))) {
                            results.add(ResultRows.read(rs, step.ordered()));
                        }
                    } else {
                        int n = s.executeUpdate(step.sql(d));
                        results.add(step.counted() ? n : null);
                    }
                }
            }
            if (transaction && (d == Dialect.KEGDB || k.end() == Case.End.ROLLBACK)) {
                if (k.end() == Case.End.COMMIT && !probe) {
                    c.commit();
                } else {
                    c.rollback();
                }
            }
        } catch (SQLException e) {
            error = e.getSQLState() + " " + e.getMessage();
            rollbackQuietly(c, transaction);
        } catch (RuntimeException e) { // a driver must not throw these
            error = "raw " + e;
            rollbackQuietly(c, transaction);
        }
        if (d == Dialect.KEGDB && transaction) {
            try {
                c.setAutoCommit(true);
            } catch (SQLException e) {
                error = error != null ? error : e.getSQLState() + " " + e.getMessage();
            }
        }
        Map<String, List<List<Object>>> tables = new LinkedHashMap<>();
        Map<String, List<Object[]>> raw = new LinkedHashMap<>();
        for (String table : k.writes()) {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT k, v FROM " + table)) {
                List<Object[]> rows = new ArrayList<>();
                while (rs.next()) {
                    rows.add(new Object[] {rs.getObject(1), rs.getObject(2)});
                }
                raw.put(table, rows);
            } catch (SQLException e) {
                error = error != null ? error : e.getSQLState() + " reading " + table + " after: " + e.getMessage();
                continue;
            }
            List<List<Object>> normal = new ArrayList<>();
            for (Object[] row : raw.get(table)) {
                normal.add(Arrays.asList(ResultRows.normal(row[0]), ResultRows.normal(row[1])));
            }
            normal.sort(ResultRows.ROW_ORDER);
            tables.put(table, normal);
        }
        return new Outcome(error == null ? results : List.of(), tables, raw, error);
    }

    private static void rollbackQuietly(Connection c, boolean transaction) {
        if (transaction) {
            try {
                c.rollback();
            } catch (SQLException ignored) {
                // the error that got us here is the one reported
            }
        }
    }

    @Override
    public void close() throws SQLException {
        kegdbThread.shutdownNow();
        try {
            if (!stuck) {
                kegdb.close();
            }
        } finally {
            try {
                h2.close();
            } finally {
                sqlite.close();
                deleteDir();
            }
        }
    }

    private void deleteDir() {
        if (dir == null || stuck) {
            return;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path p : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        } catch (IOException ignored) {
            // a scratch directory; the JUnit temporary directory goes at the end anyway
        }
    }
}
