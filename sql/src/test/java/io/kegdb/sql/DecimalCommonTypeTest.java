package io.kegdb.sql;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The common type of a DECIMAL and a BIGINT-sized number (IN lists, COALESCE, CASE, UNION, comparisons) keeps the
 * DECIMAL's fraction; H2 gives the same types (DECIMAL(22, 3) for DECIMAL(15, 3) and BIGINT) and values.
 */
class DecimalCommonTypeTest extends InMemorySessionTest {

    @BeforeEach
    void tables() throws SqlError {
        update(s, "CREATE TABLE t (k DECIMAL(15,3) PRIMARY KEY, v BIGINT)");
        update(s, "INSERT INTO t VALUES (0.056, 1), (0.5, 2), (7, 3), (22, NULL), (-100000000000, 5)");
    }

    private static BigDecimal d(String s) {
        return new BigDecimal(s);
    }

    @Test
    void inListsAndComparisonsKeepTheFraction() throws SqlError {
        assertEquals(List.of(row(d("0.500"))), rows(s, "SELECT k FROM t WHERE k IN (0.5, -1000000000000)"));
        assertEquals(List.of(row(d("-100000000000.000")), row(d("0.056")), row(d("7.000")), row(d("22.000"))),
                rows(s, "SELECT k FROM t WHERE k NOT IN (0.5, -1000000000000)"));
        assertEquals(List.of(row(d("0.056"))), rows(s, "SELECT k FROM t WHERE k < 9223372036854775807 AND k < 0.06"
                + " AND k > 0"));
        assertEquals(List.of(row(d("7.000"))), rows(s, "SELECT k FROM t WHERE k = v + 4"));
        // a BIGINT compared with a fraction near its extremes
        update(s, "CREATE TABLE n (k BIGINT PRIMARY KEY, v INTEGER)");
        update(s, "INSERT INTO n VALUES (-9223372036854775808, 1), (0, 2), (9223372036854775807, 3)");
        assertEquals(List.of(row(9223372036854775807L)), rows(s, "SELECT k FROM n WHERE k > 0.5"));
        assertEquals(List.of(row(-9223372036854775808L), row(0L)), rows(s, "SELECT k FROM n WHERE k < 0.5"));
    }

    @Test
    void coalesceCaseAndUnionKeepTheFraction() throws SqlError {
        assertEquals(List.of(row(d("-100000000000.000")), row(d("0.056")), row(d("0.500")), row(d("7.000")),
                row(d("22.000"))), rows(s, "SELECT COALESCE(k, 10000000000) FROM t"));
        try (SqlStatement st = s.prepare("SELECT COALESCE(k, 10000000000) FROM t")) {
            assertEquals(22, st.columns().get(0).precision());
            assertEquals(3, st.columns().get(0).scale());
        }
        assertEquals(List.of(row(d("-100000000000.000")), row(d("1.000")), row(d("2.000")), row(d("7.000")),
                row((Object) null)), rows(s, "SELECT CASE WHEN v > 2 THEN k ELSE v END FROM t"));
        update(s, "CREATE TABLE u (k INTEGER PRIMARY KEY, v DECIMAL(6,6))");
        update(s, "INSERT INTO u VALUES (1, 0.000009), (2, 0.5)");
        update(s, "CREATE TABLE w (k INTEGER PRIMARY KEY, x DECIMAL(15,2))");
        update(s, "INSERT INTO w VALUES (1, 1234567890123.45)");
        assertEquals(List.of(row(d("0.000009")), row(d("0.500000")), row(d("8641975230864.150000"))),
                rows(s, "SELECT v FROM u UNION ALL SELECT x * 7 FROM w"));
        // beyond 38 digits the fraction is kept and the whole digits are what is left
        assertEquals(List.of(row(d("0.000009")), row(d("0.500000")), row(d("1.000000"))),
                rows(s, "SELECT v FROM u UNION ALL SELECT SUM(CAST(k AS BIGINT)) FROM w"));
    }

    @Test
    void aValueTooLargeForTheCommonTypeFails() throws SqlError {
        fails(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, s,
                "SELECT CAST(99999999999999999999999999999999999999 AS DECIMAL(38, 0)) + 0 FROM t"
                + " UNION ALL SELECT CAST(0.5 AS DECIMAL(6, 6)) FROM t");
    }
}
