package io.kegdb.jdbc.dialect;

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
 * A DOUBLE value of -0.0 is equal to 0.0 in SQL. Written into a value column by any path (a bound {@code ?},
 * {@code UPDATE ... SET v = v * -1}, INSERT ... SELECT, an upsert), it is stored as 0.0, as a DOUBLE key already
 * was: Calcite groups, joins and compares set operations with Java's {@code Double.equals}, which tells the two
 * zeros apart, so GROUP BY v gave 0.0 and -0.0 two groups, a join on v = v missed the pairs of opposite zeros,
 * and EXCEPT kept a -0.0 that equals a 0.0. Answered as H2 answers (SQLite and PostgreSQL make one group too).
 */
class NegativeZeroTest {

    private static final List<String> QUERIES = List.of(
            "SELECT v, COUNT(*) FROM t GROUP BY v ORDER BY v",
            "SELECT DISTINCT v FROM t ORDER BY v",
            "SELECT COUNT(DISTINCT v) FROM t",
            "SELECT v, COUNT(*) FROM t WHERE k + 0 > -100 GROUP BY v ORDER BY v",
            "SELECT a.k, b.k FROM t a JOIN t b ON a.v = b.v ORDER BY 1, 2",
            "SELECT a.k, b.k FROM t a JOIN u b ON a.v = b.k ORDER BY 1, 2",
            "SELECT v FROM t UNION SELECT v FROM t ORDER BY 1",
            "SELECT v FROM t EXCEPT SELECT CAST(0 AS DOUBLE) FROM t ORDER BY 1",
            "SELECT v FROM t INTERSECT SELECT k FROM u ORDER BY 1",
            "SELECT k FROM t WHERE v IN (SELECT k FROM u) ORDER BY k",
            "SELECT k, ATAN2(v, -1) FROM t ORDER BY k"); // pi for 0.0, -pi for -0.0

    @Test
    void aNegativeZeroWrittenByAnyPathIsOneValueWithZero() throws SQLException {
        try (Connection keg = Databases.kegdb(); Connection h2 = Databases.h2()) {
            for (Connection c : List.of(keg, h2)) {
                exec(c, "CREATE TABLE t (k INTEGER PRIMARY KEY, v DOUBLE)", "CREATE TABLE u (k DOUBLE PRIMARY KEY, v DOUBLE)",
                        "INSERT INTO t VALUES (1, 0.0), (2, 1.5), (3, 0.0), (4, 2.5)", "INSERT INTO u VALUES (0.0, 0.0)");
                update(c, "INSERT INTO t VALUES (?, ?)", 5, -0.0);
                exec(c, "UPDATE t SET v = v * -1 WHERE k = 3",
                        "INSERT INTO t (k, v) SELECT k + 10, -v FROM t WHERE k = 1",
                        "MERGE INTO t USING (VALUES (20, CAST(0 AS DOUBLE))) AS x (k, v) ON t.k = x.k"
                                + " WHEN NOT MATCHED THEN INSERT (k, v) VALUES (x.k, -x.v)");
            }
            for (String q : QUERIES) {
                assertEquals(normalized(rows(h2, q)), normalized(rows(keg, q)), q);
            }
        }
    }

    /** Numbers as plain digits (the Java types differ); a zero keeps its sign, so -0.0 would show. */
    private static List<List<String>> normalized(List<List<Object>> rows) {
        List<List<String>> out = new ArrayList<>();
        for (List<Object> row : rows) {
            List<String> r = new ArrayList<>();
            for (Object o : row) {
                r.add(o instanceof Double d ? (d == 0.0 ? Double.toString(d) : new BigDecimal(d).toPlainString())
                        : o instanceof Number n ? new BigDecimal(n.toString()).toPlainString() : String.valueOf(o));
            }
            out.add(r);
        }
        return out;
    }
}
