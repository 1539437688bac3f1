package io.kegdb.sql;

import io.kegdb.engine.Bitcask;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import io.kegdb.sql.plan.Plan;

import java.nio.file.Path;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Joins on a key run as lookups of the keyed table, driven by the side the store's row counts say is smaller:
 * shown by EXPLAIN and by the store calls a statement makes.
 */
class LookupJoinTest {

    private static final int ROWS = 20_000;
    @TempDir
    static Path dir;
    private static Bitcask bitcask;
    private static CountingStore store;
    private static SqlDatabase db;
    private static SqlSession s;

    @BeforeAll
    static void fill() throws Exception {
        bitcask = Bitcask.open(dir);
        store = new CountingStore(bitcask);
        db = SqlDatabase.open(store);
        s = db.newSession();
        update(s, "DROP TABLE IF EXISTS kv"); // a new store has one
        update(s, "CREATE TABLE kv (k BIGINT PRIMARY KEY, v VARCHAR)");
        update(s, "CREATE TABLE other (k BIGINT PRIMARY KEY, v VARCHAR)");
        s.setAutoCommit(false);
        try (SqlStatement kv = s.prepare("INSERT INTO kv VALUES (?, ?)");
             SqlStatement other = s.prepare("INSERT INTO other VALUES (?, ?)")) {
            for (long i = 0; i < ROWS; i++) {
                kv.execute(List.of(i, "v" + i % 100), 0).close();
                if (i % 10 == 0) {
                    other.execute(List.of(i, "o" + i), 0).close();
                }
            }
        }
        s.commit();
        s.setAutoCommit(true);
    }

    @AfterAll
    static void close() {
        s.close();
        db.close();
        bitcask.close();
    }

    @BeforeEach
    void reset() {
        store.reset();
    }

    private static String explain(String sql) throws SqlError {
        return (String) rows(s, "EXPLAIN PLAN FOR " + sql).get(0).get(0);
    }

    @Test
    void aRangeJoinLooksUpTheLargerTableFromTheSmallerOne() throws SqlError {
        String sql = "SELECT kv.k, kv.v, other.v FROM kv JOIN other ON kv.k = other.k WHERE kv.k BETWEEN ? AND ?";
        String plan = explain(sql.replace("?", "0"));
        assertTrue(plan.contains("KvLookupJoin(table=[[PUBLIC, KV]]") && plan.contains("KvScan(table=[[PUBLIC, OTHER]]")
                && !plan.contains("Join(condition"), plan);
        store.reset();
        List<List<Object>> rows = rows(s, sql, 100L, 199L);
        assertEquals(10, rows.size());
        assertEquals(row(150L, "v50", "o150"), rows.get(5));
        assertEquals(1, store.scans.get(), "one scan of other's range");
        assertEquals(10, store.pairsRead.get());
        assertEquals(1, store.multiGets.get(), "one multi-get of kv for the rows of other");
        assertEquals(10, store.multiGetKeys.get());
        assertEquals(0, store.gets.get());
        // The order of the tables in the text does not matter: their sizes do.
        plan = explain("SELECT other.v, kv.v FROM other JOIN kv ON other.k = kv.k WHERE other.k BETWEEN 0 AND 9");
        assertTrue(plan.contains("KvLookupJoin(table=[[PUBLIC, KV]]"), plan);
    }

    @Test
    void aPointJoinIsOneGetPerTable() throws SqlError {
        assertEquals(List.of(row("v30", "o130")),
                rows(s, "SELECT kv.v, other.v FROM kv JOIN other ON kv.k = other.k WHERE kv.k = ?", 130L));
        assertEquals(2, store.gets.get());
        assertEquals(0, store.scans.get());
        store.reset();
        assertEquals(List.of(), rows(s, "SELECT kv.v, other.v FROM kv JOIN other ON kv.k = other.k WHERE kv.k = ?", 131L));
        assertTrue(store.gets.get() <= 2 && store.scans.get() == 0, store.gets + " gets");
    }

