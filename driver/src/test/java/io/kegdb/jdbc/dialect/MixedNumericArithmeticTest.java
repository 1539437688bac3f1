package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Arithmetic and comparisons that mix INTEGER, BIGINT, DECIMAL and DOUBLE operands near their limits
 * (±1.0E300, ±1.0E308, Long.MAX_VALUE, the largest DECIMAL of a precision, -0.0), in the select list and in
 * WHERE, answered as the SQL standard types them: an operation with an approximate operand is approximate
 * (DOUBLE), one of exact operands exact. H2 is the oracle, told the standard's types: where an operand is a
 * DOUBLE (or an approximate literal such as {@code 1.0E300}), H2's statement casts every operand to DOUBLE
 * PRECISION, because H2 itself computes a DOUBLE with a DECIMAL in DECFLOAT, exactly.
 *
 * <p>That is the difference behind {@code SELECT k, v + 4.25, k - v FROM T0 WHERE v + 4.25 > 1.0E300} over
 * v = 1.0E300: in DOUBLE, 1.0E300 + 4.25 is 1.0E300 (the 4.25 is far below its last bit), so KegDB and SQLite
 * (and PostgreSQL) return no row; H2 adds in DECFLOAT and returns it.
 */
class MixedNumericArithmeticTest {

    @TempDir
    Path dir;

    @Test
    void aDecimalAddedToAHugeDoubleIsLostInItsRounding() throws SQLException {
        String q = "SELECT k, v + 4.25, k - v FROM T0 WHERE v + 4.25 > 1.0E300";
        String[] urls = {"jdbc:kegdb:mem:arith" + System.nanoTime(), "jdbc:kegdb:" + dir.resolve("db"),
            "jdbc:sqlite::memory:"};
        for (String url : urls) {
            try (Connection c = DriverManager.getConnection(url)) {
                exec(c, "CREATE TABLE T0 (k BIGINT PRIMARY KEY, v DOUBLE)", "INSERT INTO T0 VALUES (1, 1.0E300)");
                assertEquals(List.of(), rows(c, q), url);
                assertEquals(List.of(), rows(c, "SELECT k FROM T0 WHERE v + CAST(? AS DOUBLE) > ?", 4.25, 1.0E300), url);
                assertEquals(List.of(List.of(1L)), normalizedKeys(rows(c, "SELECT k FROM T0 WHERE v + 4.25 = v")), url);
            }
        }
        try (Connection h2 = Databases.h2()) {
            exec(h2, "CREATE TABLE T0 (k BIGINT PRIMARY KEY, v DOUBLE)", "INSERT INTO T0 VALUES (1, 1.0E300)");
            assertEquals(1, rows(h2, q).size(), "H2 adds a DOUBLE and a DECIMAL exactly (DECFLOAT)");
            assertEquals(List.of(), rows(h2, "SELECT k FROM T0 WHERE CAST(v AS DOUBLE PRECISION)"
                    + " + CAST(4.25 AS DOUBLE PRECISION) > CAST(1.0E300 AS DOUBLE PRECISION)"), "H2 in DOUBLE");
        }
    }

