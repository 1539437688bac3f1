package io.kegdb.sql;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Aggregates over a scan are computed by the scan source on stored bytes (docs/SQL.md, "What is pushed into the
 * store"): each row of the ranges read once, no row decoded into Calcite (the plan has no scan and no Calcite
 * aggregate), and the answers those of Calcite's operators. Forms the source cannot compute stay Calcite's.
 */
class ScanAggregateTest extends CountedStoreTest {

    private static final int ROWS = 100_000;

    /** v of row i: NULL for every tenth row, else one of 100 values from -50 to 49. */
    private static Integer value(long i) {
        return i % 10 == 0 ? null : (int) ((i * 37) % 100) - 50;
    }

    @BeforeAll
    static void fill() throws SqlError {
        open(false);
        update(s, "CREATE TABLE big (id BIGINT PRIMARY KEY, v INTEGER)");
        s.setAutoCommit(false);
        try (SqlStatement ins = s.prepare("INSERT INTO big VALUES (?, ?)")) {
            for (long i = 0; i < ROWS; i++) {
                ins.execute(java.util.Arrays.asList(i, value(i)), 0).close();
            }
        }
        s.commit();
        s.setAutoCommit(true);
    }

    private static String plan(String sql) throws SqlError {
        return ((KegSession) s).database().plan(sql, "PUBLIC").explain();
    }

    /** The plan computes the aggregate in the scan source: no scan produces rows for a Calcite aggregate. */
    private static void computedByTheScan(String sql) throws SqlError {
        String plan = plan(sql);
        assertTrue(plan.contains("KvAggregate(") && !plan.contains("KvScan") && !plan.contains("EnumerableAggregate"),
                plan);
    }

    private static void computedByCalcite(String sql) throws SqlError {
        String plan = plan(sql);
        assertTrue(!plan.contains("KvAggregate(") && plan.contains("Aggregate"), plan);
    }

    @Test
    void aggregatesOverARangeReadEachRowOnceAndDecodeNone() throws SqlError {
        String sql = "SELECT MIN(v), MAX(v), SUM(v), AVG(v), COUNT(v), COUNT(DISTINCT v), COUNT(*) FROM big"
                + " WHERE id BETWEEN ? AND ?";
        computedByTheScan(sql);
        long from = 1000;
        long to = 60_999;
        int min = Integer.MAX_VALUE;
        int max = Integer.MIN_VALUE;
        long sum = 0;
        long count = 0;
        Set<Integer> distinct = new HashSet<>();
        for (long i = from; i <= to; i++) {
            Integer v = value(i);
            if (v != null) {
                min = Math.min(min, v);
                max = Math.max(max, v);
                sum += v;
                count++;
                distinct.add(v);
            }
        }
        store.reset();
        assertEquals(List.of(row(min, max, sum, (double) sum / count, count, (long) distinct.size(), to - from + 1)),
                rows(s, sql, from, to));
        assertEquals(to - from + 1, store.pairsRead.get(), "each row of the range read once");
        assertEquals(1, store.scans.get());
    }

    @Test
    void groupsOnTheValueAreCountedOnTheBytes() throws SqlError {
        String sql = "SELECT v, COUNT(*), MIN(id), MAX(id), SUM(id) FROM big WHERE id BETWEEN ? AND ? GROUP BY v";
        computedByTheScan(sql);
        Map<Integer, long[]> expected = new TreeMap<>(Comparator.nullsFirst(Comparator.naturalOrder()));
        for (long i = 500; i < 2500; i++) {
            long[] g = expected.computeIfAbsent(value(i), x -> new long[] {0, Long.MAX_VALUE, Long.MIN_VALUE, 0});
            g[0]++;
            g[1] = Math.min(g[1], i);
            g[2] = Math.max(g[2], i);
            g[3] += i;
        }
        store.reset();
        List<List<Object>> found = sorted(rows(s, sql, 500L, 2499L));
        List<List<Object>> want = new ArrayList<>();
        expected.forEach((v, g) -> want.add(row(v, g[0], g[1], g[2], new java.math.BigDecimal(g[3]))));
        assertEquals(want, found);
        assertEquals(2000, store.pairsRead.get());
        // A value condition is tested on the bytes inside the same scan.
        String filtered = "SELECT v, COUNT(*) FROM big WHERE id BETWEEN ? AND ? AND v >= ? GROUP BY v";
        computedByTheScan(filtered);
        assertTrue(plan(filtered).contains("values=["), plan(filtered));
        store.reset();
        List<List<Object>> kept = sorted(rows(s, filtered, 500L, 2499L, 40));
        List<List<Object>> wantKept = new ArrayList<>();
        expected.forEach((v, g) -> {
            if (v != null && v >= 40) {
                wantKept.add(row(v, g[0]));
            }
        });
        assertEquals(wantKept, kept);
        assertEquals(2000, store.pairsRead.get());
        // DISTINCT is a GROUP BY without calls.
        Set<Integer> all = new HashSet<>();
        for (long i = 0; i < ROWS; i++) {
            all.add(value(i));
        }
        store.reset();
        assertEquals(all.size(), rows(s, "SELECT DISTINCT v FROM big").size());
        assertEquals(ROWS, store.pairsRead.get());
    }

