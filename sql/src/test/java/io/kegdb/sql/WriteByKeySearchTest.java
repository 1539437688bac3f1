package io.kegdb.sql;

import org.junit.jupiter.api.Test;

import java.sql.Timestamp;
import java.time.LocalDateTime;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@code UPDATE t SET v = ? WHERE k = ?} and {@code DELETE FROM t WHERE k = ?} (the key/value fast path) search for
 * their key as a SELECT does: a {@code ?} no key of the column can equal touches no row. They fitted it to the
 * column as a written key is fitted, so a TIMESTAMP(0) key lost the operand's fraction and a DECIMAL key was rounded
 * to its scale, and the row of that other key was updated or deleted; a VARCHAR(n) operand longer than n failed
 * with 22001 where no row matches. (The DECIMAL forms are in {@link DecimalKeyOperandsTest}.)
 */
class WriteByKeySearchTest extends InMemorySessionTest {

    @Test
    void aTimestampFinerThanTheKeyMatchesNoRow() throws SqlError {
        update(s, "CREATE TABLE T (K TIMESTAMP(0) PRIMARY KEY, V INTEGER)");
        update(s, "INSERT INTO T VALUES (TIMESTAMP '2020-01-01 10:00:00', 1)");
        Timestamp finer = Timestamp.valueOf(LocalDateTime.of(2020, 1, 1, 10, 0, 0, 500_000_000));
        assertEquals(List.of(), rows(s, "SELECT K FROM T WHERE K = ?", finer));
        assertEquals(0, update(s, "UPDATE T SET V = 2 WHERE K = ?", finer));
        assertEquals(0, update(s, "DELETE FROM T WHERE K = ?", finer));
        assertEquals(List.of(row(1)), rows(s, "SELECT V FROM T"));
        // an INSERT writes the key fitted to the column, as it writes a value
        assertEquals(1, update(s, "INSERT INTO T VALUES (?, 3)",
                Timestamp.valueOf(LocalDateTime.of(2020, 1, 1, 11, 0, 0, 500_000_000))));
        assertEquals(1, update(s, "DELETE FROM T WHERE K = ?", Timestamp.valueOf(LocalDateTime.of(2020, 1, 1, 11, 0))));
    }

    @Test
    void aTextLongerThanTheKeyMatchesNoRow() throws SqlError {
        update(s, "CREATE TABLE T (K VARCHAR(3) PRIMARY KEY, V INTEGER)");
        update(s, "INSERT INTO T VALUES ('abc', 1)");
        assertEquals(0, update(s, "UPDATE T SET V = 2 WHERE K = ?", "abcd"));
        assertEquals(0, update(s, "DELETE FROM T WHERE K = ?", "abcd"));
        assertEquals(0, update(s, "DELETE FROM T WHERE K = ?", (Object) null));
        assertEquals(1, update(s, "UPDATE T SET V = 2 WHERE K = ?", "abc"));
        assertEquals(List.of(row("abc", 2)), rows(s, "SELECT K, V FROM T"));
    }
}
