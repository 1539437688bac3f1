package io.kegdb.sql;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A DECIMAL key compared with a number no key of its column can be: more whole digits than the column holds
 * ({@code 1E+20}, {@code 9223372036854775807.5} against DECIMAL(15,3)) or more fractional digits than its scale
 * ({@code 2.0005}). Such a bound selects the keys exact arithmetic says (every key below {@code 1E+20}, none
 * equal to it); it failed with an internal error (HY000) once its key was encoded, and an UPDATE or DELETE by key
 * with a {@code ?} finer than the scale rounded it into a stored key and wrote that row. Each answer is checked
 * against the exact comparison of the stored keys with the operand, for literals and parameters.
 */
class DecimalKeyOperandsTest extends InMemorySessionTest {

    private static final List<BigDecimal> KEYS = List.of(new BigDecimal("-999999999999.999"), new BigDecimal("-5.000"),
            new BigDecimal("2.001"), new BigDecimal("7.000"), new BigDecimal("999999999999.999"));

    private static final List<String> OPERANDS = List.of("1E+20", "-1E+20", "9223372036854775807.5",
            "-9223372036854775808.5", "1000000000000", "-1000000000000", "999999999999.9995", "2.0005", "2.001",
            "1E+2000", "0.0000001");

    /** The most digits of a DECIMAL SQL expression (docs/SQL.md, types of expressions). */
    private static final int MAX_LITERAL_DIGITS = 38;

    private record Comparison(String op, IntPredicate holds) {
    }

    /** Each operator and what it means for {@code key.compareTo(operand)}. */
    private static final List<Comparison> COMPARISONS = List.of(new Comparison("=", c -> c == 0),
            new Comparison("<>", c -> c != 0), new Comparison("<", c -> c < 0), new Comparison("<=", c -> c <= 0),
            new Comparison(">", c -> c > 0), new Comparison(">=", c -> c >= 0));

    @BeforeEach
    void createTable() throws SqlError {
        update(s, "CREATE TABLE T (K DECIMAL(15,3) PRIMARY KEY, V INTEGER)");
        for (int i = 0; i < KEYS.size(); i++) {
            update(s, "INSERT INTO T VALUES (?, ?)", KEYS.get(i), i);
        }
    }

    private static List<List<Object>> keys(java.util.function.Predicate<BigDecimal> selected) {
        List<List<Object>> out = new ArrayList<>();
        for (BigDecimal k : KEYS) {
            if (selected.test(k)) {
                out.add(List.of(k));
            }
        }
        return out;
    }

    @Test
    void comparisonsWithOperandsNoKeyCanBe() throws SqlError {
        for (String operand : OPERANDS) {
            BigDecimal x = new BigDecimal(operand);
            for (Comparison c : COMPARISONS) {
                List<List<Object>> expected = keys(k -> c.holds().test(k.compareTo(x)));
                String literal = "SELECT K FROM T WHERE K " + c.op() + " " + x.toPlainString() + " ORDER BY K";
                if (x.precision() - x.scale() > MAX_LITERAL_DIGITS) {
                    fails(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, s, literal); // no SQL type holds the literal
                } else {
                    assertEquals(expected, rows(s, literal), literal);
                }
                String param = "SELECT K FROM T WHERE K " + c.op() + " ? ORDER BY K";
                assertEquals(expected, rows(s, param, x), param + " with " + operand);
                String flipped = "SELECT K FROM T WHERE ? " + c.op() + " K ORDER BY K";
                assertEquals(keys(k -> c.holds().test(x.compareTo(k))), rows(s, flipped, x), flipped + " with " + operand);
            }
            List<List<Object>> between = keys(k -> k.compareTo(new BigDecimal("2.5")) >= 0 && k.compareTo(x) <= 0);
            assertEquals(between, rows(s, "SELECT K FROM T WHERE K BETWEEN ? AND ? ORDER BY K", new BigDecimal("2.5"), x));
            List<List<Object>> in = keys(k -> k.compareTo(x) == 0 || k.compareTo(new BigDecimal("7")) == 0);
            assertEquals(in, rows(s, "SELECT K FROM T WHERE K IN (?, ?) ORDER BY K", x, new BigDecimal("7")), operand);
            if (x.precision() - x.scale() <= MAX_LITERAL_DIGITS) {
                assertEquals(between, rows(s, "SELECT K FROM T WHERE K BETWEEN 2.5 AND " + x.toPlainString()
                        + " ORDER BY K"), operand);
                assertEquals(in, rows(s, "SELECT K FROM T WHERE K IN (" + x.toPlainString() + ", 7) ORDER BY K"), operand);
            }
        }
    }

    @Test
    void writesByKeyTouchOnlyTheKeysEqualToTheOperand() throws SqlError {
        for (String operand : OPERANDS) {
            BigDecimal x = new BigDecimal(operand);
            long equal = KEYS.stream().filter(k -> k.compareTo(x) == 0).count();
            s.setAutoCommit(false);
            assertEquals(equal, update(s, "UPDATE T SET V = 100 WHERE K = ?", x), "UPDATE by key " + operand);
            assertEquals(keys(k -> k.compareTo(x) == 0), rows(s, "SELECT K FROM T WHERE V = 100 ORDER BY K"), operand);
            s.rollback();
            assertEquals(equal, update(s, "DELETE FROM T WHERE K = ?", x), "DELETE by key " + operand);
            assertEquals(keys(k -> k.compareTo(x) != 0), rows(s, "SELECT K FROM T ORDER BY K"), operand);
            s.rollback();
            long above = KEYS.stream().filter(k -> k.compareTo(x) > 0).count();
            assertEquals(above, update(s, "DELETE FROM T WHERE K > ?", x), "DELETE of a range " + operand);
            s.rollback();
            s.setAutoCommit(true);
        }
        assertEquals(keys(k -> true), rows(s, "SELECT K FROM T ORDER BY K"), "rolled back");
    }
}
