package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.failure;
import static io.kegdb.jdbc.dialect.Databases.rows;
import static io.kegdb.jdbc.dialect.Databases.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The common function spellings (docs/SQL.md, "Functions") give H2's answers: the same data in both, the same
 * query text, the same rows. Values are compared as text, so a function whose result type differs (an INTEGER
 * where H2 answers BIGINT) still has to give the same value.
 */
class CommonFunctionsTest {

    private static Connection keg;
    private static Connection h2;

    @BeforeAll
    static void load() throws SQLException {
        keg = Databases.kegdb();
        h2 = Databases.h2();
        for (Connection c : List.of(keg, h2)) {
            exec(c, "CREATE TABLE s (k INTEGER PRIMARY KEY, v VARCHAR(40))",
                    "CREATE TABLE n (k INTEGER PRIMARY KEY, v DOUBLE)",
                    "CREATE TABLE d (k INTEGER PRIMARY KEY, v TIMESTAMP)");
            update(c, "INSERT INTO s VALUES (1, 'hello world'), (2, ''), (3, NULL), (4, 'Ab-12-cD'), (5, 'ünïcode ß')");
            update(c, "INSERT INTO n VALUES (?, ?), (?, ?), (3, NULL), (?, ?)", 1, 0.5, 2, -2.25, 4, 3.0);
            update(c, "INSERT INTO d VALUES (?, ?), (?, ?), (3, NULL)",
                    1, Timestamp.valueOf("2024-02-29 13:45:56.789"), 2, Timestamp.valueOf("1969-12-31 23:59:59"));
        }
    }

    @AfterAll
    static void close() throws SQLException {
        keg.close();
        h2.close();
    }

    private static final String[] QUERIES = {
        "SELECT k, LENGTH(v) FROM s ORDER BY k",
        "SELECT k, SUBSTR(v, 2) FROM s ORDER BY k",
        "SELECT k, SUBSTR(v, 2, 3) FROM s ORDER BY k",
        "SELECT k, SUBSTR(v, -3) FROM s ORDER BY k",
        "SELECT k, SUBSTR(v, -4, 2) FROM s ORDER BY k",
        "SELECT k, SUBSTRING(v FROM 3 FOR 2) FROM s ORDER BY k",
        "SELECT k, INSTR(v, 'o') FROM s ORDER BY k",
        "SELECT k, INSTR(v, 'zz') FROM s ORDER BY k",
        "SELECT k, LPAD(v, 12, '*') FROM s ORDER BY k",
        "SELECT k, RPAD(v, 12, '.') FROM s ORDER BY k",
        "SELECT k, LPAD(v, 3, '*') FROM s ORDER BY k",
        "SELECT k, LPAD(v, 14) FROM s ORDER BY k",
        "SELECT k, LTRIM('  ' || v || '  '), RTRIM('  ' || v || '  ') FROM s ORDER BY k",
        "SELECT k, LEFT(v, 3), RIGHT(v, 2) FROM s ORDER BY k",
        "SELECT k, REPEAT(v, 2) FROM s ORDER BY k",
        "SELECT k, SPACE(k) || '|' FROM s ORDER BY k",
        "SELECT k, CHR(64 + k) FROM s ORDER BY k",
        "SELECT k, CONCAT(v, '-', k) FROM s ORDER BY k",
        "SELECT k, CONCAT(v, NULL) FROM s ORDER BY k",
        "SELECT k, v || '!' FROM s ORDER BY k",
        "SELECT k, CONCAT_WS(',', v, 'x', NULL, 'y') FROM s ORDER BY k",
        "SELECT k, UPPER(v), LOWER(v), TRIM(v), CHAR_LENGTH(v), POSITION('l' IN v) FROM s ORDER BY k",
        "SELECT k, REPLACE(v, 'l', 'L') FROM s ORDER BY k",
        "SELECT k FROM s WHERE REGEXP_LIKE(v, '^[a-z]+ [a-z]+$') ORDER BY k",
        "SELECT k FROM s WHERE REGEXP_LIKE(v, 'ab', 'i') ORDER BY k",
        "SELECT k, REGEXP_REPLACE(v, '[0-9]', '#') FROM s ORDER BY k",
        "SELECT k, IFNULL(v, 'none'), NVL(v, 'none'), COALESCE(v, 'none') FROM s ORDER BY k",
        "SELECT k, NVL2(v, UPPER(v), 'unset') FROM s ORDER BY k",
        "SELECT k, DECODE(k, 1, 'one', 2, 'two', 'many') FROM s ORDER BY k",
        "SELECT k, NULLIF(v, '') FROM s ORDER BY k",
        "SELECT k, GREATEST(v, 2), LEAST(v, 2) FROM n ORDER BY k",
        "SELECT k, GREATEST(k, v, 1), LEAST(k, v, 1) FROM n ORDER BY k",
        "SELECT k, ABS(v), CEIL(v), FLOOR(v), ROUND(v), SIGN(v), MOD(k, 3), POWER(v, 2), SQRT(ABS(v)) FROM n ORDER BY k",
        "SELECT k, COSH(v), SINH(v), TANH(v), EXP(v), LN(ABS(v) + 1), LOG10(ABS(v) + 1) FROM n ORDER BY k",
        "SELECT k, EXTRACT(YEAR FROM v), EXTRACT(MONTH FROM v), EXTRACT(DAY FROM v), EXTRACT(HOUR FROM v) FROM d ORDER BY k",
        "SELECT k, EXTRACT(MINUTE FROM v), EXTRACT(SECOND FROM v) FROM d ORDER BY k",
        "SELECT k, YEAR(v), MONTH(v), DAYOFMONTH(v), HOUR(v), MINUTE(v) FROM d ORDER BY k",
        "SELECT k, DATE_TRUNC('year', v), DATE_TRUNC('quarter', v), DATE_TRUNC('month', v) FROM d ORDER BY k",
        "SELECT k, DATE_TRUNC('day', v), DATE_TRUNC('hour', v), DATE_TRUNC('minute', v), DATE_TRUNC('second', v) FROM d ORDER BY k",
        "SELECT k, CAST(v AS DATE) FROM d ORDER BY k",
    };

