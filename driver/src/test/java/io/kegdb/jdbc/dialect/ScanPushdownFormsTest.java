package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.Date;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.rows;
import static io.kegdb.jdbc.dialect.Databases.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Every condition, ordering and count the scan evaluates on stored bytes (value tests, top-N by value, counts with
 * value tests, key-ordered limits under a residual filter) answers as H2 does, written with literals and with
 * parameters (NULLs placed explicitly where an order has them: the two defaults differ), on VARCHAR (with texts whose UTF-8 and UTF-16 orders differ), BIGINT, INTEGER and DATE values and
 * NULLs.
 */
class ScanPushdownFormsTest {

    private static Connection kegdb;
    private static Connection h2;

    /** Texts around the places where byte order and Java's string order could part, and LIKE's wildcards. */
    private static final List<String> TEXTS = List.of("", "a", "ab", "abc", "abc%", "a_c", "a%c", "b", "Z", "é",
            "\uE000x", "\uFFFF", "\uD83D\uDE00", "\uD83D\uDE00a", "v1", "v10", "v2");

    @BeforeAll
    static void load() throws SQLException {
        kegdb = Databases.kegdb();
        h2 = Databases.h2();
        Random r = new Random(20261202);
        for (Connection c : List.of(kegdb, h2)) {
            exec(c, "CREATE TABLE ts (k INTEGER PRIMARY KEY, v VARCHAR(20))",
                    "CREATE TABLE tb (k VARCHAR(10) PRIMARY KEY, v BIGINT)",
                    "CREATE TABLE ti (k BIGINT PRIMARY KEY, v INTEGER)",
                    "CREATE TABLE td (k INTEGER PRIMARY KEY, v DATE)");
        }
        for (int i = 0; i < 300; i++) {
            String text = i % 11 == 0 ? null : TEXTS.get(r.nextInt(TEXTS.size()));
            Long big = i % 13 == 0 ? null : (long) (r.nextInt(41) - 20) * 1_000_000_007L;
            Integer small = i % 17 == 0 ? null : r.nextInt(61) - 30;
            Date day = i % 7 == 0 ? null : Date.valueOf(java.time.LocalDate.of(1969, 12, 1).plusDays(r.nextInt(90)));
            for (Connection c : List.of(kegdb, h2)) {
                update(c, "INSERT INTO ts VALUES (?, ?)", i, text);
                update(c, "INSERT INTO tb VALUES (?, ?)", String.format("k%03d", i), big);
                update(c, "INSERT INTO ti VALUES (?, ?)", (long) i - 150, small);
                update(c, "INSERT INTO td VALUES (?, ?)", i, day);
            }
        }
    }

    @AfterAll
    static void close() throws SQLException {
        kegdb.close();
        h2.close();
    }

    /** The conditions on v, each with one operand and with two, as literal texts of the table's type. */
    private static List<String> conditions(String x, String y, String key) {
        return List.of("v = " + x, "v <> " + x, "v < " + x, "v <= " + x, "v > " + x, "v >= " + x,
                "v BETWEEN " + x + " AND " + y, "v IN (" + x + ", " + y + ")", "v NOT IN (" + x + ", " + y + ")",
                "v > " + x + " AND v < " + y, "v < " + x + " OR v > " + y, "v IS NULL", "v IS NOT NULL",
                "(v = " + x + " OR v IS NULL)", "k > " + key + " AND v >= " + x);
    }

    private static List<String> textConditions() {
        List<String> out = new ArrayList<>();
        for (String[] xy : List.of(new String[] {"a", "b"}, new String[] {"", "\uE000x"},
                new String[] {"\uD83D\uDE00", "\uFFFF"}, new String[] {"v1", "v2"}, new String[] {"é", "\uD83D\uDE00a"})) {
            out.addAll(conditions(quote(xy[0]), quote(xy[1]), "20"));
        }
        for (String pattern : List.of("a%", "a%%", "ab", "%c", "a_c", "", "%", "\uD83D\uDE00%", "v1%")) {
            out.add("v LIKE " + quote(pattern));
            out.add("v NOT LIKE " + quote(pattern));
        }
        return out;
    }

    private static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    @Test
    void valueTestsAnswerAsH2() throws SQLException {
        check("ts", textConditions());
        check("tb", conditions("-3000000021", "5000000035", "'k020'"));
        check("ti", conditions("-7", "12", "-100"));
        check("td", conditions("DATE '1969-12-20'", "DATE '1970-01-15'", "20"));
    }

