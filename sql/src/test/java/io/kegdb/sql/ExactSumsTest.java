package io.kegdb.sql;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * SUM and AVG lose nothing to the order or the magnitude of what they add (docs/SQL.md, "Types of expressions"):
 * BIGINTs are summed exactly, DOUBLEs with a compensated sum, in plain aggregates, grouped ones, windows and
 * sub-queries alike. Plain addition gave 0.0 for each average here; H2, SQLite and PostgreSQL give these values.
 */
class ExactSumsTest extends InMemorySessionTest {

    @BeforeEach
    void tables() throws SqlError {
        update(s, "CREATE TABLE b (k BIGINT PRIMARY KEY, v INTEGER)");
        update(s, "INSERT INTO b VALUES (-9223372036854775808, 1), (26, 1), (9223372036854775807, 1)");
        update(s, "CREATE TABLE d (k INTEGER PRIMARY KEY, v DOUBLE)");
        update(s, "INSERT INTO d VALUES (1, 1.0E15), (2, 1.0E300), (3, -1.0E300), (4, NULL)");
    }

    private static final double BIGINT_AVG = 25.0 / 3;
    private static final double DOUBLE_AVG = 1.0E15 / 3;

    @Test
    void avgOfBigintsDividesTheirExactSum() throws SqlError {
        assertEquals(List.of(row(BIGINT_AVG, new BigDecimal(25))), rows(s, "SELECT AVG(k), SUM(k) FROM b"));
        assertEquals(List.of(row(1, BIGINT_AVG)), rows(s, "SELECT v, AVG(k) FROM b GROUP BY v"));
        assertEquals(List.of(row(BIGINT_AVG)), rows(s, "SELECT AVG(k) FROM b HAVING AVG(k) > 8"));
        assertEquals(List.of(row(BIGINT_AVG)), rows(s, "SELECT AVG(k) OVER () FROM b").stream().distinct().toList());
        assertEquals(List.of(row(26L, BIGINT_AVG)), rows(s, "SELECT k, (SELECT AVG(k) FROM b) FROM b WHERE k = 26"));
        assertEquals(List.of(row(BIGINT_AVG)), rows(s, "SELECT AVG(DISTINCT k) FROM b"));
    }

    @Test
    void sumsOfBigintsWrapInNeitherDirection() throws SqlError {
        update(s, "CREATE TABLE w (k INTEGER PRIMARY KEY, v BIGINT)");
        update(s, "INSERT INTO w VALUES (1, 9223372036854775807), (2, 9223372036854775807), (3, 9223372036854775807),"
                + " (4, -9223372036854775808), (5, -9223372036854775808), (6, -9223372036854775808),"
                + " (7, -9223372036854775808)");
        BigDecimal max = BigDecimal.valueOf(Long.MAX_VALUE);
        BigDecimal min = BigDecimal.valueOf(Long.MIN_VALUE);
        assertEquals(List.of(row(max.multiply(BigDecimal.valueOf(3)), min.multiply(BigDecimal.valueOf(4)),
                new BigDecimal("-9223372036854775811"))),
                rows(s, "SELECT SUM(v) FILTER (WHERE v > 0), SUM(v) FILTER (WHERE v < 0), SUM(v) FROM w"));
        assertEquals(List.of(row(3, max.multiply(BigDecimal.valueOf(3))), row(6, min.multiply(BigDecimal.valueOf(3))
                .add(max.multiply(BigDecimal.valueOf(3))))),
                rows(s, "SELECT k, t FROM (SELECT k, SUM(v) OVER (ORDER BY k) AS t FROM w) WHERE k IN (3, 6)"));
    }

    @Test
    void sumAndAvgOfDoublesAreCompensated() throws SqlError {
        assertEquals(List.of(row(1.0E15, DOUBLE_AVG)), rows(s, "SELECT SUM(v), AVG(v) FROM d"));
        assertEquals(List.of(row(1.0E15, DOUBLE_AVG)), rows(s, "SELECT SUM(v), AVG(v) FROM d GROUP BY k > 0"));
        assertEquals(List.of(row(1.0E15, DOUBLE_AVG)),
                rows(s, "SELECT SUM(v) OVER (), AVG(v) OVER () FROM d").stream().distinct().toList());
        assertEquals(List.of(row(1.0E15, DOUBLE_AVG)), rows(s, "SELECT t, a FROM (SELECT k, SUM(v) OVER w AS t, AVG(v) OVER w AS a FROM d"
                + " WINDOW w AS (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)) WHERE k = 3"));
        assertEquals(List.of(row(1.0E15, DOUBLE_AVG)), rows(s, "SELECT SUM(DISTINCT v), AVG(DISTINCT v) FROM d"));
        assertEquals(List.of(row(4)), rows(s, "SELECT k FROM d WHERE v IS NULL AND (SELECT SUM(v) FROM d) > 0"));
        assertEquals(List.of(row(1.0f)), rows(s, "SELECT SUM(CAST(x AS REAL)) FROM (VALUES (1.0E30), (1.0E0), (-1.0E30)) AS t (x)"));
    }

    @Test
    void sumsThatOverflowOrMeetInfinityAreIeees() throws SqlError {
        update(s, "CREATE TABLE o (k INTEGER PRIMARY KEY, v DOUBLE)");
        update(s, "INSERT INTO o VALUES (1, 1.0E308), (2, 1.0E308)");
        assertEquals(List.of(row(Double.POSITIVE_INFINITY)), rows(s, "SELECT SUM(v) FROM o"));
        assertEquals(List.of(row(null, null)), rows(s, "SELECT SUM(v), AVG(v) FROM o WHERE k > 2"));
        assertEquals(List.of(row(0.0)), rows(s, "SELECT COALESCE(SUM(v), 0.0E0) FROM o WHERE k > 2"));
    }
}
