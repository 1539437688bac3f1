package io.kegdb.sql;

import io.kegdb.sql.plan.Plan;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Counts store calls to show which conditions reach the store as lookups and bounded scans. */
class PushdownTest extends CountedStoreTest {

    private static final int ROWS = 100_000;

    @BeforeAll
    static void fill() throws SqlError {
        open(false);
        update(s, "CREATE TABLE big (id BIGINT PRIMARY KEY, name VARCHAR)");
        update(s, "CREATE TABLE words (w VARCHAR PRIMARY KEY, n BIGINT)");
        s.setAutoCommit(false);
        try (SqlStatement ins = s.prepare("INSERT INTO big VALUES (?, ?)")) {
            for (long i = 0; i < ROWS; i++) {
                ins.execute(List.of(i, "name" + i), 0).close();
            }
        }
        try (SqlStatement ins = s.prepare("INSERT INTO words VALUES (?, ?)")) {
            for (String w : List.of("apple", "apricot", "banana", "blueberry", "cherry", "date")) {
                ins.execute(List.of(w, (long) w.length()), 0).close();
            }
        }
        s.commit();
        s.setAutoCommit(true);
    }

    @Test
    void pointQueryIsOneLookup() throws SqlError {
        assertEquals(List.of(row(42L, "name42")), rows(s, "SELECT * FROM big WHERE id = ?", 42L));
        assertEquals(1, store.gets.get());
        assertEquals(0, store.scans.get());
        store.reset();
        assertEquals(List.of(row("name7")), rows(s, "SELECT name FROM big WHERE id = 7"));
        assertEquals(1, store.touches());
    }

    @Test
    void pointQueryThroughCalciteIsOneLookup() throws SqlError {
        // Not a fast-path shape (an expression in the select list), so Calcite plans it: still one get.
        assertEquals(List.of(row("NAME42")), rows(s, "SELECT UPPER(name) FROM big WHERE id = ?", 42L));
        assertEquals(1, store.touches());
        store.reset();
        assertEquals(List.of(row(1L)), rows(s, "SELECT COUNT(*) FROM big WHERE id = 5 AND name LIKE 'name%'"));
        assertEquals(1, store.touches());
    }

