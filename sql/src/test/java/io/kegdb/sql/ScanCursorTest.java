package io.kegdb.sql;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The scan sources read through the store's cursor (docs/SQL.md, "The per-row path"): each row is read once in
 * place, value tests and comparisons read the stored bytes where they lie, and a key or value is copied out of
 * the cursor (which every decode needs) only for a row that is kept. Counted by {@link CountingStore}.
 */
class ScanCursorTest extends CountedStoreTest {

    private static final int ROWS = 2_000;
    /** v of each id, in id order (VARCHAR values, some NULL). */
    private static final TreeMap<Long, String> VALUES = new TreeMap<>();

    @BeforeAll
    static void fill() throws SqlError {
        open(false);
        update(s, "CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR)");
        update(s, "CREATE TABLE n (id BIGINT PRIMARY KEY, v BIGINT)");
        SplittableRandom random = new SplittableRandom(25);
        s.setAutoCommit(false);
        try (SqlStatement text = s.prepare("INSERT INTO t VALUES (?, ?)");
             SqlStatement number = s.prepare("INSERT INTO n VALUES (?, ?)")) {
            for (long i = 0; i < ROWS; i++) {
                String v = i % 17 == 0 ? null : String.format("v%04d", random.nextInt(1000));
                VALUES.put(i, v);
                text.execute(Arrays.asList(i, v), 0).close();
                number.execute(Arrays.asList(i, v == null ? null : (long) v.hashCode()), 0).close();
            }
        }
        s.commit();
        s.setAutoCommit(true);
    }

    private static long valuesAbove(String x) {
        return VALUES.values().stream().filter(v -> v != null && v.compareTo(x) > 0).count();
    }

    @Test
    void aCountOverAValueTestReadsEachRowOnceAndCopiesNothing() throws SqlError {
        assertEquals(List.of(row(valuesAbove("v0500"))), rows(s, "SELECT COUNT(*) FROM t WHERE v > ?", "v0500"));
        assertEquals(1, store.cursors.get(), "one cursor over the table");
        assertEquals(ROWS, store.pairsRead.get(), "each row read once");
        assertEquals(0, store.keyCopies.get() + store.valueCopies.get(), "no key or value copied, so none decoded");
        assertEquals(0, store.gets.get() + store.multiGets.get());
    }

    @Test
    void aValueEqualityCopiesTheKeptRowsOnly() throws SqlError {
        String x = VALUES.get(5L);
        List<List<Object>> want = new ArrayList<>();
        VALUES.forEach((k, v) -> {
            if (x.equals(v)) {
                want.add(row(k));
            }
        });
        assertEquals(want, rows(s, "SELECT id FROM t WHERE v = ?", x));
        assertEquals(ROWS, store.pairsRead.get());
        assertEquals(want.size(), store.keyCopies.get(), "a key copied (and decoded) per row kept");
        assertEquals(0, store.valueCopies.get(), "the value is only compared");
    }

    @Test
    void aTopNReadsEachRowOnceAndCopiesOnlyRowsThatEnterItsHeap() throws SqlError {
        List<List<Object>> want = new ArrayList<>();
        VALUES.entrySet().stream().filter(e -> e.getValue() != null && e.getValue().compareTo("v0300") >= 0)
                .sorted((a, b) -> a.getValue().equals(b.getValue()) ? Long.compare(a.getKey(), b.getKey())
                        : a.getValue().compareTo(b.getValue()))
                .limit(5).forEach(e -> want.add(row(e.getKey(), e.getValue())));
        String sql = "SELECT id, v FROM t WHERE v >= ? ORDER BY v, id LIMIT 5";
        assertEquals(want, rows(s, sql, "v0300"));
        assertEquals(1, store.cursors.get());
        assertEquals(ROWS, store.pairsRead.get(), "each row read once");
        // Values in random order: about 5 ln(2000 / 5) = 30 rows enter a heap of 5; every row would be 2000.
        assertTrue(store.valueCopies.get() < 100, "copied " + store.valueCopies.get());
        assertEquals(store.keyCopies.get(), store.valueCopies.get(), "a pair copied whole as it enters the heap");
    }

    @Test
    void aggregatesReadTheValueInPlace() throws SqlError {
        long sum = 0;
        Long max = null;
        for (long i = 100; i < 1100; i++) {
            String v = VALUES.get(i);
            if (v != null) {
                sum += v.hashCode();
                max = max == null ? v.hashCode() : Math.max(max, v.hashCode());
            }
        }
        assertEquals(List.of(row(java.math.BigDecimal.valueOf(sum), max)),
                rows(s, "SELECT SUM(v), MAX(v) FROM n WHERE id BETWEEN 100 AND 1099"));
        assertEquals(1000, store.pairsRead.get());
        // SUM reads the number in place; MAX copies a value only when it is the largest so far (random order).
        assertTrue(store.valueCopies.get() < 50, "copied " + store.valueCopies.get());
        assertEquals(0, store.keyCopies.get());
    }

    @Test
    void aTransactionsOwnWritesAreMergedIntoTheCursor() throws SqlError {
        s.setAutoCommit(false);
        try {
            update(s, "DELETE FROM t WHERE id BETWEEN 0 AND 99");
            update(s, "INSERT INTO t VALUES (?, ?)", 5000L, "v9999");
            update(s, "UPDATE t SET v = ? WHERE id = ?", "v0000", 150L);
            long want = 0;
            for (var e : VALUES.tailMap(100L).entrySet()) {
                String v = e.getKey() == 150L ? "v0000" : e.getValue();
                if (v != null && v.compareTo("v0500") > 0) {
                    want++;
                }
            }
            want++; // id 5000
            store.reset();
            assertEquals(List.of(row(want)), rows(s, "SELECT COUNT(*) FROM t WHERE v > ?", "v0500"));
            assertEquals(ROWS, store.pairsRead.get(), "the store's rows read once, under the buffered writes");
        } finally {
            s.rollback();
            s.setAutoCommit(true);
        }
    }
}