    @Test
    void aLeftJoinKeepsTheRowsWithoutAMatchAndHonoursTheLookedUpTablesKeyCondition() throws SqlError {
        String sql = "SELECT kv.k, other.v FROM kv LEFT JOIN other ON kv.k = other.k AND other.k < 150"
                + " WHERE kv.k BETWEEN 100 AND 199";
        String plan = explain(sql);
        assertTrue(plan.contains("KvLookupJoin(table=[[PUBLIC, OTHER]]") && plan.contains("keepOuter"), plan);
        store.reset();
        List<List<Object>> rows = rows(s, sql + " ORDER BY kv.k");
        assertEquals(100, rows.size());
        assertEquals(row(100L, "o100"), rows.get(0));
        assertEquals(row(101L, null), rows.get(1));
        assertEquals(row(140L, "o140"), rows.get(40));
        assertEquals(row(150L, null), rows.get(50), "outside other's own key condition: no match");
        assertEquals(1, store.multiGets.get());
        assertEquals(50, store.multiGetKeys.get(), "only the keys below 150 are looked up");
        assertEquals(0, store.gets.get());
    }

    @Test
    void aFilterOnTheLookedUpTableAndOtherConditionsApplyAfterTheLookup() throws SqlError {
        String sql = "SELECT kv.k, other.v FROM kv JOIN other ON kv.k = other.k WHERE other.v = 'o100'";
        String plan = explain(sql);
        assertTrue(plan.contains("KvLookupJoin(table=[[PUBLIC, KV]]"), "the filtered small side drives: " + plan);
        store.reset();
        assertEquals(List.of(row(100L, "o100")), rows(s, sql));
        assertEquals(1, store.gets.get());
        assertEquals(ROWS / 10, store.pairsRead.get(), "other is scanned, kv is not");
        assertEquals(List.of(row(120L, "v20", "o120")), rows(s, "SELECT kv.k, kv.v, other.v FROM kv JOIN other"
                + " ON kv.k = other.k AND kv.v > other.v WHERE kv.k BETWEEN 115 AND 125"));
        assertEquals(List.of(row(10L, "v10")), rows(s, "SELECT a.k, b.v FROM kv a JOIN kv b ON a.k = b.k"
                + " WHERE a.v = 'v10' AND a.k < 100"));
    }

    @Test
    void aValueEqualityOnTheLookedUpTableIsCheckedOnEachFoundRow() throws SqlError {
        // other drives (its 10 keys in the range), kv is looked up and must also hold v = 'v50'.
        String sql = "SELECT kv.k, other.v FROM kv JOIN other ON kv.k = other.k AND kv.v = ? WHERE kv.k BETWEEN 100 AND 199";
        String plan = explain(sql.replace("?", "'v50'"));
        assertTrue(plan.contains("KvLookupJoin(table=[[PUBLIC, KV]]") && plan.contains("values=["), plan);
        store.reset();
        assertEquals(List.of(row(150L, "o150")), rows(s, sql, "v50"));
        assertEquals(1, store.multiGets.get());
        assertEquals(10, store.multiGetKeys.get());
        assertEquals(List.of(), rows(s, sql, "v51"), "other's keys all end in 0");
        assertEquals(List.of(), rows(s, sql, (Object) null));
        // In a LEFT join the condition belongs to the ON clause: a found row that fails it is no match.
        String left = "SELECT other.k, kv.v FROM other LEFT JOIN kv ON kv.k = other.k AND kv.v = 'v50'"
                + " WHERE other.k BETWEEN 100 AND 199 ORDER BY other.k";
        List<List<Object>> rows = rows(s, left);
        assertEquals(10, rows.size());
        assertEquals(row(100L, null), rows.get(0));
        assertEquals(row(150L, "v50"), rows.get(5));
    }

    @Test
    void aLookupOnAValueColumnFindsTheKeyedRow() throws SqlError {
        update(s, "CREATE TABLE refs (id BIGINT PRIMARY KEY, target BIGINT)");
        update(s, "INSERT INTO refs VALUES (1, 30), (2, 31), (3, NULL), (4, 40)");
        try {
            String sql = "SELECT refs.id, other.v FROM refs LEFT JOIN other ON refs.target = other.k";
            String plan = explain(sql);
            assertTrue(plan.contains("KvLookupJoin(table=[[PUBLIC, OTHER]]"), plan);
            store.reset();
            assertEquals(List.of(row(1L, "o30"), row(2L, null), row(3L, null), row(4L, "o40")),
                    rows(s, sql + " ORDER BY refs.id"));
            assertEquals(1, store.multiGets.get());
            assertEquals(3, store.multiGetKeys.get(), "no lookup for a NULL");
        } finally {
            update(s, "DROP TABLE refs");
        }
    }

