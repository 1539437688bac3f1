package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Statements that differ only in literals share one plan, and each still answers what its own text means:
 * result types, NULLs, LIMIT, string lengths, CHAR against VARCHAR.
 */
class LiteralParametersTest {

    private KvStore store;
    private SqlDatabase db;
    private SqlSession s;

    @BeforeEach
    void open() throws SqlError {
        store = KvStore.inMemory();
        db = SqlDatabase.open(store);
        s = db.newSession();
        update(s, "CREATE TABLE n (k BIGINT PRIMARY KEY, v VARCHAR(6))");
        update(s, "CREATE TABLE w (k VARCHAR PRIMARY KEY, v BIGINT)");
        for (long i = 1; i <= 9; i++) {
            update(s, "INSERT INTO n VALUES (?, ?)", i, i % 3 == 0 ? null : "v" + i % 2);
        }
        for (String w : List.of("a", "ab", "abc", "abc ", "b", "ba")) {
            update(s, "INSERT INTO w VALUES (?, ?)", w, (long) w.length());
        }
    }

    @AfterEach
    void close() {
        s.close();
        db.close();
        store.close();
    }

    private long compiled() {
        return ((KegDatabase) db).plansCompiled();
    }

    /** Runs each statement, asserting the answers, and that they took {@code plans} new plans in all. */
    private void assertShared(int plans, Object[][] statementsAndAnswers) throws SqlError {
        long before = compiled();
        for (Object[] sa : statementsAndAnswers) {
            assertEquals(sa[1], rows(s, (String) sa[0]), (String) sa[0]);
        }
        assertEquals(plans, compiled() - before, "plans made");
    }

    @Test
    void rangesLimitsAndInListsShareAPlan() throws SqlError {
        assertShared(1, new Object[][] {
                {"SELECT k, v FROM n WHERE k >= 7 ORDER BY k LIMIT 2", List.of(row(7L, "v1"), row(8L, "v0"))},
                {"SELECT k, v FROM n WHERE k >= 2 ORDER BY k LIMIT 1", List.of(row(2L, "v0"))},
                {"SELECT k, v FROM n WHERE k >= -5 ORDER BY k LIMIT 0", List.of()},
        });
        assertShared(1, new Object[][] {
                {"SELECT COUNT(*) FROM n WHERE k BETWEEN 2 AND 5", List.of(row(4L))},
                {"SELECT COUNT(*) FROM n WHERE k BETWEEN 5 AND 2", List.of(row(0L))},
        });
        assertShared(2, new Object[][] {
                {"SELECT k FROM w WHERE k IN ('a', 'abc') ORDER BY k", List.of(row("a"), row("abc"))},
                {"SELECT k FROM w WHERE k IN ('ba', 'b') ORDER BY k", List.of(row("b"), row("ba"))},
                {"SELECT k FROM w WHERE k IN ('ab', 'b', 'zz') ORDER BY k", List.of(row("ab"), row("b"))},
        });
        assertShared(1, new Object[][] {
                {"SELECT k FROM n WHERE v = 'v1' AND k < 6 ORDER BY k", List.of(row(1L), row(5L))},
                {"SELECT k FROM n WHERE v = 'v0' AND k < 9 ORDER BY k", List.of(row(2L), row(4L), row(8L))},
        });
        assertShared(1, new Object[][] {
                {"SELECT w.k, n.v FROM w JOIN n ON w.v = n.k WHERE w.k LIKE 'ab%' ORDER BY w.k",
                        List.of(row("ab", "v0"), row("abc", null), row("abc ", "v0"))},
                {"SELECT w.k, n.v FROM w JOIN n ON w.v = n.k WHERE w.k LIKE 'b%' ORDER BY w.k",
                        List.of(row("b", "v1"), row("ba", "v0"))},
        });
    }

    @Test
    void aLiteralThatDoesNotFitItsParameterIsPlannedAsWritten() throws SqlError {
        assertShared(1, new Object[][] {
                {"SELECT k FROM n WHERE k < 3 ORDER BY k", List.of(row(1L), row(2L))},
                {"SELECT k FROM n WHERE k < 2.0 ORDER BY k", List.of(row(1L))},
        });
        // 2.5 is no BIGINT, 'v1toolong' longer than VARCHAR(6): each text is planned as written (1 + 1), the
        // last after the shared plan of its text (+ 1).
        assertShared(3, new Object[][] {
                {"SELECT k FROM n WHERE k < 2.5 ORDER BY k", List.of(row(1L), row(2L))},
                {"SELECT k FROM n WHERE v = 'v1toolong'", List.of()},
        });
    }

