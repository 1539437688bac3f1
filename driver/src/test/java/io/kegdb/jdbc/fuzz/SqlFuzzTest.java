package io.kegdb.jdbc.fuzz;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * SQL fuzz through JDBC: seeded generated statements (see {@link SqlFuzzGenerator}) on a directory store.
 * Every outcome must be a result or an {@link SQLException} with a 5-character SQLState other than 0A000, 08xxx
 * and HY000 (an internal error); the connection must stay usable after each failure; a failed statement must
 * leave every table as it was (an oracle digest of all tables, compared after failures and every few successful
 * queries); a commit must write exactly what the transaction saw and a rollback must restore what was there.
 *
 * <p>10,000 statements in a normal build, 100,000 with {@code -Pstress}; {@code -Dkegdb.fuzz.statements=N} and
 * {@code -Dkegdb.fuzz.seed=S} override. Totals are printed (surefire keeps them in the test's output file).
 */
class SqlFuzzTest {

    private static final Pattern DDL = Pattern.compile("(?is)^\\s*(CREATE|DROP)\\b.*");
    private static final Set<String> BASE_TABLES = Set.of("PUBLIC.KV", "PUBLIC.NUMS", "PUBLIC.BINS", "PUBLIC.SHORTS");
    private static final Pattern WRITES = Pattern.compile("(?i)INSERT|UPSERT|UPDATE|DELETE|CREATE|DROP|MERGE");
    private static final int VERIFY_QUERIES_EVERY = 25;
    private static final int VERIFY_FAILURES_EVERY = 20;

    /** How long one statement may run before the watchdog prints it (the run goes on). */
    private static final long SLOW_STATEMENT_NANOS = TimeUnit.SECONDS.toNanos(60);

    @TempDir
    Path tmp;

    /** The statement in progress, for the watchdog. */
    private record Running(int index, SqlFuzzGenerator.Case fuzz, long startNanos) {
    }

    private volatile Running running;

    private final Map<String, Long> byKind = new TreeMap<>();
    private final Map<String, Long> failedByKind = new TreeMap<>();
    private final Map<String, Long> millisByKind = new TreeMap<>();
    private final Map<String, Long> byStateClass = new TreeMap<>();
    private final Map<String, Long> byState = new TreeMap<>();
    private final Map<String, String> generalErrors = new TreeMap<>();
    private final List<String> problems = new ArrayList<>();

    @Test
    void generatedStatementsFailOnlyWithSqlExceptionsAndChangeNothingWhenTheyFail() throws Exception {
        boolean stress = Boolean.getBoolean("kegdb.stress");
        int total = Integer.getInteger("kegdb.fuzz.statements", stress ? 100_000 : 10_000);
        long seed = Long.getLong("kegdb.fuzz.seed", 8_2026_11_30L);
        long maxNanos = TimeUnit.SECONDS.toNanos(stress ? 7200 : 600); // a guard against a hang, not a target
        String url = "jdbc:kegdb:" + tmp.resolve("db") + "?durability=nosync&segmentSize=4m";
        SqlFuzzGenerator generator = new SqlFuzzGenerator(seed, stress);
        Random harness = new Random(seed ^ 0x5DEECE66DL);

        Connection c = DriverManager.getConnection(url);
        createSchema(c);
        TableDigest baseline = TableDigest.of(c);
        TableDigest transactionStart = null;
        boolean ddlInTransaction = false;
        int transactionLeft = 0;
        int queriesSinceVerify = 0;
        int failuresSinceDigest = 0;
        long start = System.nanoTime();
        int ran = 0;
        Thread watchdog = startWatchdog();
        try {
            for (; ran < total && System.nanoTime() - start < maxNanos && problems.size() < 50; ran++) {
                if (transactionLeft == 0 && harness.nextInt(300) == 0) {
                    c.setAutoCommit(false);
                    transactionStart = baseline;
                    ddlInTransaction = false;
                    transactionLeft = 5 + harness.nextInt(30);
                }
                SqlFuzzGenerator.Case fuzz = generator.next();
                count(byKind, fuzz.kind());
                running = new Running(ran, fuzz, System.nanoTime());
                if (ran > 0 && ran % 10_000 == 0) {
                    log("SQL fuzz: " + ran + " statements after "
                            + TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start) + " s");
                }
                Boolean wrote = null;
                long began = System.nanoTime();
                try {
                    wrote = run(c, fuzz, harness);
                } catch (SQLException e) {
                    count(failedByKind, fuzz.kind());
                    checkState(ran, fuzz, e);
                } catch (Throwable t) {
                    count(failedByKind, fuzz.kind());
                    problem(ran, fuzz, "escaped as " + t);
                    t.printStackTrace(System.out);
                }
                millisByKind.merge(fuzz.kind(), TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began), Long::sum);
                if (wrote == null) {
                    // Failed: the connection must still work and the data must be as it was (the whole digest
                    // after a failed statement that could write, and after every few other failures).
                    boolean full = WRITES.matcher(fuzz.sql()).find() || ++failuresSinceDigest >= VERIFY_FAILURES_EVERY;
                    if (full) {
                        failuresSinceDigest = 0;
                    }
                    TableDigest now = probe(ran, fuzz, c, full ? null : baseline);
                    if (now == null) {
                        c = reopen(c, url);
                        baseline = TableDigest.of(c);
                        transactionLeft = 0;
                    } else if (!now.equals(baseline)) {
                        problem(ran, fuzz, "failed statement changed the data: " + baseline.rowCounts() + " -> "
                                + now.rowCounts());
                        baseline = now;
                    }
                } else if (wrote) {
                    baseline = TableDigest.of(c);
                    ddlInTransaction |= transactionLeft > 0 && DDL.matcher(fuzz.sql()).matches();
                } else if (++queriesSinceVerify >= VERIFY_QUERIES_EVERY) {
                    queriesSinceVerify = 0;
                    TableDigest now = TableDigest.of(c);
                    if (!now.equals(baseline)) {
                        problem(ran, fuzz, "data changed under queries: " + baseline.rowCounts() + " -> " + now.rowCounts());
                        baseline = now;
                    }
                }
                if (transactionLeft > 0 && --transactionLeft == 0) {
                    baseline = endTransaction(c, harness.nextBoolean(), baseline, transactionStart, ddlInTransaction, ran);
                }
                if (transactionLeft == 0) {
                    baseline = keepSmall(c, baseline);
                }
            }
        } finally {
            watchdog.interrupt();
            c.close();
            report(ran, total, seed, TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " problems, first: " + String.join("\n", problems.subList(0, Math.min(10, problems.size()))));
        }
        assertTrue(ran == total || System.nanoTime() - start >= maxNanos, "stopped early after " + ran);
    }

    /**
     * Progress and slow statements go to stdout and, at once, to {@code target/sql-fuzz-progress.txt} (surefire
     * writes a test's stdout only when the test ends, which a hang never reaches).
     */
    private static void log(String line) {
        System.out.println(line);
        try {
            java.nio.file.Files.writeString(Path.of("target", "sql-fuzz-progress.txt"), line + System.lineSeparator(),
                    java.nio.charset.StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.CREATE,
                    java.nio.file.StandardOpenOption.APPEND);
        } catch (java.io.IOException e) {
            System.out.println("cannot write target/sql-fuzz-progress.txt: " + e);
        }
    }

    /** Reports any statement that runs longer than a minute, so a hang names its statement. */
    private Thread startWatchdog() {
        log("SQL fuzz: started " + java.time.Instant.now());
        Thread t = new Thread(() -> {
            Running reported = null;
            while (!Thread.currentThread().isInterrupted()) {
                Running r = running;
                if (r != null && r != reported && System.nanoTime() - r.startNanos() > SLOW_STATEMENT_NANOS) {
                    reported = r;
                    log("SQL fuzz: statement #" + r.index() + " [" + r.fuzz().kind() + "] runs for over "
                            + TimeUnit.NANOSECONDS.toSeconds(SLOW_STATEMENT_NANOS) + " s: " + shorten(r.fuzz().sql(), 20_000));
                }
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "sql-fuzz-watchdog");
        t.setDaemon(true);
        t.start();
        return t;
    }

    private static void createSchema(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE NUMS (K BIGINT PRIMARY KEY, V BIGINT)");
            s.executeUpdate("CREATE TABLE BINS (K VARBINARY PRIMARY KEY, V VARCHAR(20))");
            s.executeUpdate("CREATE TABLE SHORTS (K VARCHAR(8) PRIMARY KEY, V VARBINARY(16))");
        }
        seed(c);
    }

    private static void seed(Connection c) throws SQLException {
        try (PreparedStatement kv = c.prepareStatement("UPSERT INTO KV VALUES (?, ?)");
             PreparedStatement nums = c.prepareStatement("UPSERT INTO NUMS VALUES (?, ?)");
             PreparedStatement bins = c.prepareStatement("UPSERT INTO BINS VALUES (?, ?)");
             PreparedStatement shorts = c.prepareStatement("UPSERT INTO SHORTS VALUES (?, ?)")) {
            for (int i = 0; i < 30; i++) {
                String k = "" + (char) ('a' + i % 5) + (char) ('a' + i / 5);
                kv.setString(1, k);
                kv.setString(2, i % 7 == 0 ? null : "v" + i);
                kv.executeUpdate();
                nums.setLong(1, i);
                nums.setLong(2, i * 3L);
                nums.executeUpdate();
                bins.setBytes(1, new byte[] {(byte) i});
                bins.setString(2, "b" + i);
                bins.executeUpdate();
                shorts.setString(1, k);
                shorts.setBytes(2, new byte[] {(byte) i, (byte) (i * 7)});
                shorts.executeUpdate();
            }
        }
    }

    /** Runs one case; true if it reported an update count (it may have written), false for a query. */
    private static boolean run(Connection c, SqlFuzzGenerator.Case fuzz, Random harness) throws SQLException {
        if (!fuzz.prepared()) {
            try (Statement s = c.createStatement()) {
                s.setMaxRows(1000);
                s.setQueryTimeout(30);
                if (s.execute(fuzz.sql())) {
                    drain(s.getResultSet());
                    return false;
                }
                return true;
            }
        }
        try (PreparedStatement ps = c.prepareStatement(fuzz.sql())) {
            ps.setMaxRows(1000);
            int count = ps.getParameterMetaData().getParameterCount();
            List<SqlFuzzGenerator.Parameter> params = fuzz.parameters();
            for (int i = 0; i < params.size(); i++) {
                bind(ps, i + 1, count, params.get(i));
            }
            int how = harness.nextInt(10);
            if (how == 0) {
                drain(ps.executeQuery());
                return false;
            }
            if (how == 1) {
                ps.executeUpdate();
                return true;
            }
            if (ps.execute()) {
                drain(ps.getResultSet());
                return false;
            }
            return true;
        }
    }

    private static void bind(PreparedStatement ps, int i, int count, SqlFuzzGenerator.Parameter p) throws SQLException {
        Object v = p.value();
        switch (p.binding()) {
            case STRING, HUGE_STRING -> ps.setString(i, (String) v);
            case LONG -> ps.setLong(i, (Long) v);
            case INT -> ps.setInt(i, (Integer) v);
            case DOUBLE -> ps.setDouble(i, (Double) v);
            case NAN -> ps.setDouble(i, Double.NaN);
            case BIG_DECIMAL, HUGE_DECIMAL -> ps.setBigDecimal(i, (java.math.BigDecimal) v);
            case BYTES -> ps.setBytes(i, (byte[]) v);
            case BOOLEAN -> ps.setBoolean(i, (Boolean) v);
            case NULL -> ps.setNull(i, Types.VARCHAR);
            case OBJECT -> ps.setObject(i, new Object());
            case DATE -> ps.setDate(i, Date.valueOf("2024-02-29"));
            case SKIP -> { }
            case INDEX_TOO_HIGH -> ps.setString(count + 1, "x");
            case INDEX_ZERO -> ps.setString(0, "x");
            default -> throw new IllegalStateException(p.binding().toString());
        }
    }

    private static void drain(ResultSet rs) throws SQLException {
        try (rs) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    rs.getObject(i);
                    rs.getString(i);
                }
            }
        }
    }

    private void checkState(int index, SqlFuzzGenerator.Case fuzz, SQLException e) {
        String state = e.getSQLState();
        count(byState, String.valueOf(state));
        count(byStateClass, state == null || state.length() < 2 ? "null" : state.substring(0, 2));
        if (state == null || state.length() != 5) {
            problem(index, fuzz, "SQLState '" + state + "' is not 5 characters: " + e);
        } else if (state.equals("0A000")) {
            problem(index, fuzz, "routine error reported as 0A000 (pools evict on it): " + e);
        } else if (state.startsWith("08")) {
            problem(index, fuzz, "statement error reported as a connection state: " + e);
        } else if (state.equals("HY000")) {
            // An internal error: the statement hit a case the SQL layer does not map to a standard state.
            if (generalErrors.putIfAbsent(shorten(String.valueOf(e.getMessage()), 160), shorten(fuzz.sql(), 160)) == null) {
                problem(index, fuzz, "internal error (HY000) instead of a standard SQLState: " + e);
            }
        }
    }

    /**
     * The connection still answers, and the data it sees (or {@code known}, if given, without reading it all);
     * null (and a problem) if it does not answer.
     */
    private TableDigest probe(int index, SqlFuzzGenerator.Case fuzz, Connection c, TableDigest known) {
        try {
            if (!c.isValid(5)) {
                problem(index, fuzz, "connection no longer valid");
                return null;
            }
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM KV")) {
                rs.next();
                rs.getLong(1);
            }
            return known != null ? known : TableDigest.of(c);
        } catch (SQLException | RuntimeException e) {
            problem(index, fuzz, "connection unusable after the failure: " + e);
            return null;
        }
    }

    private TableDigest endTransaction(Connection c, boolean commit, TableDigest seen, TableDigest before,
                                       boolean ddl, int index) throws SQLException {
        boolean committed = false;
        count(byKind, commit ? "commit" : "rollback");
        if (commit) {
            try {
                c.commit();
                committed = true;
            } catch (SQLException e) {
                // The store checks key and value sizes at commit: a failed commit must write nothing.
                checkState(index, new SqlFuzzGenerator.Case("commit", "COMMIT", null), e);
                count(failedByKind, "commit");
            }
        } else {
            c.rollback();
        }
        c.setAutoCommit(true);
        TableDigest now = TableDigest.of(c);
        TableDigest expected = committed ? seen : before;
        if (!ddl && !now.equals(expected)) {
            problems.add("#" + index + ": after " + (commit ? "commit" : "rollback") + " the data is "
                    + now.rowCounts() + ", expected " + expected.rowCounts());
        }
        return now;
    }

    /** Empties tables that grew large and drops tables the fuzz created, so digests stay cheap. */
    private static TableDigest keepSmall(Connection c, TableDigest baseline) throws SQLException {
        boolean changed = false;
        try (Statement s = c.createStatement()) {
            for (Map.Entry<String, Long> e : baseline.rowCounts().entrySet()) {
                String name = quoted(e.getKey());
                if (!BASE_TABLES.contains(e.getKey()) && baseline.rowCounts().size() > 12) {
                    s.executeUpdate("DROP TABLE " + name);
                    changed = true;
                } else if (e.getValue() > 400) {
                    s.executeUpdate("DELETE FROM " + name);
                    changed = true;
                }
            }
        }
        if (!changed) {
            return baseline;
        }
        seed(c);
        return TableDigest.of(c);
    }

    private static String quoted(String schemaDotName) {
        int dot = schemaDotName.indexOf('.');
        return TableDigest.quote(schemaDotName.substring(0, dot)) + "." + TableDigest.quote(schemaDotName.substring(dot + 1));
    }

    private static Connection reopen(Connection c, String url) throws SQLException {
        try {
            c.close();
        } catch (SQLException ignored) {
            // replaced anyway
        }
        return DriverManager.getConnection(url);
    }

    private void problem(int index, SqlFuzzGenerator.Case fuzz, String what) {
        problems.add("#" + index + " [" + fuzz.kind() + "] " + what + "\n    SQL: " + shorten(fuzz.sql(), 300)
                + (fuzz.prepared() ? "\n    params: " + fuzz.parameters().stream()
                .map(p -> p.binding().toString()).toList() : ""));
    }

    private static String shorten(String s, int max) {
        String oneLine = s.replace('\n', ' ');
        return oneLine.length() <= max ? oneLine : oneLine.substring(0, max) + "... (" + s.length() + " chars)";
    }

    private static void count(Map<String, Long> map, String key) {
        map.merge(key, 1L, Long::sum);
    }

    private void report(int ran, int total, long seed, long millis) {
        long failed = failedByKind.values().stream().mapToLong(Long::longValue).sum();
        System.out.println("SQL fuzz: seed " + seed + ", " + ran + " of " + total + " statements in " + millis
                + " ms, " + (ran - failed) + " succeeded, " + failed + " failed");
        System.out.println("  by kind (run): " + byKind);
        System.out.println("  by kind (failed): " + failedByKind);
        System.out.println("  by kind (ms): " + millisByKind);
        System.out.println("  errors by SQLState class: " + byStateClass);
        System.out.println("  errors by SQLState: " + byState);
        generalErrors.forEach((m, sql) -> System.out.println("  HY000: " + m + "\n      from: " + sql));
        problems.forEach(p -> System.out.println("  PROBLEM " + p));
    }
}
