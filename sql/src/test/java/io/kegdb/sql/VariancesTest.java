package io.kegdb.sql;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, VARIANCE and STDDEV keep the spread of values far from zero
 * (docs/SQL.md, "Types of expressions"): exact for integer and DECIMAL arguments, Welford's running mean and
 * sum of squared deviations for DOUBLE, DOUBLE results, NULL for no rows (and the sample ones for one row), in
 * plain and grouped aggregates and in windows. Calcite's own rewrite, SUM(x * x) - SUM(x) * SUM(x) / COUNT(x),
 * gave 0.0 for every spread here (its squares cancel), and overflowed on BIGINTs.
 */
class VariancesTest extends InMemorySessionTest {

    private static final String ALL = "VAR_POP(v), VAR_SAMP(v), STDDEV_POP(v), STDDEV_SAMP(v), VARIANCE(v), STDDEV(v)";
    /** VAR_POP, VAR_SAMP, STDDEV_POP, STDDEV_SAMP, VARIANCE, STDDEV of three consecutive numbers. */
    private static final List<Object> OF_THREE = row(2.0 / 3, 1.0, Math.sqrt(2.0 / 3), 1.0, 1.0, 1.0);

    @BeforeEach
    void tables() throws SqlError {
        update(s, "CREATE TABLE i (k INTEGER PRIMARY KEY, v INTEGER)");
        update(s, "INSERT INTO i VALUES (1, 1000000001), (2, 1000000002), (3, 1000000003), (4, NULL)");
        update(s, "CREATE TABLE b (k INTEGER PRIMARY KEY, v BIGINT)");
        update(s, "INSERT INTO b VALUES (1, 1000000000000000001), (2, 1000000000000000002), (3, NULL),"
                + " (4, 1000000000000000003)");
        update(s, "CREATE TABLE m (k INTEGER PRIMARY KEY, v BIGINT)");
        update(s, "INSERT INTO m VALUES (1, 9223372036854775807), (2, -9223372036854775808)");
        update(s, "CREATE TABLE c (k INTEGER PRIMARY KEY, v DECIMAL(19, 4))");
        update(s, "INSERT INTO c VALUES (1, 123456789012345.0001), (2, 123456789012345.0002),"
                + " (3, 123456789012345.0003)");
        update(s, "CREATE TABLE d (k INTEGER PRIMARY KEY, v DOUBLE)");
        update(s, "INSERT INTO d VALUES (1, 1000000001.0), (2, 1000000002.0), (3, 1000000003.0), (4, NULL),"
                + " (11, 1.0E15 + 1), (12, 1.0E15 + 2), (13, 1.0E15 + 3), (21, -1.0E15), (22, 1.0E15)");
    }

    @Test
    void exactArgumentsKeepTheSpreadOfValuesFarFromZero() throws SqlError {
        assertEquals(List.of(OF_THREE), rows(s, "SELECT " + ALL + " FROM i"));
        assertEquals(List.of(OF_THREE), rows(s, "SELECT " + ALL + " FROM b"));
        // BIGINT's extremes: their squares and their sum's square are exact, the result rounded once.
        BigDecimal half = BigDecimal.valueOf(Long.MAX_VALUE).subtract(BigDecimal.valueOf(Long.MIN_VALUE))
                .divide(BigDecimal.valueOf(2));
        double pop = half.multiply(half).doubleValue();
        double samp = half.multiply(half).multiply(BigDecimal.valueOf(2)).doubleValue();
        assertEquals(List.of(row(pop, samp, half.doubleValue(), half.multiply(half).multiply(BigDecimal.valueOf(2))
                .sqrt(MathContext.DECIMAL128).doubleValue())),
                rows(s, "SELECT VAR_POP(v), VAR_SAMP(v), STDDEV_POP(v), STDDEV_SAMP(v) FROM m"));
        // DECIMAL: 10^-4 apart at 10^14.
        assertEquals(List.of(row(new BigDecimal("6.666666666666666666666666666666667E-9").doubleValue(), 1.0E-8,
                new BigDecimal("6.666666666666666666666666666666667E-9").sqrt(MathContext.DECIMAL128).doubleValue(),
                1.0E-4)), rows(s, "SELECT VAR_POP(v), VAR_SAMP(v), STDDEV_POP(v), STDDEV_SAMP(v) FROM c"));
        // Expressions of exact types are exact too.
        assertEquals(List.of(row(new BigDecimal(2.0E12).divide(BigDecimal.valueOf(3), MathContext.DECIMAL128)
                .doubleValue(), 1.0)), rows(s, "SELECT VAR_POP(CAST(v AS BIGINT) * 1000000), VAR_SAMP(v - 1000000000)"
                + " FROM i"));
    }