    @Test
    void anUpsertWithAnExpressionLooksUpItsRowsKeys() throws SqlError {
        String sql = "INSERT INTO kv VALUES (?, 'new'), (?, 'new') ON CONFLICT (k) DO UPDATE SET v = kv.v || '+'";
        String plan = explain(sql.replace("?", "7"));
        assertTrue(plan.contains("KvLookupJoin(table=[[PUBLIC, KV]]") && plan.contains("keepOuter"), plan);
        store.reset();
        assertEquals(2, update(s, sql, 7L, -7L));
        assertEquals(1, store.multiGets.get(), "one multi-get for the new rows");
        assertEquals(2, store.multiGetKeys.get());
        assertEquals(0, store.scans.get(), "kv is not scanned");
        assertEquals(List.of(row("v7+"), row("new")), rows(s, "SELECT v FROM kv WHERE k IN (7, -7) ORDER BY k DESC"));
        update(s, "DELETE FROM kv WHERE k = -7");
        update(s, "UPDATE kv SET v = 'v7' WHERE k = 7");
    }

    @Test
    void aPlanIsMadeAgainOnceATablesSizeChangesByAnOrderOfMagnitude() throws Exception {
        update(s, "CREATE TABLE few (k BIGINT PRIMARY KEY, v VARCHAR)");
        update(s, "INSERT INTO few VALUES (100, 'a'), (200, 'b')");
        try {
            KegDatabase kdb = (KegDatabase) db;
            String sql = "SELECT few.v, kv.v FROM few JOIN kv ON few.k = kv.k";
            Plan first = kdb.plan(sql, "PUBLIC");
            assertTrue(first.explain().contains("KvLookupJoin(table=[[PUBLIC, KV]]"), first.explain());
            assertSame(first, kdb.plan(sql, "PUBLIC"));
            s.setAutoCommit(false);
            try (SqlStatement ins = s.prepare("INSERT INTO few VALUES (?, 'x')")) {
                for (long k = ROWS; k < 3L * ROWS; k++) {
                    ins.execute(List.of(k), 0).close();
                }
            }
            s.commit();
            s.setAutoCommit(true);
            Thread.sleep(1_100); // sizes are counted again at most once a second
            Plan again = kdb.plan(sql, "PUBLIC");
            assertNotSame(first, again);
            assertTrue(again.explain().contains("KvLookupJoin(table=[[PUBLIC, FEW]]"), "now kv is the smaller: "
                    + again.explain());
            assertEquals(List.of(row("a", "v0"), row("b", "v0")), rows(s, sql + " ORDER BY few.k"));
        } finally {
            s.setAutoCommit(true);
            update(s, "DROP TABLE few");
        }
    }

    /** The outer rows are looked up a batch at a time: 100 of them cost one multi-get, in the outer's order. */
    @Test
    void aLookupJoinOverAHundredOuterRowsIsOneMultiGet() throws SqlError {
        String sql = "SELECT kv.k, other.v FROM kv LEFT JOIN other ON kv.k = other.k WHERE kv.k BETWEEN 100 AND 199";
        assertTrue(explain(sql).contains("KvLookupJoin(table=[[PUBLIC, OTHER]]"), explain(sql));
        store.reset();
        List<List<Object>> rows = rows(s, sql);
        assertEquals(100, rows.size());
        for (int i = 0; i < 100; i++) {
            long k = 100 + i;
            assertEquals(row(k, k % 10 == 0 ? "o" + k : null), rows.get(i), "in the outer's key order");
        }
        assertEquals(1, store.multiGets.get());
        assertEquals(100, store.multiGetKeys.get());
        assertEquals(0, store.gets.get());
    }