    @Test
    void stringsKeepTheirLengthAndBlanks() throws SqlError {
        // A literal with trailing blanks is CHAR, compared blank-padded: planned as written.
        assertEquals(rows(s, "SELECT k FROM w WHERE v = 4 ORDER BY k"), List.of(row("abc ")));
        assertEquals(List.of(row("abc ")), rows(s, "SELECT k FROM w WHERE k = 'abc ' ORDER BY k"));
        assertEquals(List.of(row("abc")), rows(s, "SELECT k FROM w WHERE k = 'abc' ORDER BY k"));
        // CHAR(n) on the column side: the parameter would be CHAR too, so the literal stays.
        assertEquals(List.of(row("abc")), rows(s,
                "SELECT k FROM (SELECT k, CAST(k AS CHAR(3)) AS c FROM w) t WHERE c = 'abc' AND k < 'abc '"));
        assertEquals(List.of(row("ab")), rows(s,
                "SELECT k FROM (SELECT k, CAST(k AS CHAR(3)) AS c FROM w) t WHERE c = 'ab' AND k < 'abc '"));
        // Select-list literals keep their types: CHAR(3) padding of a CASE stays what the text says.
        assertEquals(List.of(row("a  "), row("abc")),
                rows(s, "SELECT CASE WHEN k = 'a' THEN 'a' ELSE 'abc' END FROM w WHERE k <= 'ab' ORDER BY k"));
    }

    @Test
    void nullsStayLiterals() throws SqlError {
        assertEquals(List.of(), rows(s, "SELECT k FROM n WHERE v = NULL"));
        assertEquals(List.of(row(3L), row(6L)), rows(s, "SELECT k FROM n WHERE v IS NULL AND k < 9 ORDER BY k"));
        assertEquals(List.of(row(9L)), rows(s, "SELECT k FROM n WHERE v IS NULL AND k > 6 ORDER BY k"));
        assertEquals(List.of(row(2L), row(4L)),
                rows(s, "SELECT k FROM n WHERE k NOT IN (1, 3, 5, 6, 7, 8, 9) ORDER BY k"));
    }

    @Test
    void preparedTextsKeepTheirOwnParameters() throws SqlError {
        try (SqlStatement st = s.prepare("SELECT k FROM n WHERE k > ? AND v = 'v1' ORDER BY k LIMIT 2")) {
            assertEquals(1, st.parameterCount());
            assertEquals("BIGINT", st.parameters().get(0).typeName());
            assertEquals(List.of(row(5L), row(7L)), SqlTestSupport.drain(st.execute(List.of(3L), 0)));
            SqlError e = org.junit.jupiter.api.Assertions.assertThrows(SqlError.class, () -> st.execute(List.of(), 0));
            assertEquals("07001", e.sqlState());
        }
        String explain = (String) rows(s, "EXPLAIN PLAN FOR SELECT k FROM n WHERE k > ? AND v = 'v1'").get(0).get(0);
        assertTrue(explain.contains("?1='v1'"), explain);
    }

    @Test
    void updatesAndDeletesShareTheirConditions() throws SqlError {
        long before = compiled();
        assertEquals(2, update(s, "UPDATE n SET v = 'x' WHERE k BETWEEN 1 AND 2"));
        assertEquals(1, update(s, "UPDATE n SET v = 'x' WHERE k BETWEEN 4 AND 4"));
        assertEquals(1, update(s, "UPDATE n SET v = 'yy' WHERE k BETWEEN 5 AND 5"));
        assertEquals(2, compiled() - before, "SET literals stay; WHERE literals are shared");
        assertEquals(List.of(row(1L), row(2L), row(4L)), rows(s, "SELECT k FROM n WHERE v = 'x' ORDER BY k"));
        assertEquals(List.of(row(5L)), rows(s, "SELECT k FROM n WHERE v = 'yy' ORDER BY k"));
    }
}