    @Test
    void doublesKeepTheSpreadOfValuesFarFromZero() throws SqlError {
        assertEquals(List.of(OF_THREE), rows(s, "SELECT " + ALL + " FROM d WHERE k < 10"));
        assertEquals(List.of(OF_THREE), rows(s, "SELECT " + ALL + " FROM d WHERE k BETWEEN 11 AND 13"));
        assertEquals(List.of(row(1.0E30, 2.0E30, 1.0E15, Math.sqrt(2.0E30))),
                rows(s, "SELECT VAR_POP(v), VAR_SAMP(v), STDDEV_POP(v), STDDEV_SAMP(v) FROM d WHERE k > 20"));
        // A spread whose square overflows is Infinity, never negative; its running mean stays finite.
        update(s, "INSERT INTO d VALUES (31, 1.0E308), (32, -1.0E308), (33, 0.0)");
        double inf = Double.POSITIVE_INFINITY;
        assertEquals(List.of(row(inf, inf, inf, inf)),
                rows(s, "SELECT VAR_POP(v), VAR_SAMP(v), STDDEV_POP(v), STDDEV_SAMP(v) FROM d WHERE k > 30"));
        assertEquals(List.of(row(Double.NaN)), rows(s, "SELECT VAR_POP(v * 1.0E300) FROM d WHERE k < 10"));
    }

    @Test
    void resultsAreDoublesAndNullForTooFewRows() throws SqlError {
        for (String table : List.of("i", "b", "c", "d")) {
            try (SqlStatement st = s.prepare("SELECT " + ALL + " FROM " + table);
                 SqlResult r = st.execute(List.of(), 0)) {
                for (ColumnInfo column : r.columns()) {
                    assertEquals(Types.DOUBLE, column.jdbcType(), table + ": " + column);
                    assertEquals(true, column.nullable(), table + ": " + column);
                }
            }
            // One row: the population's spread is 0, a sample's is unknown; no row: both unknown. NULLs skipped.
            assertEquals(List.of(row(0.0, null, 0.0, null, null, null)),
                    rows(s, "SELECT " + ALL + " FROM " + table + " WHERE k = 1 OR v IS NULL"));
            assertEquals(List.of(Arrays.asList(null, null, null, null, null, null)),
                    rows(s, "SELECT " + ALL + " FROM " + table + " WHERE k < 0"));
            assertEquals(List.of(), rows(s, "SELECT k, " + ALL + " FROM " + table + " WHERE k < 0 GROUP BY k"));
        }
    }

    @Test
    void groupsHavingAndDistinct() throws SqlError {
        update(s, "INSERT INTO i VALUES (5, 1000000001), (6, 1000000001), (7, -5), (8, 5)");
        // Groups: k <= 3 (three consecutive), k = 4 (NULL), 5..6 (one value twice), 7..8 (-5 and 5).
        String group = "CASE WHEN k <= 3 THEN 1 WHEN k = 4 THEN 2 WHEN k <= 6 THEN 3 ELSE 4 END";
        assertEquals(List.of(row(1, 2.0 / 3, 1.0), row(2, null, null), row(3, 0.0, 0.0), row(4, 25.0, 50.0)),
                rows(s, "SELECT " + group + " AS g, VAR_POP(v), VAR_SAMP(v) FROM i GROUP BY " + group
                        + " ORDER BY g"));
        // A group of one row per key: VAR_SAMP is NULL in each.
        assertEquals(List.of(row(1, 0.0, null), row(2, 0.0, null)),
                rows(s, "SELECT k, VAR_POP(v), VAR_SAMP(v) FROM i WHERE k < 3 GROUP BY k ORDER BY k"));
        assertEquals(List.of(row(4, 50.0)), rows(s, "SELECT " + group + " AS g, VARIANCE(v) FROM i GROUP BY "
                + group + " HAVING VARIANCE(v) > 10 ORDER BY g"));
        // 1000000001 three times counts once.
        assertEquals(List.of(row(Math.sqrt(2.0 / 3))), rows(s,
                "SELECT STDDEV_POP(DISTINCT v) FROM i WHERE v > 1000"));
        assertEquals(List.of(row(2.0 / 3, 2.0 / 3)), rows(s,
                "SELECT VAR_POP(v) FILTER (WHERE k <= 3), VAR_POP(DISTINCT v) FILTER (WHERE v > 1000) FROM i"));
    }

