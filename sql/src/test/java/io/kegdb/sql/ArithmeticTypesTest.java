package io.kegdb.sql;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Types;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The types of SUM and AVG, and exact arithmetic that overflows (docs/SQL.md, "Types of expressions"). Expected
 * values are H2's answers to the same statements.
 */
class ArithmeticTypesTest extends InMemorySessionTest {

    @BeforeEach
    void createTables() throws SqlError {
        update(s, "CREATE TABLE i (k BIGINT PRIMARY KEY, v INTEGER)");
        update(s, "INSERT INTO i VALUES (1, 2147483647), (2, 2147483647), (3, 1), (4, NULL), (5, -7)");
        update(s, "CREATE TABLE b (k BIGINT PRIMARY KEY, v BIGINT)");
        update(s, "INSERT INTO b VALUES (1, 9223372036854775807), (2, 1), (3, NULL), (4, -5)");
        update(s, "CREATE TABLE d (k BIGINT PRIMARY KEY, v DECIMAL(5,0))");
        update(s, "INSERT INTO d VALUES (1, 99999), (2, 99999)");
    }

    private int jdbcType(String query, int column) throws SqlError {
        try (SqlStatement st = s.prepare(query)) {
            return st.columns().get(column).jdbcType();
        }
    }

    @Test
    void sumOfIntegersIsBigintAndDoesNotWrap() throws SqlError {
        assertEquals(List.of(row(4294967288L, 1.073741822E9, -7, 4L)),
                rows(s, "SELECT SUM(v), AVG(v), MIN(v), COUNT(v) FROM i"));
        assertEquals(Types.BIGINT, jdbcType("SELECT SUM(v) FROM i", 0));
        assertEquals(Types.DOUBLE, jdbcType("SELECT AVG(v) FROM i", 0));
        assertEquals(List.of(row(1L, 2147483647L), row(2L, 4294967294L), row(3L, 4294967295L),
                row(4L, 4294967295L), row(5L, 4294967288L)), rows(s, "SELECT k, SUM(v) OVER (ORDER BY k) FROM i"));
        assertEquals(List.of(row(1L, 2147483647L), row(2L, 4294967294L), row(3L, 2147483648L), row(4L, 1L),
                row(5L, -7L)), rows(s, "SELECT k, SUM(v) OVER (ORDER BY k ROWS 1 PRECEDING) FROM i"));
        assertEquals(List.of(row(4294967288L)), rows(s, "SELECT SUM(v) FROM i HAVING SUM(v) > 0"));
        assertEquals(List.of(row(2147483641L)), rows(s, "SELECT SUM(DISTINCT v) FROM i"));
        assertEquals(List.of(row(-6L)), rows(s, "SELECT SUM(CAST(v AS SMALLINT)) FROM i WHERE k > 2"));
        assertEquals(List.of(row(1L), row(2L)), rows(s, "SELECT k FROM i WHERE v > (SELECT AVG(v) FROM i)"));
    }

    @Test
    void sumOfBigintsIsAnExactDecimal() throws SqlError {
        BigDecimal sum = new BigDecimal("9223372036854775803");
        assertEquals(List.of(row(sum, new BigDecimal(10), sum, 4L)),
                rows(s, "SELECT SUM(v), SUM(k), SUM(DISTINCT v), COUNT(*) FROM b"));
        assertEquals(Types.DECIMAL, jdbcType("SELECT SUM(v) FROM b", 0));
        assertEquals(List.of(row(new BigDecimal(-4))), rows(s, "SELECT SUM(v) FILTER (WHERE k > 1) FROM b"));
        assertEquals(List.of(row(1L, new BigDecimal("9223372036854775807")),
                row(2L, new BigDecimal("9223372036854775808")), row(3L, new BigDecimal("9223372036854775808")),
                row(4L, sum)), rows(s, "SELECT k, SUM(v) OVER (ORDER BY k) FROM b"));
        assertEquals(List.of(row(1L, new BigDecimal("9223372036854775807")),
                row(2L, new BigDecimal("9223372036854775808"))),
                rows(s, "SELECT i.k, (SELECT SUM(v) FROM b WHERE b.k <= i.k) FROM i WHERE i.k < 3"));
        assertEquals(List.of(row(-5L, new BigDecimal(4)), row(1L, new BigDecimal(2)),
                row(9223372036854775807L, new BigDecimal(1)), row(null, new BigDecimal(3))),
                rows(s, "SELECT v, SUM(k) FROM b GROUP BY v ORDER BY v"));
        // AVG of a BIGINT is a DOUBLE
        assertEquals(List.of(row(3.0744573456182584E18, 2.5)), rows(s, "SELECT AVG(v), AVG(k) FROM b"));
        assertEquals(Types.DOUBLE, jdbcType("SELECT AVG(v) FROM b", 0));
        assertEquals(List.of(row(1L, 9.223372036854776E18), row(2L, 4.6116860184273879E18)),
                rows(s, "SELECT k, AVG(v) OVER (ORDER BY k) FROM b WHERE k < 3"));
    }