    private static void check(String table, List<String> conditions) throws SQLException {
        for (String c : conditions) {
            same("SELECT k, v FROM " + table + " WHERE " + c + " ORDER BY k");
            same("SELECT COUNT(*) FROM " + table + " WHERE " + c);
            same("SELECT MIN(k), MAX(k) FROM " + table + " WHERE " + c);
            same("SELECT k FROM " + table + " WHERE " + c + " ORDER BY k DESC LIMIT 3 OFFSET 1");
            same("SELECT k, v FROM " + table + " WHERE " + c + " ORDER BY v NULLS FIRST, k LIMIT 4");
            same("SELECT k, v FROM " + table + " WHERE " + c + " ORDER BY v DESC NULLS LAST, k DESC LIMIT 5 OFFSET 2");
        }
    }

    @Test
    void parametersAnswerAsLiterals() throws SQLException {
        List<String> forms = List.of("v = ?", "v <> ?", "v < ?", "v <= ?", "v > ?", "v >= ?", "v BETWEEN ? AND ?");
        for (String form : forms) {
            int params = form.contains("BETWEEN") ? 2 : 1;
            for (String[] xy : List.of(new String[] {"a", "b"}, new String[] {"\uE000x", "\uD83D\uDE00"},
                    new String[] {"v1", "v10"})) {
                Object[] args = params == 2 ? new Object[] {xy[0], xy[1]} : new Object[] {xy[0]};
                same("SELECT k FROM ts WHERE " + form + " ORDER BY k", args);
                same("SELECT COUNT(*) FROM ts WHERE " + form, args);
                same("SELECT k, v FROM ts WHERE " + form + " ORDER BY v NULLS LAST, k LIMIT 3", args);
            }
            Object[] numbers = params == 2 ? new Object[] {-7, 12} : new Object[] {-7};
            same("SELECT k FROM ti WHERE " + form + " ORDER BY k", numbers);
            same("SELECT k, v FROM ti WHERE " + form + " ORDER BY v DESC NULLS FIRST, k LIMIT 3", numbers);
        }
        for (String pattern : List.of("a%", "%c", "a_c", "v1%", "")) {
            same("SELECT k FROM ts WHERE v LIKE ? ORDER BY k", pattern);
            same("SELECT k FROM ts WHERE k >= ? AND v LIKE ? ORDER BY k LIMIT 3", 50, pattern);
        }
        same("SELECT k FROM ts WHERE v = ? ORDER BY k", (Object) null);
        same("SELECT COUNT(*) FROM ts WHERE v > ?", (Object) null);
        same("SELECT k, v FROM ts ORDER BY v NULLS FIRST, k LIMIT ? OFFSET ?", 4, 3);
        same("SELECT k, v FROM ts ORDER BY v NULLS LAST, k DESC LIMIT ? OFFSET ?", 4, 3);
        same("SELECT k, v FROM ts ORDER BY v NULLS LAST, k LIMIT ?", 0);
    }

    @Test
    void residualFiltersUnderAKeyOrderedLimitAnswerAsH2() throws SQLException {
        for (String order : List.of("k", "k DESC")) {
            same("SELECT k, v FROM ts WHERE UPPER(v) LIKE 'A%' ORDER BY " + order + " LIMIT 5");
            same("SELECT k, v FROM ts WHERE k > 10 AND CHAR_LENGTH(v) = 2 ORDER BY " + order + " LIMIT 3 OFFSET 2");
            same("SELECT k FROM ti WHERE MOD(v, 3) = 1 AND v > -20 ORDER BY " + order + " LIMIT 4");
            same("SELECT k, v FROM tb WHERE v / 2 > 0 ORDER BY " + order + " LIMIT 6");
        }
    }

    @Test
    void orderedScansUnderWindowsAnswerAsH2() throws SQLException {
        // A window returns its rows grouped by partition: the ORDER BY above it still sorts.
        same("SELECT k, ROW_NUMBER() OVER (ORDER BY k), COUNT(*) OVER (PARTITION BY v) FROM ti ORDER BY k");
        same("SELECT k, COUNT(*) OVER (PARTITION BY v) FROM ts WHERE UPPER(v) LIKE 'A%' ORDER BY k LIMIT 7");
    }

    private static void same(String sql, Object... params) throws SQLException {
        assertEquals(rows(h2, sql, params), rows(kegdb, sql, params), sql);
    }
}
