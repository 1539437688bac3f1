package io.kegdb.sql;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Multi-row INSERT / UPSERT VALUES with NULLs and literals of other numeric types than their column's; upserts
 * whose update is wider than the column.
 */
class ValuesInsertTest extends InMemorySessionTest {

    @Test
    void multiRowValuesWithNullsAndWiderLiterals() throws SqlError {
        update(s, "CREATE TABLE t0 (k DATE PRIMARY KEY, v DOUBLE)");
        assertEquals(2, update(s, "INSERT INTO t0 (v, k) VALUES (19.5, DATE '1970-01-01'), (NULL, DATE '1969-07-07')"));
        assertEquals(3, update(s, "INSERT INTO t0 (v, k) VALUES (NULL, DATE '1971-01-01'), (19.5, DATE '1972-07-07'),"
                + " (3, DATE '1973-01-01')"));
        assertEquals(2, update(s, "UPSERT INTO t0 (v, k) VALUES (NULL, DATE '1970-01-01'), (2.5, DATE '1974-01-01')"));
        assertEquals(List.of(row(LocalDate.of(1969, 7, 7), null), row(LocalDate.of(1970, 1, 1), null),
                row(LocalDate.of(1971, 1, 1), null), row(LocalDate.of(1972, 7, 7), 19.5),
                row(LocalDate.of(1973, 1, 1), 3.0), row(LocalDate.of(1974, 1, 1), 2.5)), rows(s, "SELECT * FROM t0"));
        update(s, "CREATE TABLE t2 (k VARCHAR PRIMARY KEY, v DECIMAL(6,2))");
        assertEquals(3, update(s, "INSERT INTO t2 (v, k) VALUES (1, 'a'), (NULL, 'b'), (2.5, 'c')"));
        assertEquals(List.of(row("a", new BigDecimal("1.00")), row("b", null), row("c", new BigDecimal("2.50"))),
                rows(s, "SELECT * FROM t2"));
    }

    /** Exponent and decimal literals in one column of a VALUES (Calcite compared a Double with a BigDecimal). */
    @Test
    void multiRowValuesMixingApproximateAndExactLiterals() throws SqlError {
        update(s, "CREATE TABLE d (k INTEGER PRIMARY KEY, v DOUBLE)");
        assertEquals(3, update(s, "INSERT INTO d VALUES (1, 1.0E300), (2, 1.5), (3, NULL)"));
        assertEquals(2, update(s, "INSERT INTO d VALUES (4, 0.1), (5, -1.0E-3)"));
        assertEquals(3, update(s, "INSERT INTO d (v, k) VALUES (-2.5, 6), (2E0, 7), (+12, 8)"));
        assertEquals(2, update(s, "UPSERT INTO d VALUES (1, 7), (9, 1e1)"));
        assertEquals(List.of(row(1, 7.0), row(2, 1.5), row(3, null), row(4, 0.1), row(5, -0.001), row(6, -2.5),
                row(7, 2.0), row(8, 12.0), row(9, 10.0)), rows(s, "SELECT * FROM d"));
        assertEquals(List.of(row(1.0E300, new BigDecimal("1.5")), row(1.5, new BigDecimal("2.0")),
                row(null, new BigDecimal("3.0"))),
                rows(s, "SELECT * FROM (VALUES (1.0E300, 1.5), (1.5, 2), (NULL, 3.0)) AS x (a, b)"));
        update(s, "CREATE TABLE m (k DECIMAL(15,3) PRIMARY KEY, v DECIMAL(15,3))");
        assertEquals(2, update(s, "INSERT INTO m VALUES (1.0E2, 0.125), (2.5, 1E0)"));
        assertEquals(List.of(row(new BigDecimal("2.500"), new BigDecimal("1.000")),
                row(new BigDecimal("100.000"), new BigDecimal("0.125"))), rows(s, "SELECT * FROM m"));
    }

    @Test
    void upsertsWithAnExpressionWiderThanTheColumn() throws SqlError {
        update(s, "CREATE TABLE u (k INTEGER PRIMARY KEY, v DECIMAL(15,3))");
        update(s, "INSERT INTO u VALUES (1, 2.5)");
        assertEquals(2, update(s, "INSERT INTO u VALUES (1, 3.5), (2, 4) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v * 10"));
        assertEquals(1, update(s, "INSERT INTO u VALUES (2, 1) ON DUPLICATE KEY UPDATE v = v + VALUES(v) * 0.0005"));
        assertEquals(List.of(row(1, new BigDecimal("35.000")), row(2, new BigDecimal("4.001"))),
                rows(s, "SELECT * FROM u"));
        SqlTestSupport.fails(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, s,
                "INSERT INTO u VALUES (1, 1) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v * 1e15");
        update(s, "CREATE TABLE w (k INTEGER PRIMARY KEY, v VARCHAR(4))");
        update(s, "INSERT INTO w VALUES (1, 'ab')");
        update(s, "INSERT INTO w VALUES (1, 'cd') ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v || 'x'");
        assertEquals(List.of(row(1, "cdx")), rows(s, "SELECT * FROM w"));
        update(s, "INSERT INTO w VALUES (1, 'ef') ON DUPLICATE KEY UPDATE v = VALUES(v) || 'y'");
        assertEquals(List.of(row(1, "efy")), rows(s, "SELECT * FROM w"));
    }
}