    @Test
    void groupsOnTheKeyAreOneRowEachInKeyOrder() throws SqlError {
        String counted = "SELECT id, COUNT(*) FROM big WHERE id BETWEEN 10 AND 14 GROUP BY id";
        computedByTheScan(counted);
        assertEquals(List.of(row(10L, 1L), row(11L, 1L), row(12L, 1L), row(13L, 1L), row(14L, 1L)),
                rows(s, counted));
        assertEquals(0, store.pairsRead.get(), "keys alone");
        assertTrue(store.keysRead.get() <= 6, "read " + store.keysRead);
        // In key order, so an ORDER BY on the key needs no sort, and a LIMIT stops the scan.
        String limited = "SELECT id, MAX(v) FROM big WHERE id >= ? GROUP BY id ORDER BY id LIMIT 3";
        computedByTheScan(limited);
        assertTrue(!plan(limited).contains("Sort"), plan(limited));
        store.reset();
        assertEquals(List.of(row(500L, value(500)), row(501L, value(501)), row(502L, value(502))),
                rows(s, limited, 500L));
        assertTrue(store.pairsRead.get() <= 5, "read " + store.pairsRead);
        String summed = "SELECT id, SUM(v), MIN(v), COUNT(v), AVG(v) FROM big WHERE id < 3 GROUP BY id";
        computedByTheScan(summed);
        assertEquals(List.of(row(0L, null, null, 0L, null), row(1L, (long) value(1), value(1), 1L,
                (double) value(1)), row(2L, (long) value(2), value(2), 1L, (double) value(2))), rows(s, summed));
    }

    @Test
    void anEmptyRangeGivesOneRowOfNullsOrNoGroups() throws SqlError {
        String sql = "SELECT COUNT(*), COUNT(v), COUNT(DISTINCT v), MIN(v), MAX(id), SUM(v), AVG(v) FROM big"
                + " WHERE id > ?";
        computedByTheScan(sql);
        assertEquals(List.of(row(0L, 0L, 0L, null, null, null, null)), rows(s, sql, (long) ROWS));
        assertEquals(List.of(), rows(s, "SELECT v, COUNT(*) FROM big WHERE id > ? GROUP BY v", (long) ROWS));
        // Only NULLs: counted, never summed.
        assertEquals(List.of(row(3L, 0L, null, null)),
                rows(s, "SELECT COUNT(*), COUNT(v), SUM(v), MIN(v) FROM big WHERE id IN (0, 10, 20)"));
        assertEquals(List.of(row(0L, null)), rows(s, "SELECT COUNT(*), MAX(v) FROM big WHERE v = ?", (Object) null));
    }

    @Test
    void uncommittedWritesAreAggregated() throws SqlError {
        s.setAutoCommit(false);
        try {
            update(s, "INSERT INTO big VALUES (?, ?)", (long) ROWS + 5, 1000);
            update(s, "DELETE FROM big WHERE id = ?", (long) ROWS - 1);
            assertEquals(List.of(row(2L, 1000, (long) value(ROWS - 2) + 1000)),
                    rows(s, "SELECT COUNT(v), MAX(v), SUM(v) FROM big WHERE id >= ?", (long) ROWS - 2));
        } finally {
            s.rollback();
            s.setAutoCommit(true);
        }
    }

    @Test
    void formsTheScanCannotComputeStayCalcites() throws SqlError {
        long sum = 0;
        long filtered = 0;
        for (long i = 0; i < 100; i++) {
            Integer v = value(i);
            if (v != null && i % 7 == 1) {
                sum += v;
            }
            if (v != null && v > 3) {
                filtered++;
            }
        }
        for (String sql : List.of("SELECT SUM(v) FROM big WHERE id < 100 AND MOD(id, 7) = 1",
                "SELECT SUM(DISTINCT v) FROM big WHERE id < 100",
                "SELECT COUNT(*) FILTER (WHERE v > 3) FROM big WHERE id < 100",
                "SELECT SUM(v + 1) FROM big WHERE id < 100")) {
            computedByCalcite(sql);
        }
        assertEquals(List.of(row(sum)), rows(s, "SELECT SUM(v) FROM big WHERE id < 100 AND MOD(id, 7) = 1"));
        assertEquals(List.of(row(filtered)), rows(s, "SELECT COUNT(*) FILTER (WHERE v > 3) FROM big WHERE id < 100"));
    }

    @Test
    void doublesGroupAsCalcitesGroupsAndNanIsTheLargest() throws SqlError {
        update(s, "CREATE TABLE dbl (k INTEGER PRIMARY KEY, v DOUBLE)");
        Object[][] data = {{1, 0.0}, {2, -0.0}, {3, Double.NaN}, {4, Double.NaN}, {5, 1.5}, {6, null}, {7, -2.5}};
        for (Object[] row : data) {
            update(s, "INSERT INTO dbl VALUES (?, ?)", row[0], row[1]);
        }
        // Calcite groups DOUBLEs by Double.equals (one NaN): so does the scan; the -0.0 written is stored as 0.0.
        for (String calls : List.of("v, COUNT(*) FROM dbl GROUP BY v", "COUNT(DISTINCT v), COUNT(v), SUM(k) FROM dbl")) {
            String pushed = "SELECT " + calls;
            computedByTheScan(pushed);
            String byCalcite = "SELECT " + calls.replace("FROM dbl", "FROM dbl WHERE MOD(k, 100) < 100");
            computedByCalcite(byCalcite);
            assertEquals(new HashSet<>(rows(s, byCalcite)), new HashSet<>(rows(s, pushed)), pushed);
        }
        // MIN and MAX order NaN after every number, as H2 and Java do.
        assertEquals(List.of(row(-2.5, Double.NaN)), rows(s, "SELECT MIN(v), MAX(v) FROM dbl"));
    }

    /** Rows ordered by their first column, NULL first (a GROUP BY returns its groups in no order). */
    private static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>(rows);
        out.sort(Comparator.comparing(r -> (Integer) r.get(0), Comparator.nullsFirst(Comparator.naturalOrder())));
        return out;
    }
}
