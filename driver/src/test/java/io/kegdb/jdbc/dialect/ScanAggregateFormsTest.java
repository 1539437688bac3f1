package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.Connection;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.rows;
import static io.kegdb.jdbc.dialect.Databases.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every aggregate form the scan source computes on stored bytes (COUNT, COUNT(col), COUNT(DISTINCT), SUM, AVG,
 * MIN, MAX; no GROUP BY, GROUP BY the value, GROUP BY the key, DISTINCT) over every value type, NULL-heavy data,
 * empty ranges and each kind of condition (key ranges and points, value tests, a residual filter Calcite keeps),
 * answers row for row as H2 does, and exactly as KegDB's own Calcite operators do: the same statement with a
 * condition the scan cannot take (so Calcite aggregates the scan's rows) gives the same values of the same types.
 */
class ScanAggregateFormsTest {

    private static Connection kegdb;
    private static Connection h2;

    /** Table, value type, and whether SUM and AVG apply. */
    private record Table(String name, String valueType, boolean numeric) {
    }

    private static final List<Table> TABLES = List.of(new Table("g_int", "INTEGER", true),
            new Table("g_big", "BIGINT", true), new Table("g_dbl", "DOUBLE", true),
            new Table("g_dec", "DECIMAL(12,3)", true), new Table("g_txt", "VARCHAR(20)", false),
            new Table("g_day", "DATE", false), new Table("g_ts", "TIMESTAMP", false),
            new Table("g_bool", "BOOLEAN", false));
    private static final int ROWS = 200;

    @BeforeAll
    static void load() throws SQLException {
        kegdb = Databases.kegdb();
        h2 = Databases.h2();
        Random r = new Random(20261203);
        for (Connection c : List.of(kegdb, h2)) {
            for (Table t : TABLES) {
                exec(c, "CREATE TABLE " + t.name + " (k INTEGER PRIMARY KEY, v " + t.valueType + ")");
            }
            exec(c, "CREATE TABLE g_vkey (k VARCHAR(10) PRIMARY KEY, v BIGINT)");
        }
        for (int i = 0; i < ROWS; i++) {
            // NULL-heavy: about half the rows; keys 100..149 hold only NULLs.
            boolean isNull = r.nextInt(2) == 0 || (i >= 100 && i < 150);
            Object[] values = {
                (int) (r.nextInt(41) - 20) * (r.nextInt(5) == 0 ? 100_000_000 : 1),
                (long) (r.nextInt(41) - 20) * (r.nextInt(4) == 0 ? 1_000_000_000_007L : 1L),
                (r.nextInt(41) - 20) * (r.nextBoolean() ? 0.25 : 1.0E12),
                BigDecimal.valueOf(r.nextInt(200_001) - 100_000, 3),
                List.of("", "a", "ab", "b", "é", "\uD83D\uDE00", "\uFFFF", "v1", "v10").get(r.nextInt(9)),
                Date.valueOf(LocalDate.of(1969, 12, 1).plusDays(r.nextInt(60))),
                Timestamp.valueOf(LocalDateTime.of(1970, 1, 1, 0, 0).plusSeconds(r.nextInt(200) * 3601L - 100_000)),
                r.nextBoolean()};
            for (Connection c : List.of(kegdb, h2)) {
                for (int j = 0; j < TABLES.size(); j++) {
                    update(c, "INSERT INTO " + TABLES.get(j).name + " VALUES (?, ?)", i, isNull ? null : values[j]);
                }
                update(c, "INSERT INTO g_vkey VALUES (?, ?)", String.format("k%03d", i), isNull ? null : values[1]);
            }
        }
    }

    @AfterAll
    static void close() throws SQLException {
        kegdb.close();
        h2.close();
    }

    /** Conditions: none, key ranges (one empty, one of NULLs only), points, value tests, a residual filter. */
    private static List<String> conditions(String key, String keyHigh) {
        return List.of("", " WHERE k BETWEEN " + key + " AND " + keyHigh, " WHERE k > " + keyHigh + " AND k < "
                + key, " WHERE k IN (" + key + ", " + keyHigh + ", 3, 110)", " WHERE v IS NOT NULL",
                " WHERE v IS NULL AND k >= " + key, " WHERE k BETWEEN 100 AND 149");
    }

    /** Every call on both columns, in one statement. */
    private static String calls(Table t) {
        return "COUNT(*), COUNT(v), COUNT(DISTINCT v), MIN(v), MAX(v), MIN(k), MAX(k), COUNT(DISTINCT k)"
                + (t.numeric ? ", SUM(v), AVG(v), SUM(k), AVG(k)" : "");
    }

    @Test
    void aggregatesAnswerAsH2AndAsCalcite() throws SQLException {
        for (Table t : TABLES) {
            for (String where : conditions("20", "160")) {
                same("SELECT " + calls(t) + " FROM " + t.name + where);
                String byValue = t.numeric ? "COUNT(*), COUNT(v), MIN(k), MAX(k), SUM(k), AVG(k), SUM(v), MAX(v)"
                        : "COUNT(*), COUNT(v), MIN(k), MAX(k), SUM(k), AVG(k), MIN(v)";
                same("SELECT v, " + byValue + " FROM " + t.name + where + " GROUP BY v ORDER BY v NULLS FIRST");
                String byKey = t.numeric ? "v, COUNT(*), COUNT(v), COUNT(DISTINCT v), SUM(v), AVG(v), MIN(v)"
                        : "v, COUNT(*), COUNT(v), COUNT(DISTINCT v), MIN(v), MAX(v)";
                same("SELECT k, " + byKey + " FROM " + t.name + where + " GROUP BY k, v ORDER BY k");
            }
            same("SELECT DISTINCT v FROM " + t.name + " WHERE k < 120 ORDER BY v NULLS FIRST");
        }
        for (String where : conditions("'k020'", "'k160'")) {
            if (!where.contains(" IN ")) {
                same("SELECT COUNT(*), SUM(v), AVG(v), MIN(k), MAX(k), COUNT(DISTINCT v) FROM g_vkey"
                        + where.replace("100 AND 149", "'k100' AND 'k149'"));
            }
        }
        same("SELECT v, COUNT(*), MIN(k), MAX(k) FROM g_vkey WHERE k > 'k050' GROUP BY v ORDER BY v NULLS FIRST");
        same("SELECT COUNT(*), MIN(k), MAX(v) FROM g_vkey WHERE k IN ('k020', 'k160', 'k003', 'k110')");
    }

    @Test
    void valueTestsAndParametersAnswerAsH2AndAsCalcite() throws SQLException {
        same("SELECT v, COUNT(*) FROM g_int WHERE k BETWEEN ? AND ? AND v >= ? GROUP BY v ORDER BY v", 10, 150, -3);
        same("SELECT MIN(v), MAX(v), SUM(v), AVG(v), COUNT(v), COUNT(DISTINCT v) FROM g_big WHERE k BETWEEN ? AND ?",
                5, 180);
        same("SELECT MIN(v), MAX(v), SUM(v), AVG(v) FROM g_dec WHERE k BETWEEN ? AND ? AND v IS NOT NULL", 0, 99);
        same("SELECT COUNT(*), MIN(k) FROM g_txt WHERE v LIKE 'a%' AND k < ?", 150);
        same("SELECT v, COUNT(*), SUM(k) FROM g_txt WHERE v > ? GROUP BY v ORDER BY v", "a");
        same("SELECT v, COUNT(*) FROM g_day WHERE v BETWEEN ? AND ? GROUP BY v ORDER BY v",
                Date.valueOf("1969-12-10"), Date.valueOf("1969-12-20"));
        same("SELECT MAX(v), MIN(v), COUNT(DISTINCT v) FROM g_ts WHERE k > ? AND v > ?", 30,
                Timestamp.valueOf("1969-12-31 12:00:00"));
        same("SELECT SUM(v), COUNT(*) FROM g_int WHERE v = ?", (Object) null);
        same("SELECT k, SUM(v) FROM g_dbl WHERE k BETWEEN ? AND ? GROUP BY k ORDER BY k", 40, 60);
        // A HAVING and an ORDER BY on the results run above the scan's aggregate.
        same("SELECT v, COUNT(*) AS c FROM g_int WHERE k < ? GROUP BY v HAVING COUNT(*) > 1 ORDER BY c DESC, v", 190);
    }

    /**
     * Asserts that KegDB answers {@code sql} as H2 does (numbers compared to 9 significant digits, since the
     * two type AVG and SUM apart) and exactly as its own Calcite operators do.
     */
    private static void same(String sql, Object... params) throws SQLException {
        List<List<Object>> answer = rows(kegdb, sql, params);
        assertEquals(normalized(rows(h2, sql, params)), normalized(answer), sql);
        assertEquals(answer, rows(kegdb, byCalcite(sql), params), () -> "by Calcite: " + byCalcite(sql));
    }

    /**
     * {@code sql} with a condition that holds on every row but that the scan cannot take (a function of the key),
     * so the rows reach Calcite's aggregate.
     */
    private static String byCalcite(String sql) {
        String always = "CHAR_LENGTH(CAST(k AS VARCHAR(20))) > 0";
        int where = sql.indexOf(" WHERE ");
        if (where >= 0) {
            return sql.substring(0, where) + " WHERE " + always + " AND " + sql.substring(where + 7);
        }
        int tail = firstOf(sql, " GROUP BY ", " ORDER BY ");
        return tail < 0 ? sql + " WHERE " + always : sql.substring(0, tail) + " WHERE " + always + sql.substring(tail);
    }

    private static int firstOf(String sql, String... words) {
        int best = -1;
        for (String w : words) {
            int i = sql.indexOf(w);
            if (i >= 0 && (best < 0 || i < best)) {
                best = i;
            }
        }
        return best;
    }

    private static List<List<Object>> normalized(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<Object> r = new ArrayList<>();
            for (Object v : row) {
                r.add(v instanceof Number n ? new BigDecimal(n.toString()).round(new MathContext(9))
                        .stripTrailingZeros().toPlainString() : v == null ? null : v.toString());
            }
            out.add(r);
        }
        return out;
    }
}