    @Test
    void sumAndAvgOfDecimalsHaveRoomForTheirResult() throws SqlError {
        assertEquals(List.of(row(new BigDecimal("199998"), new BigDecimal("99999.0000000000"))),
                rows(s, "SELECT SUM(v), AVG(v) FROM d"));
        assertEquals(List.of(row(new BigDecimal("26.00000000000"), new BigDecimal("52.0"))),
                rows(s, "SELECT AVG(26.0), SUM(26.0) FROM d"));
        assertEquals(List.of(row(new BigDecimal("26.00000000000"))), rows(s, "SELECT AVG(26.0) FROM i"));
        assertEquals(List.of(row(new BigDecimal("0.33333333333"))), rows(s, "SELECT AVG(x) FROM (VALUES (0.0), (0.0),"
                + " (1.0)) AS t (x)"));
    }

    /** AVG of a DECIMAL is exact to its scale, however many digits it has (the quotient had 16). */
    @Test
    void avgOfADecimalIsExactToItsScale() throws SqlError {
        update(s, "CREATE TABLE a (k VARCHAR PRIMARY KEY, v DECIMAL(15,3))");
        update(s, "INSERT INTO a VALUES ('a', -9.625), ('b', 0.056), ('c', -9.75), ('d', -6.875), ('e', 4),"
                + " ('f', 123456789.5), ('g', 12.5), ('h', -5.625), ('i', -5.75), ('j', 3.875), ('k', 1.875)");
        BigDecimal avg = new BigDecimal("11223343.1073636363636");
        assertEquals(List.of(row(avg)), rows(s, "SELECT AVG(v) FROM a"));
        assertEquals(List.of(row(new BigDecimal("-9.750"), avg, new BigDecimal("123456774.181"))),
                rows(s, "SELECT MIN(v), AVG(v), SUM(DISTINCT v) FROM a"));
        assertEquals(List.of(row(avg)), rows(s, "SELECT AVG(v) OVER () FROM a WHERE k = 'a' OR k > ''")
                .stream().distinct().toList());
        assertEquals(List.of(row(new BigDecimal("41152263.1667"), new BigDecimal("0.3333"))),
                rows(s, "SELECT CAST(v / 3 AS DECIMAL(15,4)), CAST(1.0 / 3 AS DECIMAL(5,4)) FROM a WHERE k = 'f'"));
        assertEquals(List.of(row(new BigDecimal("3.00"))), rows(s, "SELECT CAST(10 / 3 AS DECIMAL(5,2))"));
        fails(SqlState.DIVISION_BY_ZERO, s, "SELECT CAST(v / 0 AS DECIMAL(15,4)) FROM a WHERE k = 'f'");
    }

    @Test
    void aggregatesOverNoRowsAreNull() throws SqlError {
        update(s, "CREATE TABLE e (k BIGINT PRIMARY KEY, v INTEGER)");
        assertEquals(List.of(row(null, null, null, null)), rows(s, "SELECT SUM(v), AVG(v), SUM(k), AVG(k) FROM e"));
    }

    @Test
    void exactArithmeticThatOverflowsFails() throws SqlError {
        for (String q : List.of("SELECT v + v FROM i WHERE k = 1", "SELECT v * v FROM i WHERE k = 1",
                "SELECT v - (-2147483647) FROM i WHERE k = 1", "SELECT v + 1 FROM b WHERE k = 1",
                "SELECT v * 2 FROM b WHERE k = 1", "SELECT v - 9223372036854775807 - 10 FROM b WHERE k = 4",
                "SELECT 2147483647 + 1", "SELECT CAST(-2147483648 AS INTEGER) / -1",
                "SELECT -CAST(-9223372036854775808 AS BIGINT)")) {
            fails(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, s, q);
        }
        // the wider type of a mixed expression does not overflow
        assertEquals(List.of(row(4294967294L)), rows(s, "SELECT v + k + 2147483646 FROM i WHERE k = 1"));
        assertEquals(List.of(row(-2147483648)), rows(s, "SELECT -v - 1 FROM i WHERE k = 1"));
    }