    @Test
    void windows() throws SqlError {
        assertEquals(List.of(row(1, null, 0.0), row(2, 0.5, 0.25), row(3, 1.0, 2.0 / 3), row(4, 1.0, 2.0 / 3)),
                rows(s, "SELECT k, VAR_SAMP(v) OVER (ORDER BY k), VAR_POP(v) OVER (ORDER BY k) FROM i ORDER BY k"));
        assertEquals(List.of(row(1, 0.0), row(2, 0.25), row(3, 0.25), row(4, 0.0)), rows(s,
                "SELECT k, VAR_POP(v) OVER (ORDER BY k ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM d"
                        + " WHERE k < 10 ORDER BY k"));
        assertEquals(List.of(row(1, 1.0), row(2, 1.0), row(3, 1.0), row(4, 1.0)), rows(s,
                "SELECT k, STDDEV(v) OVER (PARTITION BY k < 10) FROM b ORDER BY k"));
    }

    @Test
    void covariancesAndRegressionSumsAreExactOrWelfords() throws SqlError {
        String all = "COVAR_POP(v, k), COVAR_SAMP(v, k), REGR_SXX(v, k), REGR_SYY(v, k), REGR_COUNT(v, k)";
        // v is 10^9 (or 10^18) + k: the covariance of v and k is k's variance; NULL values of v skip their rows.
        List<Object> ofThree = row(2.0 / 3, 1.0, 2.0, 2.0, 3L);
        assertEquals(List.of(ofThree), rows(s, "SELECT " + all + " FROM i"));
        assertEquals(List.of(row(2.0 / 3, 1.0, 2.0, 2.0, 3L)), rows(s, "SELECT " + all + " FROM d WHERE k < 10"));
        // BIGINT 10^18 + 1, 2, 3 against keys 1, 2, 4 (key 3's value is NULL): products near 10^18 each.
        assertEquals(List.of(row(1.0, 1.5, 14.0 / 3, 2.0, 3L)), rows(s, "SELECT COVAR_POP(v, k),"
                + " COVAR_SAMP(v, k), REGR_SXX(v, k), REGR_SYY(v - 1000000000000000000, k), REGR_COUNT(v, k) FROM b"));
        // DECIMAL against an INTEGER: 10^-4 apart against 1 apart.
        assertEquals(List.of(row(new BigDecimal("6.666666666666666666666666666666667E-5").doubleValue(), 1.0E-4)),
                rows(s, "SELECT COVAR_POP(v, k), COVAR_SAMP(v, k) FROM c"));
        // One pair: no sample covariance; the sums of squares are 0. No pair: NULL, REGR_COUNT 0.
        assertEquals(List.of(row(0.0, null, 0.0, 0.0, 1L)), rows(s, "SELECT " + all + " FROM i WHERE k = 1"));
        assertEquals(List.of(row(null, null, null, null, 0L)), rows(s, "SELECT " + all + " FROM i WHERE k < 0"));
        assertEquals(List.of(row(1, 0.0), row(2, 0.25), row(3, 0.25)), rows(s,
                "SELECT k, COVAR_POP(v, k) OVER (ORDER BY k ROWS 1 PRECEDING) FROM i WHERE k < 4 ORDER BY k"));
    }

    @Test
    void aNonNumericArgumentIsRefused() {
        SqlTestSupport.fails(SqlState.SYNTAX_ERROR, s, "SELECT VAR_POP(v > 0) FROM i");
        SqlTestSupport.fails(SqlState.SYNTAX_ERROR, s, "SELECT STDDEV(v, v) FROM i");
        SqlTestSupport.fails(SqlState.SYNTAX_ERROR, s, "SELECT COVAR_POP(v) FROM i");
        SqlTestSupport.fails(SqlState.SYNTAX_ERROR, s, "SELECT COVAR_SAMP(v, k > 0) FROM i");
    }
}
