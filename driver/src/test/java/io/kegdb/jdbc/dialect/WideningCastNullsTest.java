package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.rows;
import static io.kegdb.jdbc.dialect.Databases.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A nullable value widened to a common type inside COALESCE, CASE, NULLIF, GREATEST/LEAST, IN lists and BETWEEN
 * (INTEGER to BIGINT, DOUBLE or DECIMAL, DECIMAL to a wider DECIMAL, DATE to TIMESTAMP, a short VARCHAR to a
 * longer one) stays NULL where it is NULL, in WHERE, ON, HAVING and CASE in the select list, and in UPDATE and
 * DELETE: a grid of such forms over every pair of key and value types, answered as H2 answers it. A NULL
 * value passed {@code WHERE COALESCE(v, k) >= -3} with an INTEGER v and a DOUBLE k, once the simplifier had
 * merged the widening cast with the NOT NULL one COALESCE is rewritten with.
 */
class WideningCastNullsTest {

    /** Key type, value type, and rows as SQL literals (the value NULL in several). */
    private record Table(String keyType, String valueType, List<String[]> rows) {
    }

    private static List<String[]> pairs(String... pairs) {
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < pairs.length; i += 2) {
            out.add(new String[] {pairs[i], pairs[i + 1]});
        }
        return out;
    }

    private static final List<String[]> NUMBERS = pairs("-8", "NULL", "-3", "-1", "0", "NULL", "2", "3",
            "5", "NULL", "7", "100", "30", "-30");

    private static final List<Table> NUMERIC_TABLES = List.of(
            new Table("DOUBLE", "INTEGER", NUMBERS),
            new Table("BIGINT", "INTEGER", NUMBERS),
            new Table("DECIMAL(15,3)", "INTEGER", NUMBERS),
            new Table("DOUBLE", "BIGINT", NUMBERS),
            new Table("DECIMAL(15,3)", "BIGINT", NUMBERS),
            new Table("INTEGER", "DOUBLE", NUMBERS),
            new Table("INTEGER", "DECIMAL(5,0)", NUMBERS),
            new Table("DOUBLE", "DECIMAL(5,0)", NUMBERS),
            new Table("BIGINT", "DECIMAL(15,3)", pairs("-8", "NULL", "-3", "-1.5", "0", "NULL", "2", "2.125",
                    "5", "NULL", "7", "100.25", "30", "-30")),
            new Table("DECIMAL(15,3)", "DECIMAL(5,0)", NUMBERS),
            new Table("DOUBLE", "DOUBLE", NUMBERS));

    /** Conditions on a row of a numeric table; {@code %s} is a constant to compare with. */
    private static final List<String> NUMERIC_CONDITIONS = List.of(
            "COALESCE(v, k) >= %s", "COALESCE(v, k) < %s", "COALESCE(v, k) = %s", "COALESCE(v, k) <> %s",
            "%s <= COALESCE(v, k)", "COALESCE(v, 2.5) > %s", "COALESCE(v, 1e0) <= %s", "COALESCE(v, -3.25) < %s",
            "COALESCE(v, CAST(7 AS BIGINT)) >= %s", "COALESCE(v, k, 0) >= %s",
            "NOT (COALESCE(v, k) >= %s)", "COALESCE(v, k) BETWEEN %s AND 50", "COALESCE(v, k) IN (%s, 2, 100)",
            "COALESCE(v, k) NOT IN (%s, 2)", "COALESCE(v, k) + 1 > %s", "-COALESCE(v, k) < %s",
            "CASE WHEN v IS NOT NULL THEN v ELSE k END >= %s", "CASE WHEN v IS NULL THEN k ELSE v END >= %s",
            "CASE WHEN v > 0 THEN v ELSE k END >= %s", "CASE WHEN k > 0 THEN v ELSE 0.5 END >= %s",
            "CASE v WHEN 3 THEN 2.5 ELSE v END >= %s", "NULLIF(v, 3) >= %s", "NULLIF(COALESCE(v, k), 2.5) < %s",
            "v IN (%s, 2.5, 100)", "v NOT IN (%s, 2.5)", "v BETWEEN %s AND 99.5", "v >= %s OR v < -1.5",
            "(COALESCE(v, k) >= %s) IS TRUE", "(COALESCE(v, k) >= %s) IS NOT FALSE",
            "COALESCE(v, k) >= %s AND k < 20", "COALESCE(v, k) >= %s OR k = 2", "GREATEST(v, k) >= %s",
            "LEAST(v, 2.5) < %s");

    private static final List<String> CONSTANTS = List.of("-3", "0", "2.5", "-1e0", "99");

    @Test
    void numericWideningKeepsNullsInEveryClause() throws SQLException {
        int compared = 0;
        for (int table = 0; table < NUMERIC_TABLES.size(); table++) {
            Table t = NUMERIC_TABLES.get(table);
            try (Connection keg = Databases.kegdb(); Connection h2 = Databases.h2()) {
                load(keg, t);
                load(h2, t);
                for (int f = 0; f < NUMERIC_CONDITIONS.size(); f++) {
                    String form = NUMERIC_CONDITIONS.get(f);
                    for (String c : CONSTANTS) {
                        compared += same(keg, h2, t, "SELECT k FROM t WHERE " + String.format(form, c) + " ORDER BY k");
                    }
                    // the other clauses with one of the constants, a different one form by form; a normal build
                    // takes two of them per form and table, turn by turn, -Pstress every one
                    String p = String.format(form, CONSTANTS.get(f % CONSTANTS.size()));
                    for (int c = 0; c < CLAUSES; c++) {
                        if (STRESS || c == (f + table) % CLAUSES || c == (f + table + 3) % CLAUSES) {
                            compared += clause(keg, h2, t, c, p);
                        }
                    }
                }
            }
        }
        int perForm = CONSTANTS.size() + (STRESS ? CLAUSES : 2);
        assertEquals(NUMERIC_TABLES.size() * NUMERIC_CONDITIONS.size() * perForm, compared);
    }

    private static final boolean STRESS = Boolean.getBoolean("kegdb.stress");
    private static final int CLAUSES = 7;

    /** Condition {@code p} in clause {@code c}: CASE in the select list, ON, HAVING, an aggregate, UPDATE, DELETE. */
    private int clause(Connection keg, Connection h2, Table t, int c, String p) throws SQLException {
        String pa = p.replace("v", "a.v").replace("k", "a.k");
        return switch (c) {
            case 0 -> same(keg, h2, t, "SELECT k, CASE WHEN " + p + " THEN 1 ELSE 0 END FROM t ORDER BY k");
            case 1 -> same(keg, h2, t, "SELECT a.k FROM t a JOIN t b ON a.k = b.k AND " + pa + " ORDER BY a.k");
            case 2 -> same(keg, h2, t, "SELECT a.k, b.k FROM t a LEFT JOIN t b ON a.k = b.k AND "
                    + pa.replace("a.v", "b.v") + " ORDER BY a.k");
            case 3 -> same(keg, h2, t, "SELECT k FROM t GROUP BY k, v HAVING " + p + " ORDER BY k");
            case 4 -> same(keg, h2, t, "SELECT COUNT(*) FROM t WHERE " + p);
            case 5 -> sameWrite(keg, h2, t, "UPDATE t SET v = NULL WHERE " + p);
            default -> sameWrite(keg, h2, t, "DELETE FROM t WHERE " + p);
        };
    }

    /** DATE widened to TIMESTAMP, a short VARCHAR to a longer one. */
    @Test
    void dateAndTextWideningKeepsNulls() throws SQLException {
        List<Table> tables = List.of(
                new Table("TIMESTAMP", "DATE", pairs("TIMESTAMP '2020-01-01 10:00:00'", "NULL",
                        "TIMESTAMP '2020-01-02 00:00:00'", "DATE '2020-01-01'",
                        "TIMESTAMP '2020-01-03 12:30:00'", "DATE '2020-01-05'",
                        "TIMESTAMP '2019-12-31 23:59:59'", "NULL")),
                new Table("VARCHAR(10)", "VARCHAR(2)", pairs("'a'", "NULL", "'bbbbbbb'", "'b'", "'c'", "'zz'",
                        "'d'", "NULL", "'zzzzzzz'", "NULL")));
        List<List<String>> conditions = List.of(
                List.of("COALESCE(v, k) >= TIMESTAMP '2020-01-02 00:00:00'", "COALESCE(v, k) < TIMESTAMP '2020-01-02 00:00:00'",
                        "CASE WHEN v IS NOT NULL THEN v ELSE k END > TIMESTAMP '2020-01-01 00:00:00'",
                        "v IN (TIMESTAMP '2020-01-01 00:00:00', TIMESTAMP '2020-01-05 00:00:00')",
                        "v BETWEEN TIMESTAMP '2019-01-01 00:00:00' AND TIMESTAMP '2020-01-04 00:00:00'",
                        "COALESCE(v, TIMESTAMP '2020-01-09 00:00:00') < TIMESTAMP '2020-01-03 00:00:00'",
                        "NOT (COALESCE(v, k) >= TIMESTAMP '2020-01-02 00:00:00')"),
                List.of("COALESCE(v, k) >= 'b'", "COALESCE(v, k) < 'c'", "COALESCE(v, 'yyyyy') > 'y'",
                        "CASE WHEN v IS NOT NULL THEN v ELSE k END >= 'c'", "v IN ('zz', 'bbbbbbb')",
                        "NOT (COALESCE(v, k) = 'd')", "COALESCE(v, k) BETWEEN 'b' AND 'zz'"));
        int compared = 0;
        for (int i = 0; i < tables.size(); i++) {
            Table t = tables.get(i);
            try (Connection keg = Databases.kegdb(); Connection h2 = Databases.h2()) {
                load(keg, t);
                load(h2, t);
                for (String p : conditions.get(i)) {
                    compared += same(keg, h2, t, "SELECT k FROM t WHERE " + p + " ORDER BY k");
                    compared += same(keg, h2, t, "SELECT k, CASE WHEN " + p + " THEN 1 ELSE 0 END FROM t ORDER BY k");
                    compared += same(keg, h2, t, "SELECT k FROM t GROUP BY k, v HAVING " + p + " ORDER BY k");
                    compared += sameWrite(keg, h2, t, "DELETE FROM t WHERE " + p);
                }
            }
        }
        assertEquals(4 * 14, compared);
    }

    private static void load(Connection c, Table t) throws SQLException {
        exec(c, "CREATE TABLE t (k " + t.keyType() + " PRIMARY KEY, v " + t.valueType() + ")");
        for (String[] row : t.rows()) {
            exec(c, "INSERT INTO t VALUES (" + row[0] + ", " + row[1] + ")");
        }
    }

    /** What differed from H2, one line each: the grid is reported whole, not up to its first difference. */
    private final List<String> differences = new ArrayList<>();

    @AfterEach
    void noDifferences() {
        assertEquals(List.of(), differences.subList(0, Math.min(differences.size(), 40)),
                differences.size() + " statements answered otherwise than H2");
    }

    private int same(Connection keg, Connection h2, Table t, String sql) throws SQLException {
        List<List<String>> expected = normalized(rows(h2, sql));
        try {
            List<List<String>> actual = normalized(rows(keg, sql));
            if (!expected.equals(actual)) {
                differences.add(t.keyType() + "/" + t.valueType() + ": " + sql + ": " + actual + ", H2 " + expected);
            }
        } catch (SQLException e) {
            differences.add(t.keyType() + "/" + t.valueType() + ": " + sql + ": " + e.getSQLState() + " " + e.getMessage());
        }
        return 1;
    }

    /** A write's count and the rows after it, then undone on both. */
    private int sameWrite(Connection keg, Connection h2, Table t, String sql) throws SQLException {
        keg.setAutoCommit(false);
        h2.setAutoCommit(false);
        try {
            int expected = update(h2, sql);
            int actual = update(keg, sql);
            if (expected != actual) {
                differences.add(t.keyType() + "/" + t.valueType() + ": " + sql + ": " + actual + " rows, H2 " + expected);
            }
            same(keg, h2, t, "SELECT k, v FROM t ORDER BY k");
        } catch (SQLException e) {
            differences.add(t.keyType() + "/" + t.valueType() + ": " + sql + ": " + e.getSQLState() + " " + e.getMessage());
        } finally {
            keg.rollback();
            h2.rollback();
            keg.setAutoCommit(true);
            h2.setAutoCommit(true);
        }
        return 1;
    }

    /** Numbers as their plain decimal digits, so that the types each database picks do not matter. */
    private static List<List<String>> normalized(List<List<Object>> rows) {
        List<List<String>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<String> r = new ArrayList<>();
            for (Object o : row) {
                r.add(o instanceof Number n ? new BigDecimal(n.toString()).stripTrailingZeros().toPlainString()
                        : String.valueOf(o));
            }
            out.add(r);
        }
        return out;
    }
}
