package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every variance and standard deviation spelling (VAR_POP, VAR_SAMP, VARIANCE, STDDEV_POP, STDDEV_SAMP, STDDEV),
 * and COVAR_POP, COVAR_SAMP, REGR_SXX and REGR_SYY of a value and the (INTEGER) key, over INTEGER, BIGINT,
 * DECIMAL and DOUBLE values answers as H2 does, with H2's result type (DOUBLE): plain, over no row and one row,
 * grouped (groups of one row too), with HAVING, DISTINCT, FILTER, an expression argument, bound parameters, and
 * as window functions over growing and sliding frames: 168 statements of one argument and 64 of two, each
 * planned once (the ones with parameters run four times), 352 answers. The values stay where H2's own
 * arithmetic (doubles, Welford's) is accurate to far more than the 1e-9 the answers are compared to; far from
 * zero, where H2 loses the spread too, {@code VariancesTest} in the SQL module checks exact values.
 */
class VarianceFormsTest {

    private static final List<String> FUNCTIONS = List.of("VAR_POP", "VAR_SAMP", "VARIANCE", "STDDEV_POP",
            "STDDEV_SAMP", "STDDEV");
    private static final List<String> PAIR_FUNCTIONS = List.of("COVAR_POP", "COVAR_SAMP", "REGR_SXX", "REGR_SYY");
    private static final List<String> TABLES = List.of("s_int", "s_big", "s_dec", "s_dbl");
    private static final int ROWS = 60;
    private static final double RELATIVE = 1e-9;

    private static Connection kegdb;
    private static Connection h2;

    @BeforeAll
    static void load() throws SQLException {
        kegdb = Databases.kegdb();
        h2 = Databases.h2();
        List<String> types = List.of("INTEGER", "BIGINT", "DECIMAL(12,3)", "DOUBLE");
        for (Connection c : List.of(kegdb, h2)) {
            for (int t = 0; t < TABLES.size(); t++) {
                exec(c, "CREATE TABLE " + TABLES.get(t) + " (k INTEGER PRIMARY KEY, v " + types.get(t) + ")");
            }
        }
        Random r = new Random(20261202);
        for (int k = 1; k <= ROWS; k++) {
            // About a quarter NULL, and keys 41..45 NULL only; a few values a million (or a billion) away.
            boolean isNull = r.nextInt(4) == 0 || (k >= 41 && k <= 45);
            int small = r.nextInt(2001) - 1000;
            boolean far = r.nextInt(5) == 0;
            Object[] values = {far ? small + 1_000_000 : small, far ? small * 1_000_000_007L : (long) small,
                BigDecimal.valueOf(r.nextInt(2_000_001) - 1_000_000L + (far ? 1_000_000_000L : 0), 3),
                far ? small * 1.0E6 : small * 0.25};
            for (Connection c : List.of(kegdb, h2)) {
                for (int t = 0; t < TABLES.size(); t++) {
                    update(c, "INSERT INTO " + TABLES.get(t) + " VALUES (?, ?)", k, isNull ? null : values[t]);
                }
            }
        }
    }

    @AfterAll
    static void close() throws SQLException {
        kegdb.close();
        h2.close();
    }

    @Test
    void everyFormAnswersAsH2() throws SQLException {
        for (String t : TABLES) {
            for (String f : FUNCTIONS) {
                same("SELECT " + f + "(v), " + f + "(DISTINCT v), " + f + "(v) FILTER (WHERE k > 30), " + f
                        + "(v) FILTER (WHERE k = 7) FROM " + t);
                // One plan, bound to a range, no row, one row and NULLs only.
                String range = "SELECT " + f + "(v), COUNT(v) FROM " + t + " WHERE k BETWEEN ? AND ?";
                for (int[] bounds : new int[][] {{10, 40}, {-5, -1}, {7, 7}, {41, 45}}) {
                    same(range, bounds[0], bounds[1]);
                }
                same("SELECT MOD(k, 5) AS g, " + f + "(v), COUNT(*) FROM " + t + " GROUP BY MOD(k, 5) ORDER BY g");
                same("SELECT k, " + f + "(v) FROM " + t + " WHERE k BETWEEN 38 AND 48 GROUP BY k ORDER BY k");
                same("SELECT MOD(k, 4) AS g, " + f + "(v) FROM " + t + " GROUP BY MOD(k, 4) HAVING " + f
                        + "(v) > 1 ORDER BY g");
                same("SELECT " + f + "(v * 2 + 1), " + f + "(-v) FROM " + t + " WHERE k <= 50");
                same("SELECT k, " + f + "(v) OVER (ORDER BY k), " + f + "(v) OVER (PARTITION BY MOD(k, 3) ORDER BY k"
                        + " ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) FROM " + t + " ORDER BY k");
            }
        }
    }

    @Test
    void covariancesAndRegressionSumsAnswerAsH2() throws SQLException {
        for (String t : TABLES) {
            for (String f : PAIR_FUNCTIONS) {
                same("SELECT " + f + "(v, k), " + f + "(k, v), " + f + "(v, v * 3 - 1), " + f + "(v, k) FILTER"
                        + " (WHERE k = 7) FROM " + t);
                String range = "SELECT " + f + "(v, k), REGR_COUNT(v, k) FROM " + t + " WHERE k BETWEEN ? AND ?";
                for (int[] bounds : new int[][] {{10, 40}, {-5, -1}, {7, 7}, {41, 45}}) {
                    same(range, bounds[0], bounds[1]);
                }
                same("SELECT MOD(k, 5) AS g, " + f + "(k, v) FROM " + t + " GROUP BY MOD(k, 5) ORDER BY g");
                same("SELECT k, " + f + "(v, k) OVER (ORDER BY k ROWS BETWEEN 3 PRECEDING AND CURRENT ROW) FROM "
                        + t + " ORDER BY k");
            }
        }
    }

    /** Asserts that KegDB answers {@code sql} with H2's column types and, to a relative 1e-9, H2's rows. */
    private static void same(String sql, Object... params) throws SQLException {
        Answer expected = answer(h2, sql, params);
        Answer actual = answer(kegdb, sql, params);
        assertEquals(expected.types, actual.types, () -> "column types of " + sql);
        assertEquals(expected.rows.size(), actual.rows.size(), () -> sql + ": " + actual.rows);
        for (int i = 0; i < expected.rows.size(); i++) {
            List<Object> want = expected.rows.get(i);
            List<Object> got = actual.rows.get(i);
            for (int c = 0; c < want.size(); c++) {
                assertTrue(close(want.get(c), got.get(c)), sql + ": row " + i + " is " + got + ", H2 " + want);
            }
        }
    }

    private static boolean close(Object want, Object got) {
        if (want == null || got == null) {
            return want == got;
        }
        if (want instanceof Double w && got instanceof Double g) {
            return Math.abs(w - g) <= RELATIVE * Math.max(Math.abs(w), Math.abs(g));
        }
        return new BigDecimal(want.toString()).compareTo(new BigDecimal(got.toString())) == 0;
    }

    private record Answer(List<Integer> types, List<List<Object>> rows) {
    }

    private static Answer answer(Connection c, String sql, Object... params) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) {
                ps.setObject(i + 1, params[i]);
            }
            try (ResultSet rs = ps.executeQuery()) {
                ResultSetMetaData meta = rs.getMetaData();
                List<Integer> types = new ArrayList<>();
                for (int i = 1; i <= meta.getColumnCount(); i++) {
                    types.add(meta.getColumnType(i));
                }
                List<List<Object>> rows = new ArrayList<>();
                while (rs.next()) {
                    List<Object> row = new ArrayList<>();
                    for (int i = 1; i <= types.size(); i++) {
                        row.add(rs.getObject(i));
                    }
                    rows.add(row);
                }
                return new Answer(types, rows);
            }
        }
    }
}
