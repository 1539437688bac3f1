package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TransactionTest {

    private CountingStore store;
    private SqlFixture sql;
    private SqlSession a;
    private SqlSession b;

    @BeforeEach
    void open() throws SqlError {
        store = new CountingStore(KvStore.inMemory());
        sql = SqlFixture.over(store);
        a = sql.session();
        b = sql.session();
        update(a, "CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR)");
        update(a, "INSERT INTO t VALUES (1, 'one'), (2, 'two'), (3, 'three')");
    }

    @AfterEach
    void close() {
        sql.close();
    }

    @Test
    void writesAreVisibleToTheirSessionOnlyUntilCommit() throws SqlError {
        a.setAutoCommit(false);
        store.reset();
        update(a, "INSERT INTO t VALUES (4, 'four')");
        update(a, "UPDATE t SET v = 'TWO' WHERE id = 2");
        update(a, "DELETE FROM t WHERE id = 1");
        update(a, "UPSERT INTO t VALUES (3, 'THREE'), (5, 'five')");
        assertEquals(0, store.writes.get(), "nothing reaches the store before commit");
        assertTrue(a.inTransaction());
        List<List<Object>> mine = List.of(row(2L, "TWO"), row(3L, "THREE"), row(4L, "four"), row(5L, "five"));
        assertEquals(mine, rows(a, "SELECT * FROM t"));
        assertEquals(mine, rows(a, "SELECT * FROM t ORDER BY id"));
        assertEquals(List.of(row(5L), row(4L), row(3L)), rows(a, "SELECT id FROM t ORDER BY id DESC LIMIT 3"));
        assertEquals(List.of(row("four")), rows(a, "SELECT v FROM t WHERE id = 4"));
        assertEquals(List.of(), rows(a, "SELECT v FROM t WHERE id = 1"));
        assertEquals(List.of(row(2L), row(4L)), rows(a, "SELECT id FROM t WHERE id IN (1, 2, 4)"));
        assertEquals(List.of(row(1L, "one"), row(2L, "two"), row(3L, "three")), rows(b, "SELECT * FROM t"),
                "other sessions see committed data only");
        a.commit();
        assertEquals(1, store.writes.get(), "commit is one batch");
        assertFalse(a.inTransaction());
        assertEquals(mine, rows(b, "SELECT * FROM t"));
    }

    @Test
    void preparedSingleRowWritesInATransactionReadBackByKeyAndInKeyOrder() throws SqlError {
        a.setAutoCommit(false);
        try (SqlStatement ins = a.prepare("INSERT INTO t VALUES (?, ?)");
             SqlStatement ups = a.prepare("UPSERT INTO t (id, v) VALUES (?, ?)")) {
            for (long i = 100; i < 300; i++) {
                ins.execute(List.of(i, "v" + i), 0).close();
            }
            SqlError inTransaction = assertThrows(SqlError.class, () -> ins.execute(List.of(150L, "dup"), 0));
            assertEquals("23505", inTransaction.sqlState());
            SqlError inStore = assertThrows(SqlError.class, () -> ins.execute(List.of(2L, "dup"), 0));
            assertEquals("23505", inStore.sqlState());
            assertEquals(List.of(row("v150")), rows(a, "SELECT v FROM t WHERE id = 150"));
            assertEquals(List.of(row(203L)), rows(a, "SELECT COUNT(*) FROM t"));
            // Point writes after the first scan show up in later scans.
            ups.execute(List.of(150L, "changed"), 0).close();
            ups.execute(List.of(400L, "new"), 0).close();
            assertEquals(List.of(row(149L, "v149"), row(150L, "changed"), row(151L, "v151")),
                    rows(a, "SELECT id, v FROM t WHERE id BETWEEN 149 AND 151 ORDER BY id"));
            assertEquals(List.of(row(400L, "new")), rows(a, "SELECT id, v FROM t WHERE id > 299"));
            assertEquals(List.of(row(3L)), rows(b, "SELECT COUNT(*) FROM t"));
        }
        a.commit();
        assertEquals(List.of(row(204L)), rows(b, "SELECT COUNT(*) FROM t"));
        assertEquals(List.of(row("changed")), rows(b, "SELECT v FROM t WHERE id = 150"));
        assertEquals(List.of(row("two")), rows(b, "SELECT v FROM t WHERE id = 2"));
    }

    @Test
    void rollbackDiscards() throws SqlError {
        a.setAutoCommit(false);
        update(a, "DELETE FROM t WHERE id > 0");
        assertEquals(List.of(), rows(a, "SELECT * FROM t"));
        a.rollback();
        assertEquals(3, rows(a, "SELECT * FROM t").size());
        update(a, "INSERT INTO t VALUES (9, 'nine')");
        a.close();
        assertEquals(3, rows(b, "SELECT * FROM t").size(), "close without commit discards");
    }

    @Test
    void deleteThenInsertAndInsertThenDeleteCompose() throws SqlError {
        a.setAutoCommit(false);
        update(a, "DELETE FROM t WHERE id = 1");
        assertEquals(1, update(a, "INSERT INTO t VALUES (1, 'again')"));
        update(a, "INSERT INTO t VALUES (7, 'seven')");
        update(a, "DELETE FROM t WHERE id = 7");
        update(a, "UPDATE t SET v = v || '!' WHERE id >= 1");
        a.commit();
        assertEquals(List.of(row(1L, "again!"), row(2L, "two!"), row(3L, "three!")), rows(b, "SELECT * FROM t"));
    }

    @Test
    void concurrentInsertOfTheSameKeyFailsAtCommit() throws SqlError {
        a.setAutoCommit(false);
        update(a, "INSERT INTO t VALUES (10, 'mine')");
        update(a, "INSERT INTO t VALUES (11, 'also mine')");
        update(b, "INSERT INTO t VALUES (10, 'theirs')");
        SqlError e = org.junit.jupiter.api.Assertions.assertThrows(SqlError.class, a::commit);
        assertEquals("23505", e.sqlState());
        assertFalse(a.inTransaction(), "a failed commit ends the transaction");
        assertEquals(List.of(row("theirs")), rows(b, "SELECT v FROM t WHERE id = 10"));
        assertEquals(List.of(), rows(b, "SELECT v FROM t WHERE id = 11"), "the batch wrote nothing");
    }

    @Test
    void failedMultiRowStatementWritesNothing() throws SqlError {
        store.reset();
        fails("23505", a, "INSERT INTO t VALUES (20, 'x'), (21, 'y'), (2, 'dup')");
        fails("23502", a, "UPSERT INTO t VALUES (22, 'x'), (CAST(NULL AS BIGINT), 'y')");
        fails("22012", a, "UPDATE t SET v = CAST(1 / (id - 3) AS VARCHAR) WHERE id > 0");
        assertEquals(0, store.writes.get());
        assertEquals(List.of(row(1L, "one"), row(2L, "two"), row(3L, "three")), rows(a, "SELECT * FROM t"));
        a.setAutoCommit(false);
        update(a, "INSERT INTO t VALUES (30, 'kept')");
        fails("23505", a, "INSERT INTO t VALUES (31, 'x'), (30, 'dup')");
        a.commit();
        assertEquals(List.of(row(30L)), rows(b, "SELECT id FROM t WHERE id >= 30"),
                "the failed statement's rows are gone, the transaction's earlier rows stay");
    }

    @Test
    void switchingAutocommitOnCommits() throws SqlError {
        a.setAutoCommit(false);
        update(a, "INSERT INTO t VALUES (40, 'x')");
        a.setAutoCommit(true);
        assertEquals(List.of(row("x")), rows(b, "SELECT v FROM t WHERE id = 40"));
    }

    @Test
    void openCursorSurvivesLaterWritesInTheTransaction() throws SqlError {
        a.setAutoCommit(false);
        update(a, "INSERT INTO t VALUES (50, 'x')");
        try (SqlStatement st = a.prepare("SELECT id FROM t"); SqlResult r = st.execute(List.of(), 0)) {
            assertTrue(r.next());
            update(a, "INSERT INTO t VALUES (60, 'y')");
            int n = 1;
            while (r.next()) {
                n++;
            }
            assertTrue(n >= 4, "read " + n);
        }
    }
}