    /** More outer rows than a batch: one multi-get per batch, every row joined, still in the outer's order. */
    @Test
    void outerRowsBeyondOneBatchTakeOneMultiGetEach() throws SqlError {
        String sql = "SELECT kv.k, other.v FROM kv LEFT JOIN other ON kv.k = other.k WHERE kv.k BETWEEN 1000 AND 1599";
        List<List<Object>> rows = rows(s, sql);
        assertEquals(600, rows.size());
        for (int i = 0; i < 600; i++) {
            long k = 1000 + i;
            assertEquals(row(k, k % 10 == 0 ? "o" + k : null), rows.get(i));
        }
        assertEquals(3, store.multiGets.get(), "batches of 256 outer rows");
        assertEquals(600, store.multiGetKeys.get());
    }

    /**
     * Inside a transaction the lookups read through its overlay: its own uncommitted writes (an update, an
     * insert, a delete) are what the join finds, still with one multi-get for the keys it did not write.
     */
    @Test
    void aLookupJoinInATransactionSeesItsOwnUncommittedWrites() throws SqlError {
        String sql = "SELECT kv.k, other.v FROM kv LEFT JOIN other ON kv.k = other.k WHERE kv.k BETWEEN 100 AND 199";
        try (SqlSession t = db.newSession()) {
            t.setAutoCommit(false);
            update(t, "UPDATE other SET v = 'mine' WHERE k = 150");
            update(t, "INSERT INTO other VALUES (151, 'new')");
            update(t, "DELETE FROM other WHERE k = 160");
            assertTrue(explain(sql).contains("KvLookupJoin(table=[[PUBLIC, OTHER]]"), explain(sql));
            store.reset();
            List<List<Object>> rows = rows(t, sql);
            assertEquals(100, rows.size());
            assertEquals(row(140L, "o140"), rows.get(40));
            assertEquals(row(150L, "mine"), rows.get(50));
            assertEquals(row(151L, "new"), rows.get(51));
            assertEquals(row(160L, null), rows.get(60));
            assertEquals(row(170L, "o170"), rows.get(70));
            assertEquals(1, store.multiGets.get(), "one multi-get of the keys the transaction did not write");
            assertEquals(97, store.multiGetKeys.get());
            assertEquals(0, store.gets.get());
            t.rollback();
        }
        assertEquals(List.of(row(150L, "o150"), row(160L, "o160")),
                rows(s, "SELECT k, v FROM other WHERE k IN (150, 151, 160) ORDER BY k"), "nothing committed");
    }

    /**
     * A SERIALIZABLE transaction records every key its lookups read, found or not: a concurrent commit that
     * changes a looked-up row, or inserts a key the join looked up and did not find, fails its commit with 40001
     * and nothing of it is written; with no such change it commits.
     */
    @Test
    void aSerializableTransactionFailsWhenARowItsLookupJoinReadChanged() throws SqlError {
        String sql = "SELECT kv.k, other.v FROM kv LEFT JOIN other ON kv.k = other.k WHERE kv.k BETWEEN 300 AND 399";
        assertTrue(explain(sql).contains("KvLookupJoin(table=[[PUBLIC, OTHER]]"), explain(sql));
        String[][] changes = {
            {"UPDATE other SET v = 'changed' WHERE k = 370", "UPDATE other SET v = 'o370' WHERE k = 370"},
            {"INSERT INTO other VALUES (371, 'appeared')", "DELETE FROM other WHERE k = 371"},
            {null, "DELETE FROM kv WHERE k = -1"},
        };
        for (String[] change : changes) {
            try (SqlSession t = db.newSession()) {
                t.setIsolation(Isolation.SERIALIZABLE);
                t.setAutoCommit(false);
                assertEquals(100, rows(t, sql).size());
                update(t, "INSERT INTO kv VALUES (-1, 'written')");
                if (change[0] != null) {
                    update(s, change[0]);
                    SqlError e = assertThrows(SqlError.class, t::commit);
                    assertEquals("40001", e.sqlState(), e.getMessage());
                    assertEquals(List.of(), rows(s, "SELECT v FROM kv WHERE k = -1"), "nothing written");
                } else {
                    t.commit();
                    assertEquals(List.of(row("written")), rows(s, "SELECT v FROM kv WHERE k = -1"));
                }
            } finally {
                update(s, change[1]);
            }
        }
    }
}
