package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/**
 * Two databases over one store stand for two processes of a Raft group: with a shared catalog each sees the
 * other's DDL at its next statement, and concurrent DDL never hands out one table id twice.
 */
class SharedCatalogTest {

    private static final DatabaseOptions SHARED = new DatabaseOptions(true, List.of());

    @Test
    void tablesCreatedAndDroppedElsewhereAreSeenAtTheNextStatement() throws SqlError {
        try (KvStore store = KvStore.inMemory();
             SqlDatabase a = SqlDatabase.open(store, SHARED); SqlDatabase b = SqlDatabase.open(store, SHARED);
             SqlSession sa = a.newSession(); SqlSession sb = b.newSession()) {
            fails("42S02", sb, "SELECT * FROM pets");
            update(sa, "CREATE TABLE pets (name VARCHAR PRIMARY KEY, legs BIGINT)");
            update(sa, "INSERT INTO pets VALUES ('cat', 4)");
            assertEquals(List.of(row("cat", 4L)), rows(sb, "SELECT * FROM pets"));
            assertEquals(List.of(row(4L)), rows(sb, "SELECT legs FROM pets WHERE name = 'cat'"));
            update(sb, "INSERT INTO pets VALUES ('bird', 2)");
            assertEquals(List.of(row(new BigDecimal(6))), rows(sa, "SELECT SUM(legs) FROM pets"));
            assertEquals(List.of("PETS"), b.tables().stream().filter(t -> t.schema().equals("PUBLIC")
                    && !t.name().equals("KV")).map(TableInfo::name).toList(), "metadata sees it too");

            update(sb, "DROP TABLE pets");
            fails("42S02", sa, "SELECT * FROM pets");
            fails("42S02", sa, "INSERT INTO pets VALUES ('dog', 4)");
            update(sa, "CREATE TABLE pets (name VARCHAR PRIMARY KEY, legs BIGINT)");
            assertEquals(List.of(), rows(sb, "SELECT * FROM pets"), "the old rows do not come back");
        }
    }

    @Test
    void ddlPreparedOnAStaleCatalogStartsOverFromTheCurrentOne() throws SqlError {
        try (KvStore store = KvStore.inMemory();
             SqlDatabase a = SqlDatabase.open(store, SHARED); SqlDatabase b = SqlDatabase.open(store, SHARED);
             SqlSession sa = a.newSession(); SqlSession sb = b.newSession()) {
            // b prepares while its catalog is current, then a's DDL moves the catalog on before b executes
            try (SqlStatement create = sb.prepare("CREATE TABLE t_two (k VARCHAR PRIMARY KEY, v VARCHAR)");
                 SqlStatement duplicate = sb.prepare("CREATE TABLE t_one (k VARCHAR PRIMARY KEY, v VARCHAR)")) {
                update(sa, "CREATE TABLE t_one (k VARCHAR PRIMARY KEY, v VARCHAR)");
                create.execute(List.of(), 0).close();
                SqlError e = org.junit.jupiter.api.Assertions.assertThrows(SqlError.class,
                        () -> duplicate.execute(List.of(), 0));
                assertEquals("42S01", e.sqlState());
            }
            List<List<Object>> ids = rows(sa, "SELECT table_name, table_id FROM sys.tables WHERE table_name <> 'KV'"
                    + " ORDER BY table_name");
            assertEquals(2, ids.size());
            assertNotEquals(ids.get(0).get(1), ids.get(1).get(1), "distinct ids: " + ids);
            update(sa, "INSERT INTO t_one VALUES ('k', 'in one')");
            update(sb, "INSERT INTO t_two VALUES ('k', 'in two')");
            assertEquals(List.of(row("in one")), rows(sb, "SELECT v FROM t_one"));
            assertEquals(List.of(row("in two")), rows(sa, "SELECT v FROM t_two"));
        }
    }

    @Test
    void aStatementPreparedBeforeAnotherProcessesDdlIsPlannedAgainNotRunOnTheDroppedTable() throws SqlError {
        try (KvStore store = KvStore.inMemory();
             SqlDatabase a = SqlDatabase.open(store, SHARED); SqlDatabase b = SqlDatabase.open(store, SHARED);
             SqlSession sa = a.newSession(); SqlSession sb = b.newSession()) {
            update(sa, "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR)");
            update(sa, "INSERT INTO t VALUES (1, 'old')");
            try (SqlStatement insert = sa.prepare("INSERT INTO t VALUES (?, ?)");
                 SqlStatement upsert = sa.prepare("UPSERT INTO t VALUES (?, ?)");
                 SqlStatement update = sa.prepare("UPDATE t SET v = ? WHERE k = ?");
                 SqlStatement select = sa.prepare("SELECT v FROM t WHERE k = ?")) {
                update(sb, "DROP TABLE t");
                update(sb, "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR)");
                update(sb, "INSERT INTO t VALUES (1, 'new')");
                // Writes: refused at apply under the old catalog, then planned again on the new one.
                insert.execute(List.of(2L, "two"), 0).close();
                upsert.execute(List.of(3L, "three"), 0).close();
                try (SqlResult r = update.execute(List.of("uno", 1L), 0)) {
                    assertEquals(1, r.updateCount());
                }
                try (SqlResult r = select.execute(List.of(1L), 0)) {
                    assertEquals(List.of(row("uno")), SqlTestSupport.drain(r));
                }
            }
            assertEquals(List.of(row(1L, "uno"), row(2L, "two"), row(3L, "three")), rows(sb, "SELECT * FROM t"));
        }
    }

