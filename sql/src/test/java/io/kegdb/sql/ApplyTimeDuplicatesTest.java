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
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Over a store whose reads are round trips (a replicated store's client), an INSERT does not read its key to
 * check for a duplicate: the commit's put-if-absent decides at apply, with the same 23505 naming the row, and
 * the transaction writes nothing. What the transaction itself wrote or read is still decided at once.
 */
class ApplyTimeDuplicatesTest {

    private CountingStore store;
    private SqlDatabase db;
    private SqlSession s;
    private SqlSession other;

    @BeforeEach
    void open() throws SqlError {
        store = new CountingStore(KvStore.inMemory(), true);
        db = SqlDatabase.open(store);
        s = db.newSession();
        other = db.newSession();
        update(s, "CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR)");
        update(s, "INSERT INTO t VALUES (7, 'seven')");
    }

    @AfterEach
    void close() {
        s.close();
        other.close();
        db.close();
        store.close();
    }

    @Test
    void aTransactionOfPreparedInsertsReadsNothingAndCommitsOnce() throws SqlError {
        s.setAutoCommit(false);
        store.reset();
        try (SqlStatement insert = s.prepare("INSERT INTO t VALUES (?, ?)")) {
            for (long i = 100; i < 200; i++) {
                insert.execute(List.of(i, "v" + i), 0).close();
            }
        }
        s.commit();
        assertEquals(0, store.reads(), "no read per row");
        assertEquals(1, store.writes.get(), "one commit");
        assertEquals(List.of(row(101L)), rows(s, "SELECT COUNT(*) FROM t"));
    }

    @Test
    void aMultiRowInsertReadsNothing() throws SqlError {
        store.reset();
        assertEquals(3, update(s, "INSERT INTO t VALUES (1, 'a'), (2, 'b'), (3, 'c')"));
        assertEquals(0, store.reads());
        assertEquals(1, store.writes.get());
    }

    @Test
    void aDuplicateFailsTheCommitNamingTheRowAndWritesNothing() throws SqlError {
        s.setAutoCommit(false);
        update(s, "INSERT INTO t VALUES (1, 'one')");
        update(s, "INSERT INTO t VALUES (7, 'again')"); // decided at commit
        update(s, "INSERT INTO t VALUES (2, 'two')");
        SqlError e = assertThrows(SqlError.class, s::commit);
        assertEquals("23505", e.sqlState());
        assertTrue(e.getMessage().contains("ID = 7") && e.getMessage().contains("PUBLIC.T"), e.getMessage());
        assertEquals(List.of(row(7L, "seven")), rows(s, "SELECT * FROM t"), "nothing of the transaction");
    }

    @Test
    void aDuplicateInAMultiRowInsertFailsTheStatementAndWritesNothing() throws SqlError {
        SqlError e = fails("23505", s, "INSERT INTO t VALUES (1, 'a'), (7, 'b'), (3, 'c')");
        assertTrue(e.getMessage().contains("ID = 7"), e.getMessage());
        assertEquals(List.of(row(7L, "seven")), rows(s, "SELECT * FROM t"));
    }

    @Test
    void aKeyInsertedTwiceInOneTransactionFailsAtTheSecondInsert() throws SqlError {
        s.setAutoCommit(false);
        update(s, "INSERT INTO t VALUES (1, 'one')");
        store.reset();
        SqlError e = fails("23505", s, "INSERT INTO t VALUES (1, 'again')");
        assertTrue(e.getMessage().contains("ID = 1"), e.getMessage());
        fails("23505", s, "INSERT INTO t VALUES (2, 'x'), (1, 'again')");
        assertEquals(0, store.reads(), "decided by the transaction's own writes");
        s.commit();
        assertEquals(List.of(row(1L, "one"), row(7L, "seven")), rows(s, "SELECT * FROM t"));
    }

    @Test
    void aKeyTheTransactionReadIsDecidedByWhatItRead() throws SqlError {
        s.setAutoCommit(false);
        assertEquals(1, update(s, "UPDATE t SET v = 'read' WHERE id = 7 AND v = 'seven'"));
        fails("23505", s, "INSERT INTO t VALUES (7, 'again')");
        s.commit();
        assertEquals(List.of(row(7L, "read")), rows(s, "SELECT * FROM t"));
    }

    @Test
    void anInsertDeletedAgainStillChecksThatTheRowWasAbsent() throws SqlError {
        s.setAutoCommit(false);
        update(s, "INSERT INTO t VALUES (7, 'again')");
        assertEquals(1, update(s, "DELETE FROM t WHERE id = 7"));
        SqlError e = assertThrows(SqlError.class, s::commit);
        assertEquals("23505", e.sqlState(), e.getMessage());
        assertEquals(List.of(row(7L, "seven")), rows(s, "SELECT * FROM t"), "the stored row stays");

        // Absent indeed: the insert, its delete and a new put commit.
        update(s, "INSERT INTO t VALUES (8, 'eight')");
        update(s, "DELETE FROM t WHERE id = 8");
        update(s, "UPSERT INTO t VALUES (8, 'put')");
        s.commit();
        assertEquals(List.of(row(7L, "seven"), row(8L, "put")), rows(s, "SELECT * FROM t"));
    }

    @Test
    void anInsertThatLostARaceFailsAtCommit() throws SqlError {
        s.setAutoCommit(false);
        update(s, "INSERT INTO t VALUES (5, 'mine')");
        update(other, "INSERT INTO t VALUES (5, 'theirs')");
        SqlError e = assertThrows(SqlError.class, s::commit);
        assertEquals("23505", e.sqlState());
        assertEquals(List.of(row("theirs")), rows(s, "SELECT v FROM t WHERE id = 5"));
    }

    @Test
    void aLocalStoreStillAnswersAtTheInsert() throws SqlError {
        try (KvStore local = KvStore.inMemory(); SqlDatabase localDb = SqlDatabase.open(local);
             SqlSession l = localDb.newSession()) {
            update(l, "CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR)");
            update(l, "INSERT INTO t VALUES (7, 'seven')");
            l.setAutoCommit(false);
            fails("23505", l, "INSERT INTO t VALUES (7, 'again')");
            l.rollback();
        }
    }
}
