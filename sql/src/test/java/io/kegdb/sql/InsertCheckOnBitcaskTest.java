package io.kegdb.sql;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.*;

/**
 * A transaction's INSERTs are checked as they run and, on a Bitcask store, not looked up again at commit when
 * nothing was written in between: a write by another session in between must bring the check back.
 */
class InsertCheckOnBitcaskTest {

    @TempDir
    Path dir;

    private SqlFixture sql;
    private SqlSession a;
    private SqlSession b;

    @BeforeEach
    void open() throws SqlError, java.io.IOException {
        sql = SqlFixture.over(Bitcask.open(dir, BitcaskOptions.builder().build()));
        a = sql.session();
        b = sql.session();
        update(a, "CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR)");
    }

    @AfterEach
    void close() {
        sql.close();
    }

    @Test
    void anInsertByAnotherSessionBeforeCommitIsCaught() throws SqlError {
        a.setAutoCommit(false);
        update(a, "INSERT INTO t VALUES (1, 'mine')");
        update(a, "INSERT INTO t VALUES (2, 'mine too')");
        update(b, "INSERT INTO t VALUES (2, 'theirs')");
        SqlError e = assertThrows(SqlError.class, a::commit);
        assertEquals("23505", e.sqlState());
        assertEquals(List.of(row(2L, "theirs")), rows(b, "SELECT * FROM t"));
    }

    @Test
    void anUnrelatedWriteBeforeCommitLetsItThrough() throws SqlError {
        a.setAutoCommit(false);
        update(a, "INSERT INTO t VALUES (1, 'mine')");
        update(b, "INSERT INTO t VALUES (5, 'theirs')");
        update(a, "INSERT INTO t VALUES (2, 'mine too')");
        a.commit();
        assertEquals(List.of(row(1L, "mine"), row(2L, "mine too"), row(5L, "theirs")), rows(b, "SELECT * FROM t"));
    }

    @Test
    void eachTransactionReadsTheVersionAnew() throws SqlError {
        a.setAutoCommit(false);
        update(a, "INSERT INTO t VALUES (1, 'first')");
        a.commit();
        update(a, "INSERT INTO t VALUES (3, 'second transaction')");
        update(b, "INSERT INTO t VALUES (3, 'theirs')");
        assertEquals("23505", assertThrows(SqlError.class, a::commit).sqlState());
        update(a, "DELETE FROM t WHERE id = 3");
        update(a, "INSERT INTO t VALUES (4, 'mine')");
        update(b, "INSERT INTO t VALUES (4, 'theirs')");
        assertEquals("23505", assertThrows(SqlError.class, a::commit).sqlState(),
                "a transaction that began with a DELETE still checks its later INSERT");
        assertEquals(List.of(row(1L, "first"), row(3L, "theirs"), row(4L, "theirs")), rows(b, "SELECT * FROM t"));
    }
}
