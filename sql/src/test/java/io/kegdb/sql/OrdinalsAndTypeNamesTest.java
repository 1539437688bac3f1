package io.kegdb.sql;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** GROUP BY / ORDER BY ordinals are whole numbers only; BOOL, a DDL type name, is also a CAST target. */
class OrdinalsAndTypeNamesTest extends InMemorySessionTest {

    @BeforeEach
    void tables() throws SqlError {
        update(s, "CREATE TABLE t (k INTEGER PRIMARY KEY, v INTEGER)");
        update(s, "INSERT INTO t VALUES (1, 10), (2, 5), (3, NULL)");
    }

    @Test
    void aNumberWithAFractionIsAConstantNotAnOrdinal() throws SqlError {
        assertEquals(List.of(row(3L)), rows(s, "SELECT COUNT(*) FROM t GROUP BY -0.18"));
        assertEquals(List.of(row(3L)), rows(s, "SELECT COUNT(*) FROM t GROUP BY 1.0"));
        assertEquals(List.of(row(3L)), rows(s, "SELECT COUNT(*) FROM t GROUP BY 1e0"));
        assertEquals(List.of(row(1), row(2), row(3)), rows(s, "SELECT k FROM t ORDER BY 0.5, k"));
        assertEquals(List.of(row(1), row(2), row(3)), rows(s, "SELECT k FROM t ORDER BY 2.0 DESC NULLS LAST, k"));
        assertEquals(List.of(row((Object) null), row(1), row(2), row(3), row(5), row(10)),
                rows(s, "SELECT k FROM t UNION SELECT v FROM t ORDER BY 1.5, 1 NULLS FIRST"));
        // whole numbers stay ordinals
        assertEquals(List.of(row(2, 5), row(1, 10), row(3, null)), rows(s, "SELECT k, v FROM t ORDER BY 2 NULLS LAST"));
        assertEquals(List.of(row(5, 1L), row(10, 1L), row(null, 1L)),
                rows(s, "SELECT v, COUNT(*) FROM t GROUP BY 1 ORDER BY 1 NULLS LAST"));
    }

    @Test
    void boolIsBoolean() throws SqlError {
        assertEquals(List.of(row(true, true, true), row(true, true, true), row(true, null, true)),
                rows(s, "SELECT CAST(1 AS BOOL), CAST(v AS BOOL), CAST('true' AS bool) FROM t"));
        assertEquals(List.of(row(1), row(2)), rows(s, "SELECT k FROM t WHERE CAST(v AS BOOL)"));
        update(s, "CREATE TABLE b (k BOOL PRIMARY KEY, v BOOL)");
        update(s, "INSERT INTO b VALUES (CAST('false' AS BOOL), CAST(NULL AS BOOL))");
        assertEquals(List.of(row(false, null)), rows(s, "SELECT * FROM b"));
    }
}
