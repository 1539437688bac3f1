package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import io.kegdb.engine.meter.Meter;
import io.kegdb.sql.direct.StatementText;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SQL meters, SYS.STATEMENTS and the slow-statement log, through sessions. */
class StatementMetersTest {

    private static double meter(SqlDatabase db, String name, String kind) {
        for (Meter m : db.meters()) {
            if (m.name().equals(name) && (kind == null || kind.equals(m.tags().get("kind")))) {
                return m.read();
            }
        }
        throw new AssertionError("no meter " + name + " " + kind);
    }

    private static List<List<Object>> rows(SqlSession s, String sql) throws SqlError {
        List<List<Object>> out = new ArrayList<>();
        try (SqlResult r = s.execute(sql)) {
            while (r.next()) {
                List<Object> row = new ArrayList<>();
                for (int i = 0; i < r.columns().size(); i++) {
                    row.add(r.get(i));
                }
                out.add(row);
            }
        }
        return out;
    }

    @Test
    void normalizedTextsHideEveryLiteral() {
        assertEquals("INSERT INTO t VALUES (?, -?, ?)",
                StatementText.normalize("INSERT INTO t  VALUES ('a''b', -12.5e3, X'0aff')"));
        assertEquals("SELECT v FROM kv WHERE k = ?", StatementText.normalize("SELECT v FROM kv -- 'x'\n WHERE k = 'secret'"));
        assertEquals(StatementText.UNREADABLE, StatementText.normalize("SELECT 'unterminated"));
    }

    @Test
    void statementsTableCountsWhatRan() throws Exception {
        try (SqlDatabase db = SqlDatabase.open(KvStore.inMemory()); SqlSession s = db.newSession()) {
            s.execute("CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR)");
            SqlStatement insert = s.prepare("INSERT INTO T VALUES (?, ?)");
            for (long i = 0; i < 7; i++) {
                insert.execute(List.of(i, "v" + i), 0).close();
            }
            for (int i = 0; i < 3; i++) {
                rows(s, "SELECT V FROM T WHERE K = " + i);
            }
            rows(s, "SELECT K, V FROM T WHERE V > 'v' ORDER BY K");
            List<List<Object>> stats = rows(s, "SELECT TEXT, KIND, CALLS, ROW_COUNT, TOTAL_US, MAX_US, CONFLICTS"
                    + " FROM SYS.STATEMENTS ORDER BY TEXT");
            Map<Object, List<Object>> byText = new java.util.HashMap<>();
            for (List<Object> r : stats) {
                byText.put(r.get(0), r);
            }
            List<Object> ins = byText.get("INSERT INTO T VALUES (?, ?)");
            assertEquals(List.of("INSERT", 7L, 7L), ins.subList(1, 4));
            List<Object> point = byText.get("SELECT V FROM T WHERE K = ?");
            assertEquals(List.of("SELECT", 3L, 3L), point.subList(1, 4), stats.toString());
            assertEquals(List.of("SELECT", 1L, 7L), byText.get("SELECT K, V FROM T WHERE V > ? ORDER BY K").subList(1, 4));
            assertEquals(List.of("DDL", 1L, 0L),
                    byText.get("CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR)").subList(1, 4));
            assertTrue((Long) ins.get(4) >= (Long) ins.get(5), "total >= max");
            for (List<Object> r : stats) {
                assertFalse(r.get(0).toString().contains("v1"), "no value in " + r);
            }

            assertEquals(7, meter(db, "kegdb.sql.statements", "insert"));
            assertEquals(7, meter(db, "kegdb.sql.rows.changed", null));
            // 3 point selects, 7 rows of the range query, and the rows of SYS.STATEMENTS itself
            assertEquals(10 + stats.size(), meter(db, "kegdb.sql.rows.returned", null));

            db.resetStatementStatistics();
            assertEquals(List.of(List.of(0L)), rows(s, "SELECT COUNT(*) FROM SYS.STATEMENTS WHERE TEXT LIKE 'INSERT%'"));
            insert.execute(List.of(100L, "x"), 0).close();
            assertEquals(List.of(List.of(1L)),
                    rows(s, "SELECT CALLS FROM SYS.STATEMENTS WHERE TEXT = 'INSERT INTO T VALUES (?, ?)'"));
        }
    }

    @Test
    void planCacheHitsAndMissesAreCounted() throws Exception {
        try (SqlDatabase db = SqlDatabase.open(KvStore.inMemory()); SqlSession s = db.newSession()) {
            double misses = meter(db, "kegdb.sql.plan.cache.misses", null);
            double hits = meter(db, "kegdb.sql.plan.cache.hits", null);
            rows(s, "SELECT COUNT(*) FROM KV WHERE V > 'a'");
            rows(s, "SELECT COUNT(*) FROM KV WHERE V > 'b'");
            assertEquals(misses + 1, meter(db, "kegdb.sql.plan.cache.misses", null));
            assertEquals(hits + 1, meter(db, "kegdb.sql.plan.cache.hits", null));
        }
    }

