package io.kegdb.sql;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Conditions over COALESCE and CASE WHEN x IS NOT NULL THEN x (which Calcite types NOT NULL) select, update and
 * delete only the rows they are true for: a NULL value never passes for the guarded branch's value.
 */
class NullGuardPredicateTest {

    private SqlFixture sql;
    private SqlSession s;

    @BeforeEach
    void open() throws SqlError {
        sql = SqlFixture.inMemory();
        s = sql.session();
        update(s, "CREATE TABLE d (k BIGINT PRIMARY KEY, v DOUBLE)");
        update(s, "INSERT INTO d VALUES (1, NULL), (2, 1.0), (3, 5.0), (22, NULL), (30, NULL)");
        update(s, "CREATE TABLE c (k INTEGER PRIMARY KEY, v INTEGER)");
        update(s, "INSERT INTO c VALUES (1, NULL), (2, 100), (3, 5), (30, NULL)");
    }

    @AfterEach
    void close() {
        sql.close();
    }

    @Test
    void selectsOnlyTheRowsTheConditionIsTrueFor() throws SqlError {
        assertEquals(List.of(row(2L, 1.0)), rows(s, "SELECT k, v FROM d WHERE COALESCE(v, 100) <= 2"));
        assertEquals(List.of(row(2L, 1.0)), rows(s, "SELECT k, v FROM d WHERE 2 >= COALESCE(v, 100)"));
        assertEquals(List.of(row(2L)), rows(s, "SELECT k FROM d WHERE CASE WHEN v IS NOT NULL THEN v ELSE 100 END < 2"));
        assertEquals(List.of(row(1L), row(22L), row(30L)), rows(s, "SELECT k FROM d WHERE COALESCE(v, 100) = 100"));
        assertEquals(List.of(row(2L), row(3L)), rows(s, "SELECT k FROM d WHERE COALESCE(v, 100) < 50"));
        assertEquals(List.of(row(1L), row(2L), row(3L), row(22L)), rows(s, "SELECT k FROM d WHERE COALESCE(v, k) < 23"));
        assertEquals(List.of(row(3)), rows(s, "SELECT k FROM c WHERE COALESCE(v, -1) BETWEEN 0 AND 10"));
        assertEquals(List.of(row(3)), rows(s, "SELECT k FROM c WHERE NULLIF(COALESCE(v, 0), 0) < 10"));
        assertEquals(List.of(row(3)), rows(s, "SELECT a.k FROM c a JOIN c b ON a.k = b.k WHERE COALESCE(a.v, 99) < 10"));
        assertEquals(List.of(row(1L)), rows(s, "SELECT COUNT(*) FROM c WHERE COALESCE(v, 0) BETWEEN 1 AND 10"));
        assertEquals(List.of(row(1L, 2.0)),
                rows(s, "SELECT COUNT(*), SUM(COALESCE(v, 0) + 1) FROM d WHERE COALESCE(v, 100) <= 2"));
    }

    @Test
    void updatesAndDeletesOnlyTheRowsTheConditionIsTrueFor() throws SqlError {
        assertEquals(2, update(s, "UPDATE c SET v = 1 WHERE COALESCE(v, k) < 23"));
        assertEquals(List.of(row(1, 1), row(2, 100), row(3, 1), row(30, null)), rows(s, "SELECT * FROM c"));
        assertEquals(1, update(s, "DELETE FROM d WHERE COALESCE(v, 100) <= 2"));
        assertEquals(List.of(row(1L), row(3L), row(22L), row(30L)), rows(s, "SELECT k FROM d"));
    }

    /**
     * The value is also widened to the common type (INTEGER to DOUBLE, BIGINT or DECIMAL): the NOT NULL cast
     * COALESCE is rewritten with sat inside the widening one, the simplifier merged the two into one NOT NULL
     * widening cast and dropped the guard, and the NULL row passed.
     */
    @Test
    void aWidenedNullableValueStaysNull() throws SqlError {
        update(s, "CREATE TABLE w (k DOUBLE PRIMARY KEY, v INTEGER)");
        update(s, "INSERT INTO w VALUES (-8, NULL), (-5, 1), (4, NULL), (7, -9)");
        assertEquals(List.of(row(-5.0), row(4.0)), rows(s, "SELECT k FROM w WHERE COALESCE(v, k) >= -3"));
        assertEquals(List.of(row(-8.0), row(7.0)), rows(s, "SELECT k FROM w WHERE NOT (COALESCE(v, k) >= -3)"));
        assertEquals(List.of(row(-5.0), row(4.0)),
                rows(s, "SELECT k FROM w WHERE CASE WHEN v IS NOT NULL THEN v ELSE k END >= -3"));
        assertEquals(List.of(row(-5.0), row(7.0)), rows(s, "SELECT k FROM w WHERE COALESCE(v, 2.5) < 2"));
        assertEquals(List.of(row(-5.0), row(4.0)),
                rows(s, "SELECT k FROM w WHERE COALESCE(v, CAST(k AS BIGINT)) BETWEEN -3 AND 10"));
        assertEquals(List.of(row(-8.0, 0), row(-5.0, 1), row(4.0, 1), row(7.0, 0)),
                rows(s, "SELECT k, CASE WHEN COALESCE(v, k) >= -3 THEN 1 ELSE 0 END FROM w"));
        assertEquals(2, update(s, "UPDATE w SET v = 0 WHERE COALESCE(v, k) >= -3"));
        assertEquals(List.of(row(-8.0, null), row(-5.0, 0), row(4.0, 0), row(7.0, -9)), rows(s, "SELECT * FROM w"));
        assertEquals(1, update(s, "DELETE FROM w WHERE COALESCE(v, k) < -8.5"));
        assertEquals(List.of(row(-8.0), row(-5.0), row(4.0)), rows(s, "SELECT k FROM w"));
    }

    @Test
    void coalesceStillHasItsNotNullTypeAndValues() throws SqlError {
        try (SqlStatement st = s.prepare("SELECT COALESCE(v, 100) FROM d")) {
            assertEquals(false, st.columns().get(0).nullable());
        }
        assertEquals(List.of(row(100.0), row(1.0), row(5.0), row(100.0), row(100.0)),
                rows(s, "SELECT COALESCE(v, 100) FROM d"));
        assertEquals(List.of(row(1, 1), row(2, 100), row(3, 5), row(30, 30)), rows(s, "SELECT k, COALESCE(v, k) FROM c"));
    }
}