    /** ABS and ROUND of an integer type fail like the operators instead of wrapping around. */
    @Test
    void absAndRoundOfIntegersThatOverflowFail() throws SqlError {
        update(s, "CREATE TABLE m (k INTEGER PRIMARY KEY, v INTEGER)");
        update(s, "INSERT INTO m VALUES (1, -2147483648), (2, 2147483647), (3, -15), (4, NULL)");
        for (String q : List.of("SELECT ABS(-2147483648)", "SELECT ABS(v) FROM m WHERE k = 1",
                "SELECT k FROM m WHERE ABS(v) > 0", "SELECT ABS(CAST(-9223372036854775808 AS BIGINT))",
                "SELECT ABS(CAST(-32768 AS SMALLINT))", "SELECT ABS(CAST(-128 AS TINYINT))",
                "SELECT ROUND(v, -1) FROM m WHERE k = 1", "SELECT ROUND(v, -1) FROM m WHERE k = 2",
                "SELECT ROUND(CAST(-9223372036854775807 AS BIGINT), -1)", "SELECT ABS(x.v) FROM b x WHERE x.k IN"
                        + " (SELECT k FROM m WHERE ABS(v) > 1)")) {
            fails(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, s, q);
        }
        fails(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, s, "UPDATE m SET v = ABS(v)");
        assertEquals(List.of(row(-2147483648)), rows(s, "SELECT v FROM m WHERE k = 1"));
        assertEquals(List.of(row(2147483647, 15, null, -20, 20, 1200, 7, null, 9223372036854775800L)),
                rows(s, "SELECT ABS(-2147483647), ABS(v), ABS(CAST(NULL AS INTEGER)), ROUND(v, -1), ROUND(15, -1),"
                        + " ROUND(1234, -2), ROUND(7, 2), ROUND(CAST(NULL AS INTEGER), -1),"
                        + " ROUND(CAST(9223372036854775807 AS BIGINT), -2) FROM m WHERE k = 3"));
        assertEquals(List.of(row(2147483647)), rows(s, "SELECT ABS(v + 1) FROM m WHERE k = 1"));
    }

    @Test
    void overflowingWritesFailAndWriteNothing() throws SqlError {
        fails(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, s, "UPDATE i SET v = v + v");
        fails(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, s, "INSERT INTO i SELECT k + 10, v * 2 FROM i");
        assertEquals(List.of(row(2147483647)), rows(s, "SELECT v FROM i WHERE k = 1"));
        assertEquals(List.of(row(5L)), rows(s, "SELECT COUNT(*) FROM i"));
    }

    @Test
    void castsAndStoredValuesRoundHalfUp() throws SqlError {
        assertEquals(List.of(row(new BigDecimal("2.56"), new BigDecimal("-2.56"), 20, -20, 19L, new BigDecimal("1.01"))),
                rows(s, "SELECT CAST(2.555 AS DECIMAL(6,2)), CAST(-2.555 AS DECIMAL(6,2)), CAST(19.5 AS INTEGER),"
                        + " CAST(-19.5 AS INTEGER), CAST(19.4 AS BIGINT), CAST(1.005 AS DECIMAL(5,2))"));
        assertEquals(List.of(row(new BigDecimal("0.66666666667"))),
                rows(s, "SELECT AVG(x) FROM (VALUES (0.0), (1.0), (1.0)) AS t (x)"));
        update(s, "CREATE TABLE r (k VARCHAR PRIMARY KEY, v DECIMAL(6,2))");
        update(s, "INSERT INTO r (v, k) VALUES (1, 'a'), (NULL, 'b'), (2.555, 'c')");
        update(s, "INSERT INTO r VALUES ('d', 2.555)");
        update(s, "INSERT INTO r SELECT 'e', -2.555");
        assertEquals(List.of(row("a", new BigDecimal("1.00")), row("b", null), row("c", new BigDecimal("2.56")),
                row("d", new BigDecimal("2.56")), row("e", new BigDecimal("-2.56"))), rows(s, "SELECT * FROM r"));
        update(s, "UPDATE i SET v = 7.5 WHERE k = 3");
        update(s, "INSERT INTO i (v, k) VALUES (19.5, 6), (NULL, 7)");
        assertEquals(List.of(row(3L, 8), row(6L, 20)), rows(s, "SELECT k, v FROM i WHERE k IN (3, 6)"));
    }
}