    @Test
    void aSlowStatementIsLoggedOnceNormalizedWithoutItsValues() throws Exception {
        try (SqlDatabase db = SqlDatabase.open(KvStore.inMemory()); SqlSession s = db.newSession()) {
            s.execute("CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR)");
            s.setAutoCommit(false);
            SqlStatement insert = s.prepare("INSERT INTO T VALUES (?, ?)");
            for (long i = 0; i < 20_000; i++) {
                insert.execute(List.of(i, "value" + i), 0).close();
            }
            s.commit();
            s.setAutoCommit(true);
            PrintStream err = System.err;
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try {
                s.setSlowStatementThreshold(60_000);
                rows(s, "SELECT V FROM T WHERE K = 17");
                s.setSlowStatementThreshold(1);
                // A scan of 20,000 rows with a string function on each: far over a millisecond.
                rows(s, "SELECT COUNT(*) FROM T WHERE UPPER(V) <> 'SECRET-7' AND V <> 'topsecret'");
                s.setSlowStatementThreshold(0);
                rows(s, "SELECT COUNT(*) FROM T WHERE UPPER(V) <> 'SECRET-8'");
            } finally {
                System.setErr(err);
            }
            List<String> slow = captured.toString(StandardCharsets.UTF_8).lines()
                    .filter(l -> l.contains("slow statement")).toList();
            assertEquals(1, slow.size(), slow.toString());
            String line = slow.get(0);
            assertTrue(line.contains("WARN"), line);
            assertTrue(line.contains("SELECT COUNT(*) FROM T WHERE UPPER(V) <> ? AND V <> ?"), line);
            assertTrue(line.contains(" 1 rows"), line);
            assertFalse(line.contains("SECRET") || line.contains("topsecret"), line);
            assertEquals(1, meter(db, "kegdb.sql.slow.statements", null));
        }
    }

    private static double statements(SqlDatabase db) {
        double n = 0;
        for (Meter m : db.meters()) {
            if (m.name().equals("kegdb.sql.statements")) {
                n += m.read();
            }
        }
        return n;
    }

    @Test
    void aSessionWithoutStatisticsRecordsNothingAndItsSlowStatementsAreStillLogged() throws Exception {
        try (SqlDatabase db = SqlDatabase.open(KvStore.inMemory()); SqlSession off = db.newSession();
             SqlSession on = db.newSession()) {
            off.setStatementStatistics(false);
            off.execute("CREATE TABLE T (K BIGINT PRIMARY KEY, V VARCHAR)").close();
            off.setAutoCommit(false);
            SqlStatement insert = off.prepare("INSERT INTO T VALUES (?, ?)");
            for (long i = 0; i < 20_000; i++) {
                insert.execute(List.of(i, "value" + i), 0).close();
            }
            off.commit();
            off.setAutoCommit(true);
            SqlStatement point = off.prepare("SELECT V FROM T WHERE K = ?");
            for (long i = 0; i < 10; i++) {
                try (SqlResult r = point.execute(List.of(i), 0)) {
                    assertTrue(r.next());
                }
            }
            rows(off, "SELECT COUNT(*) FROM T WHERE V > 'value5'");
            assertEquals(0, statements(db), "no statement of the session without statistics counted");
            assertEquals(0, meter(db, "kegdb.sql.statement.seconds", null));
            assertEquals(0, meter(db, "kegdb.sql.rows.changed", null));
            assertEquals(0, meter(db, "kegdb.sql.rows.returned", null));

            // The same texts run by a session with statistics are counted, and only its runs.
            SqlStatement counted = on.prepare("SELECT V FROM T WHERE K = ?");
            for (long i = 0; i < 6; i++) {
                try (SqlResult r = counted.execute(List.of(i), 0)) {
                    assertTrue(r.next());
                }
            }
            counted.close();
            assertEquals(6, meter(db, "kegdb.sql.statements", "select"));
            List<List<Object>> stats = rows(on, "SELECT TEXT, CALLS, ROW_COUNT FROM SYS.STATEMENTS"
                    + " WHERE TEXT NOT LIKE '%SYS.STATEMENTS%'");
            assertEquals(List.of(List.of("SELECT V FROM T WHERE K = ?", 6L, 6L)), stats);

            // Off, a statement is timed only for the slow log, which still names it by its normalized text.
            PrintStream err = System.err;
            ByteArrayOutputStream captured = new ByteArrayOutputStream();
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            try {
                off.setSlowStatementThreshold(1);
                rows(off, "SELECT COUNT(*) FROM T WHERE UPPER(V) <> 'SECRET-9'");
            } finally {
                System.setErr(err);
                off.setSlowStatementThreshold(0);
            }
            List<String> slow = captured.toString(StandardCharsets.UTF_8).lines()
                    .filter(l -> l.contains("slow statement")).toList();
            assertEquals(1, slow.size(), slow.toString());
            assertTrue(slow.get(0).contains("SELECT COUNT(*) FROM T WHERE UPPER(V) <> ?"), slow.get(0));
            assertFalse(slow.get(0).contains("SECRET"), slow.get(0));
            assertEquals(1, meter(db, "kegdb.sql.slow.statements", null));
            assertEquals(7, statements(db), "the slow statement of the session without statistics not counted"
                    + " (the query of SYS.STATEMENTS was)");
        }
    }
}
