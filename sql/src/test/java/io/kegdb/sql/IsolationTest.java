package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import io.kegdb.sql.direct.ForUpdatePlan;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The session's isolation levels, on a store with snapshots and on one without (which validates instead). */
class IsolationTest {

    private SqlFixture sql;

    private SqlSession[] open(KvStore store) throws SqlError {
        sql = SqlFixture.over(store);
        SqlSession a = sql.session();
        SqlSession b = sql.session();
        update(a, "CREATE TABLE t (k VARCHAR PRIMARY KEY, v BIGINT)");
        update(a, "INSERT INTO t VALUES ('x', 50), ('y', 50)");
        return new SqlSession[] {a, b};
    }

    @AfterEach
    void close() {
        sql.close();
    }

    private static long value(SqlSession s, String key) throws SqlError {
        return (Long) rows(s, "SELECT v FROM t WHERE k = ?", key).get(0).get(0);
    }

    private static void begin(SqlSession s, Isolation level) throws SqlError {
        s.setIsolation(level);
        s.setAutoCommit(false);
    }

    private static void commitFails(SqlSession s) {
        SqlError e = assertThrows(SqlError.class, s::commit);
        assertEquals("40001", e.sqlState(), e.getMessage());
    }

    @Test
    void repeatableReadReadsItsSnapshotAndTheSecondWriterOfARowFails() throws SqlError {
        SqlSession[] s = open(KvStore.inMemory());
        begin(s[0], Isolation.REPEATABLE_READ);
        assertEquals(50, value(s[0], "x"));
        update(s[1], "UPDATE t SET v = v - 25 WHERE k = 'x'");
        update(s[1], "UPDATE t SET v = v + 25 WHERE k = 'y'");
        assertEquals(50, value(s[0], "y"), "the snapshot, not the later commit");
        assertEquals(List.of(row(new BigDecimal(100))), rows(s[0], "SELECT SUM(v) FROM t"));
        update(s[0], "UPDATE t SET v = 0 WHERE k = 'x'");
        commitFails(s[0]);
        assertEquals(25, value(s[1], "x"), "the failed commit wrote nothing");
        assertEquals(Isolation.REPEATABLE_READ, s[0].isolation());
    }

    @Test
    void serializableFailsACommitWhoseAggregateGotAPhantomAndRepeatableReadDoesNot() throws SqlError {
        for (Isolation level : new Isolation[] {Isolation.SERIALIZABLE, Isolation.REPEATABLE_READ}) {
            SqlSession[] s = open(KvStore.inMemory());
            begin(s[0], level);
            assertEquals(List.of(row(2L)), rows(s[0], "SELECT COUNT(*) FROM t WHERE k >= 'a' AND k < 'z'"));
            update(s[1], "INSERT INTO t VALUES ('w', 1)");
            update(s[0], "INSERT INTO t VALUES ('count', 2)");
            if (level == Isolation.SERIALIZABLE) {
                commitFails(s[0]);
                assertEquals(List.of(), rows(s[1], "SELECT v FROM t WHERE k = 'count'"));
            } else {
                s[0].commit(); // snapshot isolation: the range read is not checked
            }
            sql.close();
        }
        sql = SqlFixture.inMemory();
    }

    @Test
    void selectForUpdateRowsAreCheckedAtReadCommittedAndUnchangedOnesCommit() throws SqlError {
        SqlSession[] s = open(KvStore.inMemory());
        begin(s[0], Isolation.READ_COMMITTED);
        assertEquals(List.of(row(50L)), rows(s[0], "SELECT v FROM t WHERE k = 'x' FOR UPDATE"));
        update(s[0], "UPDATE t SET v = 51 WHERE k = 'y'");
        update(s[1], "UPDATE t SET v = 5 WHERE k = 'x'");
        commitFails(s[0]);
        assertEquals(50, value(s[1], "y"));
        assertEquals(List.of(row(5L)), rows(s[0], "select v from t where k = 'x'  for  update ;"));
        update(s[0], "UPDATE t SET v = 6 WHERE k = 'x'");
        s[0].commit();
        assertEquals(6, value(s[1], "x"));
    }

    @Test
    void anAutocommittedConditionalUpdateIsACompareAndSet() throws SqlError {
        SqlSession[] s = open(KvStore.inMemory());
        assertEquals(1, update(s[0], "UPDATE t SET v = 60 WHERE k = 'x' AND v = 50"));
        assertEquals(0, update(s[1], "UPDATE t SET v = 70 WHERE k = 'x' AND v = 50"));
        assertEquals(60, value(s[1], "x"));
    }

    @Test
    void theLevelCannotChangeInsideATransaction() throws SqlError {
        SqlSession[] s = open(KvStore.inMemory());
        begin(s[0], Isolation.SERIALIZABLE);
        value(s[0], "x");
        SqlError e = assertThrows(SqlError.class, () -> s[0].setIsolation(Isolation.READ_COMMITTED));
        assertEquals(SqlState.ACTIVE_SQL_TRANSACTION, e.sqlState());
        s[0].rollback();
        s[0].setIsolation(Isolation.READ_COMMITTED);
        assertEquals(Isolation.READ_COMMITTED, s[0].isolation());
    }

    @Test
    void withoutSnapshotsAReadOnlyTransactionThatSawTwoStatesFailsAtCommit() throws SqlError {
        SqlSession[] s = open(new CountingStore(KvStore.inMemory()));
        begin(s[0], Isolation.REPEATABLE_READ);
        assertEquals(50, value(s[0], "x"));
        update(s[1], "UPDATE t SET v = 25 WHERE k = 'x'");
        update(s[1], "UPDATE t SET v = 75 WHERE k = 'y'");
        assertEquals(75, value(s[0], "y"));
        commitFails(s[0]);
        begin(s[0], Isolation.REPEATABLE_READ);
        assertEquals(25, value(s[0], "x"));
        s[0].commit(); // nothing changed since: validates
    }

    @Test
    void forUpdateIsRecognizedOnlyAtTheEndOfAQuery() {
        assertEquals("SELECT v FROM t WHERE k = ?", ForUpdatePlan.locking("SELECT v FROM t WHERE k = ? FOR UPDATE"));
        assertEquals("select * from t", ForUpdatePlan.locking("select * from t\n for\tupdate;\n"));
        assertNull(ForUpdatePlan.locking("SELECT 'for update' FROM t"));
        assertNull(ForUpdatePlan.locking("UPDATE t SET v = 1"));
        assertNull(ForUpdatePlan.locking("SELECT v FROM t WHERE k = 'x FOR UPDATE'"));
        fails("42000", noSession(), "UPDATE t SET v = 1 FOR UPDATE");
    }

    private SqlSession noSession() {
        try {
            return (sql = SqlFixture.inMemory()).session();
        } catch (SqlError e) {
            throw new IllegalStateException(e);
        }
    }
}