    @Test
    void sameAnswersAsH2() throws SQLException {
        List<String> mismatches = new ArrayList<>();
        for (String q : QUERIES) {
            List<List<String>> expected = text(rows(h2, q));
            List<List<String>> actual = text(rows(keg, q));
            if (!expected.equals(actual)) {
                mismatches.add(q + "\n  H2:     " + expected + "\n  KegDB:  " + actual);
            }
        }
        assertTrue(mismatches.isEmpty(), String.join("\n", mismatches));
    }

    @Test
    void nowIsTheStatementsCurrentTimestamp() throws SQLException {
        List<List<Object>> r = rows(keg, "SELECT NOW(), CURRENT_TIMESTAMP, NOW(3) FROM s WHERE k = 1");
        assertEquals(r.get(0).get(1), r.get(0).get(0), "NOW() is CURRENT_TIMESTAMP");
        long now = System.currentTimeMillis();
        long got = ((Timestamp) r.get(0).get(2)).getTime();
        // CURRENT_TIMESTAMP is the session's local time; compare with the local clock, allowing a minute
        long local = now + java.util.TimeZone.getDefault().getOffset(now);
        long asLocal = got + java.util.TimeZone.getDefault().getOffset(got);
        assertTrue(Math.abs(asLocal - local) < 60_000, r.toString());
        assertEquals(List.of(List.of(1)), rows(keg, "SELECT k FROM s WHERE k = 1 AND NOW() > TIMESTAMP '2020-01-01 00:00:00'"));
    }

    @Test
    void spellingsWhoseMeaningIsNotSharedAreRefused() {
        // Calcite's BigQuery DATE_TRUNC(value, unit) and units whose truncation differs between databases
        for (String q : List.of("SELECT DATE_TRUNC(v, 'month') FROM d", "SELECT DATE_TRUNC('week', v) FROM d",
                "SELECT DATE_TRUNC('century', v) FROM d", "SELECT DATE_TRUNC(?, v) FROM d")) {
            assertEquals("42000", failure(keg, q), q);
        }
        assertEquals("42000", failure(keg, "SELECT NO_SUCH_FUNCTION(v) FROM s"));
    }

    private static String number(double d) {
        // 12 significant digits: the last bits of a transcendental function may differ between runtimes
        return d == Math.rint(d) && Math.abs(d) < 1e15 ? Long.toString((long) d) : String.format("%.12g", d);
    }

    private static List<List<String>> text(List<List<Object>> rows) {
        List<List<String>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<String> r = new ArrayList<>();
            for (Object o : row) {
                r.add(o == null ? null : o instanceof Number num ? number(num.doubleValue()) : o.toString());
            }
            out.add(r);
        }
        return out;
    }
}