    private static List<List<Object>> normalizedKeys(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> r : rows) {
            out.add(List.of(((Number) r.get(0)).longValue()));
        }
        return out;
    }

    /** A column type and its rows' values (key 3i - 4 for the i-th). */
    private record Table(String keyType, String valueType, List<String> values) {
    }

    private static final List<Table> TABLES = List.of(
            new Table("BIGINT", "INTEGER", List.of("2147483647", "-2147483648", "0", "-7", "3", "NULL")),
            new Table("BIGINT", "BIGINT", List.of("9223372036854775807", "-9223372036854775808", "0", "-7", "3", "NULL")),
            new Table("BIGINT", "DECIMAL(15,3)", List.of("999999999999.999", "-999999999999.999", "0.001", "2.125", "0",
                    "NULL")),
            new Table("BIGINT", "DECIMAL(6,6)", List.of("0.999999", "-0.999999", "0.000001", "0", "NULL")),
            new Table("BIGINT", "DOUBLE", List.of("1.0E300", "-1.0E300", "1.0E308", "-1.0E308", "0.1", "2.5E-7", "4.25",
                    "-0.0", "-7", "NULL")),
            new Table("DOUBLE", "DECIMAL(15,3)", List.of("999999999999.999", "-999999999999.999", "0.001", "2.125",
                    "NULL")));

    /** Operands beside the value: exact literals of each size, approximate ones, and the key. */
    private static final List<String> OPERANDS = List.of("4.25", "2147483647", "9223372036854775807", "1.0E300",
            "1.0E308", "-0.0E0", "k");

    /** The value and an operand, {@code %1$s} and {@code %2$s}, in each operation and order. */
    private static final List<String> EXPRESSIONS = List.of("%1$s + %2$s", "%1$s - %2$s", "%2$s - %1$s", "%1$s * %2$s");

    /** A comparison of an expression with a literal in WHERE: far beyond, near, and at the literal's scale. */
    private record Condition(String op, String literal) {
    }

    private static final List<Condition> CONDITIONS = List.of(new Condition(">", "1.0E300"), new Condition("<=", "4.25"));

    private final List<String> differences = new ArrayList<>();

    @AfterEach
    void noDifferences() {
        assertEquals(List.of(), differences.subList(0, Math.min(differences.size(), 40)),
                differences.size() + " statements answered otherwise than H2 in the standard's types");
    }

    @Test
    void mixedOperandsAreTypedAsTheStandardSays() throws SQLException {
        int compared = 0;
        for (Table t : TABLES) {
            try (Connection keg = Databases.kegdb(); Connection h2 = Databases.h2()) {
                for (Connection c : List.of(keg, h2)) {
                    exec(c, "CREATE TABLE t (k " + t.keyType() + " PRIMARY KEY, v " + t.valueType() + ")");
                    for (int i = 0; i < t.values().size(); i++) {
                        exec(c, "INSERT INTO t VALUES (" + (3 * i - 4) + ", " + t.values().get(i) + ")");
                    }
                }
                for (String operand : OPERANDS) {
                    boolean approximate = t.valueType().equals("DOUBLE") || operand.contains("E")
                            || operand.equals("k") && t.keyType().equals("DOUBLE");
                    List<String> kegdb = new ArrayList<>();
                    List<String> oracle = new ArrayList<>();
                    for (String e : EXPRESSIONS) {
                        kegdb.add(String.format(e, "v", operand));
                        oracle.add(String.format(e, h2(approximate, "v"), h2(approximate, operand)));
                    }
                    // the select list: every expression of the operand in one statement (one planning)
                    compared += same(keg, h2, t, "SELECT k, " + String.join(", ", kegdb) + " FROM t ORDER BY k",
                            "SELECT k, " + String.join(", ", oracle) + " FROM t ORDER BY k");
                    for (int i = 0; i < kegdb.size(); i++) {
                        for (Condition c : CONDITIONS) {
                            compared += same(keg, h2, t,
                                    "SELECT k FROM t WHERE " + kegdb.get(i) + " " + c.op() + " " + c.literal() + " ORDER BY k",
                                    "SELECT k FROM t WHERE " + oracle.get(i) + " " + c.op() + " "
                                            + h2(approximate || c.literal().contains("E"), c.literal()) + " ORDER BY k");
                        }
                    }
                }
            }
        }
        assertEquals(TABLES.size() * OPERANDS.size() * (1 + EXPRESSIONS.size() * CONDITIONS.size()), compared);
    }

    /** An operand as H2 must read it to compute in the standard's type. */
    private static String h2(boolean approximate, String operand) {
        return approximate ? "CAST(" + operand + " AS DOUBLE PRECISION)" : operand;
    }

    private int same(Connection keg, Connection h2, Table t, String sql, String h2Sql) {
        String expected = answer(h2, h2Sql);
        String actual = answer(keg, sql);
        if (!expected.equals(actual)) {
            differences.add(t.keyType() + "/" + t.valueType() + ": " + sql + ": " + actual + ", H2 " + expected
                    + " (" + h2Sql + ")");
        }
        return 1;
    }

    /** Rows with numbers as plain digits (the Java types differ), or the SQLState of the failure. */
    private static String answer(Connection c, String sql) {
        try {
            StringBuilder sb = new StringBuilder();
            for (List<Object> row : rows(c, sql)) {
                sb.append('(');
                for (Object o : row) {
                    sb.append(o instanceof Double d && d.isInfinite() ? d.toString()
                            : o instanceof Number n ? new BigDecimal(n.toString()).stripTrailingZeros().toPlainString()
                            : String.valueOf(o)).append(' ');
                }
                sb.append(')');
            }
            return sb.toString();
        } catch (SQLException e) {
            return "SQLState " + e.getSQLState();
        }
    }
}