    @Test
    void aTransactionThatMeetsAnotherProcessesDdlOfItsTableFailsWith40001AndWritesNothing() throws SqlError {
        try (KvStore store = KvStore.inMemory();
             SqlDatabase a = SqlDatabase.open(store, SHARED); SqlDatabase b = SqlDatabase.open(store, SHARED);
             SqlSession sa = a.newSession(); SqlSession sb = b.newSession()) {
            update(sa, "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR)");
            update(sa, "CREATE TABLE u (k BIGINT PRIMARY KEY, v VARCHAR)");
            sa.setAutoCommit(false);
            update(sa, "INSERT INTO t VALUES (1, 'mine')");
            update(sb, "DROP TABLE u"); // another table: the commit goes through under the new version
            sa.commit();
            assertEquals(List.of(row(1L, "mine")), rows(sb, "SELECT * FROM t"));

            update(sa, "INSERT INTO t VALUES (2, 'into the old t')");
            update(sb, "DROP TABLE t");
            update(sb, "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR)");
            SqlError commit = org.junit.jupiter.api.Assertions.assertThrows(SqlError.class, sa::commit);
            assertEquals("40001", commit.sqlState());
            assertEquals(List.of(), rows(sb, "SELECT * FROM t"), "nothing written");

            // A transaction's first statement simply runs again on the new catalog; a later one fails.
            update(sb, "CREATE TABLE w (k BIGINT PRIMARY KEY, v VARCHAR)");
            update(sa, "INSERT INTO t VALUES (3, 'first')");
            update(sb, "DROP TABLE w");
            fails("40001", sa, "SELECT * FROM t");
            sa.rollback();
            update(sa, "INSERT INTO t VALUES (4, 'again')");
            assertEquals(List.of(row(4L, "again")), rows(sa, "SELECT * FROM t"));
            sa.commit();
            assertEquals(List.of(row(4L, "again")), rows(sb, "SELECT * FROM t"));
        }
    }

    @Test
    void ownDdlInsideATransactionKeepsTheTransactionGoing() throws SqlError {
        try (KvStore store = KvStore.inMemory(); SqlDatabase a = SqlDatabase.open(store, SHARED);
             SqlSession sa = a.newSession()) {
            update(sa, "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR)");
            sa.setAutoCommit(false);
            update(sa, "INSERT INTO t VALUES (1, 'one')");
            update(sa, "CREATE TABLE t2 (k BIGINT PRIMARY KEY, v VARCHAR)");
            update(sa, "INSERT INTO t2 VALUES (1, 'in the new table')");
            sa.commit();
            assertEquals(List.of(row(1L, "in the new table")), rows(sa, "SELECT * FROM t2"));
        }
    }

    @Test
    void aCatalogNotSharedNeverReadsTheStoreToCheckIt() throws SqlError {
        try (KvStore memory = KvStore.inMemory()) {
            CountingStore store = new CountingStore(memory);
            try (SqlDatabase db = SqlDatabase.open(store); SqlSession s = db.newSession()) {
                update(s, "INSERT INTO kv VALUES ('a', 'b')");
                store.reset();
                assertEquals(List.of(row("b")), rows(s, "SELECT v FROM kv WHERE k = 'a'"));
                assertEquals(1, store.gets.get(), "the row only");
            }
            try (SqlDatabase db = SqlDatabase.open(store, SHARED); SqlSession s = db.newSession()) {
                store.reset();
                assertEquals(List.of(row("b")), rows(s, "SELECT v FROM kv WHERE k = 'a'"));
                assertEquals(2, store.gets.get(), "the catalog version, then the row");
            }
        }
    }

    /**
     * A store cut into ranges deletes a dropped table's keys in every range by the record the DROP leaves:
     * {@code 0000 'D' version} holding the span (each bound a 4-byte length and the bytes; the ranges read it
     * in that format, docs/SCALE.md). A catalog not shared (one process, one range) leaves none.
     */
    @Test
    void aDropOnASharedCatalogRecordsTheSpanItDeletes() throws SqlError {
        try (KvStore store = KvStore.inMemory(); SqlDatabase db = SqlDatabase.open(store, SHARED);
             SqlSession s = db.newSession()) {
            update(s, "CREATE TABLE gone (k BIGINT PRIMARY KEY, v VARCHAR)");
            int id = ((Number) rows(s, "SELECT table_id FROM sys.tables WHERE table_name = 'GONE'").get(0).get(0))
                    .intValue();
            update(s, "DROP TABLE gone");
            long version = java.nio.ByteBuffer.wrap(store.get(new byte[]{0, 0, 0, 0, 'M'})).getLong();
            byte[] key = java.nio.ByteBuffer.allocate(13).putInt(0).put((byte) 'D').putLong(version).array();
            byte[] expected = java.nio.ByteBuffer.allocate(16).putInt(4).putInt(id).putInt(4).putInt(id + 1).array();
            org.junit.jupiter.api.Assertions.assertArrayEquals(expected, store.get(key));
        }
        try (KvStore store = KvStore.inMemory(); SqlDatabase db = SqlDatabase.open(store);
             SqlSession s = db.newSession()) {
            update(s, "CREATE TABLE gone (k BIGINT PRIMARY KEY, v VARCHAR)");
            update(s, "DROP TABLE gone");
            try (io.kegdb.engine.KvIterator records = store.scan(new byte[]{0, 0, 0, 0, 'D'}, new byte[]{0, 0, 0, 0, 'E'})) {
                assertEquals(false, records.hasNext(), "no record of one process's DROP");
            }
        }
    }
}