    @Test
    void inListIsMultiGet() throws SqlError {
        // Keys only: one presence check per key, from the keydir (no record is read to batch).
        assertEquals(List.of(row(3L), row(9L), row(500L)), rows(s, "SELECT id FROM big WHERE id IN (500, 3, 9, 200000) ORDER BY id"));
        assertEquals(4, store.gets.get());
        assertEquals(0, store.scans.get());
        store.reset();
        assertEquals(List.of(row(1L, "name1"), row(2L, "name2")),
                rows(s, "SELECT * FROM big WHERE id IN (?, ?) ORDER BY id", 2L, 1L));
        assertEquals(1, store.multiGets.get());
        assertEquals(2, store.multiGetKeys.get());
        assertEquals(0, store.gets.get());
        store.reset();
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            in.append(i == 0 ? "" : ", ").append(i * 1999);
        }
        List<List<Object>> found = rows(s, "SELECT id, name FROM big WHERE id IN (" + in + ") ORDER BY id");
        assertEquals(50, found.size());
        assertEquals(row(1999L, "name1999"), found.get(1));
        assertEquals(row(49 * 1999L, "name" + 49 * 1999), found.get(49));
        assertEquals(1, store.multiGets.get(), "IN of 50 keys: one multi-get");
        assertEquals(50, store.multiGetKeys.get());
        assertEquals(0, store.gets.get() + store.scans.get());
    }

    @Test
    void rangesScanOnlyTheRange() throws SqlError {
        assertEquals(10, rows(s, "SELECT id FROM big WHERE id >= 1000 AND id < 1010").size());
        assertEquals(1, store.keyScans.get());
        assertTrue(store.keysRead.get() <= 11, "read " + store.keysRead);
        assertEquals(0, store.pairsRead.get(), "the key alone is selected");
        store.reset();
        assertEquals(11, rows(s, "SELECT * FROM big WHERE id BETWEEN ? AND ?", 50L, 60L).size());
        assertTrue(store.pairsRead.get() <= 12, "read " + store.pairsRead);
        store.reset();
        assertEquals(List.of(row(99_998L), row(99_999L)), rows(s, "SELECT id FROM big WHERE id > 99997"));
        assertTrue(store.keysRead.get() <= 3, "read " + store.keysRead);
        store.reset();
        assertEquals(List.of(row(0L), row(1L)), rows(s, "SELECT id FROM big WHERE id < ? ORDER BY id", 2L));
        assertTrue(store.keysRead.get() <= 3, "read " + store.keysRead);
    }

    @Test
    void likePrefixScansThePrefix() throws SqlError {
        assertEquals(List.of(row("apple"), row("apricot")), rows(s, "SELECT w FROM words WHERE w LIKE 'ap%'"));
        assertEquals(1, store.keyScans.get());
        assertEquals(2, store.keysRead.get());
        assertEquals(0, store.pairsRead.get());
        store.reset();
        assertEquals(List.of(row("banana")), rows(s, "SELECT w FROM words WHERE w LIKE 'b%a'"));
        assertTrue(store.keysRead.get() <= 2, "prefix b read, the rest filtered: " + store.keysRead);
        store.reset();
        // A pattern parameter: its literal start is the scanned prefix once the statement runs.
        assertEquals(List.of(row("apricot")), rows(s, "SELECT w FROM words WHERE w LIKE ?", "apr%"));
        assertEquals(1, store.keysRead.get());
        store.reset();
        assertEquals(List.of(row("blueberry")), rows(s, "SELECT w FROM words WHERE w LIKE ? ORDER BY w", "b_u%"));
        assertEquals(2, store.keysRead.get());
        store.reset();
        assertEquals(6, rows(s, "SELECT w FROM words WHERE w LIKE ?", "%").size());
        assertEquals(List.of(), rows(s, "SELECT w FROM words WHERE w LIKE ?", (Object) null));
    }

    @Test
    void orderByKeyLimitStopsEarly() throws SqlError {
        assertEquals(List.of(row(0L), row(1L), row(2L), row(3L), row(4L)),
                rows(s, "SELECT id FROM big ORDER BY id LIMIT 5"));
        assertTrue(store.keysRead.get() <= 6, "read " + store.keysRead);
        store.reset();
        assertEquals(List.of(row(99_999L, "name99999"), row(99_998L, "name99998")),
                rows(s, "SELECT * FROM big ORDER BY id DESC LIMIT 2"));
        assertTrue(store.pairsRead.get() <= 3, "read " + store.pairsRead);
        store.reset();
        assertEquals(List.of(row(10L), row(11L)), rows(s, "SELECT id FROM big ORDER BY id LIMIT 2 OFFSET 10"));
        assertTrue(store.keysRead.get() <= 13, "read " + store.keysRead);
        store.reset();
        assertEquals(5, rows(s, "SELECT * FROM big LIMIT ?", 5).size());
        assertTrue(store.pairsRead.get() <= 6, "read " + store.pairsRead);
        store.reset();
        assertEquals(List.of(row(599L), row(598L)),
                rows(s, "SELECT id FROM big WHERE id < 600 ORDER BY id DESC FETCH FIRST 2 ROWS ONLY"));
        assertTrue(store.keysRead.get() <= 3, "read " + store.keysRead);
    }

    @Test
    void offsetSkipsKeysWithoutReadingValues() throws SqlError {
        assertEquals(List.of(row(10_000L, "name10000"), row(10_001L, "name10001")),
                rows(s, "SELECT id, name FROM big ORDER BY id LIMIT 2 OFFSET 10000"));
        assertEquals(10_000, store.keysRead.get());
        assertEquals(2, store.pairsRead.get(), "values only for the rows returned");
        store.reset();
        assertEquals(List.of(row(89_999L, "name89999")),
                rows(s, "SELECT * FROM big ORDER BY id DESC LIMIT ? OFFSET ?", 1, 10_000));
        assertEquals(10_000, store.keysRead.get());
        assertEquals(1, store.pairsRead.get());
        store.reset();
        // Skipped points are presence checks; the value is read for the rows returned.
        assertEquals(List.of(row(5L, "name5")),
                rows(s, "SELECT * FROM big WHERE id IN (1, 3, 5, 7) ORDER BY id LIMIT 1 OFFSET 2"));
        assertEquals(3, store.gets.get());
        assertEquals(0, store.scans.get() + store.keyScans.get());
        store.reset();
        assertEquals(List.of(), rows(s, "SELECT * FROM big WHERE id BETWEEN 20 AND 30 ORDER BY id OFFSET 11"));
        assertEquals(11, store.keysRead.get());
        assertEquals(0, store.pairsRead.get());
    }

    @Test
    void aScanOfTheKeyAloneReadsNoValues() throws SqlError {
        assertEquals(List.of(row(3L), row(2L), row(1L)), rows(s, "SELECT id FROM big WHERE id < 4 AND id > 0 "
                + "ORDER BY id DESC"));
        assertEquals(3, store.keysRead.get());
        assertEquals(0, store.pairsRead.get());
    }

    @Test
    void aKeyConditionCrossesAJoinOnTheKey() throws SqlError {
        update(s, "CREATE TABLE tags (id BIGINT PRIMARY KEY, tag VARCHAR)");
        update(s, "INSERT INTO tags VALUES (42, 'answer'), (7, 'seven'), (43, 'next')");
        store.reset();
        assertEquals(List.of(row("name42", "answer")),
                rows(s, "SELECT big.name, tags.tag FROM big JOIN tags ON big.id = tags.id WHERE big.id = ?", 42L));
        assertEquals(2, store.gets.get(), "one get on each side");
        assertEquals(0, store.scans.get());
        store.reset();
        assertEquals(List.of(row(42L, "answer"), row(43L, "next")), rows(s,
                "SELECT tags.id, tags.tag FROM tags JOIN big ON tags.id = big.id WHERE big.id BETWEEN 40 AND 45"
                        + " ORDER BY tags.id"));
        assertTrue(store.pairsRead.get() + store.keysRead.get() <= 6 + 2, "both sides scan the range only: "
                + store.pairsRead + " pairs, " + store.keysRead + " keys");
        // Conditions on both sides, one rewritten by Calcite: copied once, not back and forth.
        assertEquals(List.of(row(42L, "answer")), rows(s, "SELECT a.id, b.tag FROM big a JOIN tags b ON a.id = b.id"
                + " WHERE NOT (a.id <> 42) AND b.tag IS NOT NULL"));
        assertEquals(List.of(row("seven", "seven")), rows(s, "SELECT a.tag, b.tag FROM tags a JOIN tags b"
                + " ON a.tag = b.tag WHERE a.tag IS NOT NULL AND b.tag LIKE 's%' AND a.id < 10"));
        update(s, "DROP TABLE tags");
    }

    @Test
    void aLimitOverAFilteredOrderedScanStopsTheScan() throws SqlError {
        // Every 1000th name ends in 000: five of them lie within the first 5000 keys above 50000. Calcite's
        // limit asks for one row past its count before it stops, hence one more stretch of 1000 keys.
        assertEquals(List.of(row(51_000L), row(52_000L), row(53_000L), row(54_000L), row(55_000L)), rows(s,
                "SELECT id FROM big WHERE id > ? AND name LIKE '%000' ORDER BY id LIMIT 5", 50_000L));
        assertTrue(store.pairsRead.get() <= 6_000, "read " + store.pairsRead);
        store.reset();
        assertEquals(List.of(row(49_000L), row(48_000L)), rows(s,
                "SELECT id FROM big WHERE id < ? AND name LIKE '%000' ORDER BY id DESC LIMIT 2", 50_000L));
        assertTrue(store.pairsRead.get() <= 3_000, "read " + store.pairsRead);
    }

    @Test
    void aValueEqualityIsCheckedInTheScanWhichStopsAtTheLimit() throws SqlError {
        update(s, "CREATE TABLE colors (id BIGINT PRIMARY KEY, color VARCHAR)");
        s.setAutoCommit(false);
        try (SqlStatement ins = s.prepare("INSERT INTO colors VALUES (?, ?)")) {
            for (long i = 0; i < 1_000; i++) {
                ins.execute(List.of(i, "c" + (i % 10)), 0).close();
            }
        }
        s.commit();
        s.setAutoCommit(true);
        try {
            String sql = "SELECT id FROM colors WHERE id >= ? AND color = ? ORDER BY id LIMIT 5";
            String plan = ((KegSession) s).database().plan(sql, "PUBLIC").explain();
            assertTrue(plan.contains("values=[[=?1]]") && plan.contains("fetch") && !plan.contains("Filter")
                    && !plan.contains("$condition") && !plan.contains("Sort"), plan);
            store.reset();
            assertEquals(List.of(row(103L), row(113L), row(123L), row(133L), row(143L)), rows(s, sql, 100L, "c3"));
            assertTrue(store.pairsRead.get() <= 45, "rows 100..143 and no further: read " + store.pairsRead);
            store.reset();
            assertEquals(List.of(row(133L), row(143L)),
                    rows(s, "SELECT id FROM colors WHERE color = 'c3' AND id >= 100 ORDER BY id LIMIT 2 OFFSET 3"));
            assertTrue(store.pairsRead.get() <= 45, "the offset counts kept rows: read " + store.pairsRead);
            assertEquals(List.of(row(996L, "c6"), row(986L, "c6")),
                    rows(s, "SELECT * FROM colors WHERE 'c6' = color ORDER BY id DESC LIMIT 2"));
            // Counting and MIN/MAX must see the value equality, not just the key range.
            assertEquals(List.of(row(100L)), rows(s, "SELECT COUNT(*) FROM colors WHERE color = ?", "c3"));
            assertEquals(List.of(row(503L, 993L)),
                    rows(s, "SELECT MIN(id), MAX(id) FROM colors WHERE color = 'c3' AND id > 500"));
            // NULL equals nothing; a value longer than any stored one matches nothing.
            store.reset();
            assertEquals(List.of(), rows(s, sql, 0L, null));
            assertEquals(0, store.pairsRead.get() + store.scans.get());
            assertEquals(List.of(), rows(s, "SELECT id FROM colors WHERE color = 'c33'"));
            // Several conditions on the value are all checked in the scan.
            assertEquals(List.of(row(7L), row(17L)), rows(s,
                    "SELECT id FROM colors WHERE color = 'c7' AND color LIKE 'c%' ORDER BY id LIMIT 2"));
            assertEquals(100, update(s, "DELETE FROM colors WHERE color = 'c9'"));
            assertEquals(List.of(row(900L)), rows(s, "SELECT COUNT(*) FROM colors"));
        } finally {
            update(s, "DROP TABLE colors");
        }
    }

    @Test
    void aDoubleValueEqualityIsNotDecidedByStoredBytes() throws SqlError {
        // 0.0 and -0.0 are equal in SQL but stored apart: the comparison stays a filter on decoded values.
        update(s, "CREATE TABLE readings (id BIGINT PRIMARY KEY, x DOUBLE)");
        try {
            for (long i = 0; i < 4; i++) {
                update(s, "INSERT INTO readings VALUES (?, ?)", i, i % 2 == 0 ? -0.0d : 0.0d);
            }
            String plan = ((KegSession) s).database().plan("SELECT id FROM readings WHERE x = ?", "PUBLIC").explain();
            assertTrue(!plan.contains("values=["), plan);
            assertEquals(4, rows(s, "SELECT id FROM readings WHERE x = ?", 0.0d).size());
        } finally {
            update(s, "DROP TABLE readings");
        }
    }

    @Test
    void countOverAKeyRangeReadsNoValues() throws SqlError {
        assertEquals(List.of(row(10_001L)), rows(s, "SELECT COUNT(*) FROM big WHERE id BETWEEN ? AND ?", 100L, 10_100L));
        assertEquals(1, store.keyCounts.get());
        assertEquals(0, store.pairsRead.get());
        store.reset();
        assertEquals(List.of(row(3L, 3L)), rows(s, "SELECT COUNT(*), COUNT(id) FROM big WHERE id IN (1, 5, 7, -1)"));
        assertEquals(4, store.gets.get(), "one presence check per key");
        assertEquals(0, store.pairsRead.get());
        store.reset();
        assertEquals(List.of(row((long) ROWS)), rows(s, "SELECT COUNT(*) FROM big"));
        assertEquals(0, store.pairsRead.get());
        // Inside a transaction the count sees its own uncommitted writes.
        s.setAutoCommit(false);
        try {
            update(s, "DELETE FROM big WHERE id = 5");
            update(s, "INSERT INTO big VALUES (-5, 'minus five'), (-4, 'minus four')");
            assertEquals(List.of(row(7L)), rows(s, "SELECT COUNT(*) FROM big WHERE id BETWEEN -5 AND 5"));
        } finally {
            s.rollback();
            s.setAutoCommit(true);
        }
        assertEquals(List.of(row(6L)), rows(s, "SELECT COUNT(*) FROM big WHERE id BETWEEN -5 AND 5"));
    }

    @Test
    void minAndMaxOfTheKeyReadOneKey() throws SqlError {
        assertEquals(List.of(row(49_999L)), rows(s, "SELECT MAX(id) FROM big WHERE id < ?", 50_000L));
        assertEquals(1, store.keysRead.get());
        store.reset();
        assertEquals(List.of(row(50_001L)), rows(s, "SELECT MIN(id) FROM big WHERE id > 50000"));
        assertEquals(1, store.keysRead.get());
        store.reset();
        assertEquals(List.of(row((Object) null)), rows(s, "SELECT MIN(id) FROM big WHERE id > 500000"));
        assertEquals(List.of(row(0L, 99_999L)), rows(s, "SELECT MIN(id), MAX(id) FROM big"));
    }

    @Test
    void keyOnlyProjectionIsPlannedWithoutValues() throws SqlError {
        KegSession ks = (KegSession) s;
        Plan plan = ks.database().plan("SELECT COUNT(id) FROM big WHERE id < 10 GROUP BY id", "PUBLIC");
        assertTrue(plan.explain().contains("keysOnly"), plan.explain());
        plan = ks.database().plan("SELECT COUNT(*) FROM big WHERE id < 10", "PUBLIC");
        assertTrue(plan.explain().contains("KvCount") && !plan.explain().contains("KvScan"), plan.explain());
        plan = ks.database().plan("SELECT id FROM big WHERE id > 5 ORDER BY id DESC LIMIT 3", "PUBLIC");
        assertTrue(plan.explain().contains("keysOnly") && plan.explain().contains("desc") && plan.explain().contains("fetch"),
                plan.explain());
        assertTrue(!plan.explain().contains("Sort"), plan.explain());
        plan = ks.database().plan("SELECT name FROM big WHERE id < 10", "PUBLIC");
        assertTrue(!plan.explain().contains("keysOnly"), plan.explain());
    }

    @Test
    void dmlByKeyTouchesOnlyThatKey() throws SqlError {
        update(s, "CREATE TABLE scratch (id BIGINT PRIMARY KEY, name VARCHAR)");
        store.reset();
        assertEquals(1, update(s, "INSERT INTO scratch VALUES (1, 'a')"));
        assertEquals(1, store.touches(), "one putIfAbsent batch");
        store.reset();
        assertEquals(1, update(s, "UPDATE scratch SET name = UPPER(name) WHERE id = 1"));
        assertEquals(2, store.touches(), "one get, one batch");
        store.reset();
        assertEquals(1, update(s, "DELETE FROM scratch WHERE id = 1"));
        assertEquals(1, store.touches(), "one delete");
        store.reset();
        assertEquals(0, update(s, "DELETE FROM scratch WHERE id IN (1, 2) AND name = 'x'"));
        assertEquals(1, store.multiGets.get(), "one multi-get of both keys, nothing written");
        assertEquals(2, store.multiGetKeys.get());
        assertEquals(3, store.touches());
    }

    @Test
    void fullScanStillWorksForOtherConditions() throws SqlError {
        assertEquals(List.of(row(12_345L)), rows(s, "SELECT id FROM big WHERE name = 'name12345'"));
        assertEquals(ROWS, store.pairsRead.get());
        List<List<Object>> words = new ArrayList<>(rows(s, "SELECT w FROM words WHERE n = 6 ORDER BY w DESC"));
        assertEquals(List.of(row("cherry"), row("banana")), words);
    }

    @Test
    void longInListsStayMultiGets() throws SqlError {
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            in.append(i == 0 ? "" : ", ").append(i * 1000);
        }
        assertEquals(40, rows(s, "SELECT id FROM big WHERE id IN (" + in + ")").size());
        assertEquals(40, store.gets.get());
        assertEquals(0, store.scans.get());
        store.reset();
        List<List<Object>> found = rows(s, "SELECT id, name FROM big WHERE id IN (" + in + ") ORDER BY id");
        assertEquals(40, found.size());
        assertEquals(row(39_000L, "name39000"), found.get(39));
        assertEquals(1, store.multiGets.get(), "40 keys with their values: one multi-get");
        assertEquals(40, store.multiGetKeys.get());
        assertEquals(0, store.gets.get() + store.scans.get());
    }

    @Test
    void explainShowsTheAccessPath() throws SqlError {
        String plan = (String) rows(s, "EXPLAIN PLAN FOR SELECT name FROM big WHERE id BETWEEN 5 AND 9").get(0).get(0);
        // The literals are parameters of a plan every BETWEEN on id shares; EXPLAIN shows their values.
        assertTrue(plan.contains("KvScan") && plan.contains("[?0..?1]") && plan.contains("?0=5 ?1=9"), plan);
        plan = (String) rows(s, "explain plan for SELECT * FROM big WHERE id = ?").get(0).get(0);
        assertTrue(plan.startsWith("KeyValuePlan(SELECT"), plan);
    }

    private static String plan(String sql) throws SqlError {
        return ((KegSession) s).database().plan(sql, "PUBLIC").explain();
    }

    @Test
    void aKeyOrderedLimitUnderAResidualFilterHasNoSortAndStopsReading() throws SqlError {
        // MOD(id, ...) is no key range and no value test: it stays a filter above the ordered scan.
        String sql = "SELECT id, name FROM big WHERE MOD(id, 1000) = 7 ORDER BY id LIMIT 5";
        String plan = plan(sql);
        assertTrue(!plan.contains("Sort") && plan.contains("Limit") && plan.contains("KvScan"), plan);
        assertEquals(List.of(row(7L, "name7"), row(1007L, "name1007"), row(2007L, "name2007"), row(3007L, "name3007"),
                row(4007L, "name4007")), rows(s, sql));
        // Calcite's limit pulls one row more than it returns before it stops: the scan reads to the sixth match.
        assertTrue(store.pairsRead.get() <= 5008, "rows 0..5007 and no further: read " + store.pairsRead);
        store.reset();
        String desc = "SELECT id FROM big WHERE MOD(id, 1000) = 7 AND id < ? ORDER BY id DESC LIMIT 2 OFFSET 1";
        plan = plan(desc);
        assertTrue(!plan.contains("Sort") && plan.contains("desc"), plan);
        assertEquals(List.of(row(88_007L), row(87_007L)), rows(s, desc, 90_000L));
        assertTrue(store.keysRead.get() + store.pairsRead.get() <= 90_000 - 86_007,
                "keys 89999 down to 86007: read " + store.keysRead + " keys, " + store.pairsRead + " pairs");
        store.reset();
        // Through a projection, and with a value test in the scan beside the residual filter.
        String projected = "SELECT UPPER(name) FROM big WHERE MOD(id, 100) = 3 AND name LIKE 'name1%' ORDER BY id "
                + "DESC LIMIT 3";
        plan = plan(projected);
        assertTrue(!plan.contains("Sort"), plan);
        assertEquals(List.of(row("NAME19903"), row("NAME19803"), row("NAME19703")), rows(s, projected));
        assertTrue(store.pairsRead.get() <= 100_000 - 19_603, "read " + store.pairsRead);
    }

    @Test
    void aTopNByValueReadsEachRowOnceWithNoSort() throws SqlError {
        List<String> names = new ArrayList<>();
        for (long i = 0; i < ROWS; i++) {
            names.add("name" + i);
        }
        names.sort(java.util.Comparator.reverseOrder());
        String sql = "SELECT id, name FROM big ORDER BY name DESC, id LIMIT 4 OFFSET 1";
        String plan = plan(sql);
        assertTrue(!plan.contains("Sort") && plan.contains("topN"), plan);
        List<List<Object>> expected = new ArrayList<>();
        for (String n : names.subList(1, 5)) {
            expected.add(row(Long.parseLong(n.substring(4)), n));
        }
        assertEquals(expected, rows(s, sql));
        assertEquals(ROWS, store.pairsRead.get(), "each row read once");
        assertEquals(1, store.scans.get());
        store.reset();
        // With value tests inside the scan, and a projection of the key alone.
        List<String> kept = names.stream().filter(n -> n.compareTo("name5") >= 0 && n.compareTo("name6") < 0)
                .sorted().toList();
        List<List<Object>> ids = kept.subList(0, 3).stream().map(n -> row(Long.parseLong(n.substring(4)))).toList();
        String ranged = "SELECT id FROM big WHERE name >= ? AND name < ? ORDER BY name LIMIT 3";
        assertTrue(plan(ranged).contains("topN") && !plan(ranged).contains("Sort"), plan(ranged));
        assertEquals(ids, rows(s, ranged, "name5", "name6"));
        assertEquals(ROWS, store.pairsRead.get());
    }

    @Test
    void aCountWithValueTestsIsAnsweredByTheScanSource() throws SqlError {
        String sql = "SELECT COUNT(*) FROM big WHERE name > ? AND name <= 'name95' AND name IS NOT NULL";
        String plan = plan(sql);
        assertTrue(plan.contains("KvCount") && plan.contains("values=[") && !plan.contains("Aggregate"), plan);
        long expected = 0;
        for (long i = 0; i < ROWS; i++) {
            String n = "name" + i;
            expected += n.compareTo("name9") > 0 && n.compareTo("name95") <= 0 ? 1 : 0;
        }
        assertEquals(List.of(row(expected)), rows(s, sql, "name9"));
        assertEquals(ROWS, store.pairsRead.get());
        assertEquals(1, store.scans.get());
    }
}
