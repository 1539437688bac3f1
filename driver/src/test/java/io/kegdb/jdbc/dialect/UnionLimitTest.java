package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A limit over a UNION: an input's duplicates must not take places of the limit. Found by the differential test
 * (seed 1001) on an in-memory store, whose row counts made the planner pick a merge union that pushed the limit
 * into each input. Expected rows are what H2 and SQLite answer.
 */
class UnionLimitTest {

    private static List<String> column(Statement s, String sql) throws SQLException {
        List<String> values = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                values.add(rs.getBigDecimal(1) == null ? null : rs.getBigDecimal(1).toPlainString());
            }
        }
        return values;
    }

    @Test
    void aLimitOverAUnionCountsDistinctRows() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:mem:union-limit");
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE T0 (k VARCHAR PRIMARY KEY, v DECIMAL(6,6))");
            s.execute("CREATE TABLE T1 (k BIGINT PRIMARY KEY, v DECIMAL(6,6))");
            s.execute("INSERT INTO T0 VALUES ('', -0.02), ('b', -0.999999), ('  BB', NULL), ('bB  ', 0.007),"
                    + " ('__c', 0.016), ('a', 0.016)");
            List<String> all = new ArrayList<>();
            all.add(null);
            all.addAll(List.of("0.016000", "0.007000", "-0.020000", "-0.999999"));
            assertEquals(all, column(s,
                    "SELECT v FROM T1 WHERE v = -5 UNION SELECT v FROM T0 ORDER BY 1 DESC NULLS FIRST LIMIT 5"));
            assertEquals(List.of("0.007000", "-0.020000"), column(s,
                    "SELECT v FROM T1 UNION SELECT v FROM T0 ORDER BY 1 DESC NULLS FIRST LIMIT 2 OFFSET 2"));
            assertEquals(List.of("-0.999999", "-0.020000", "0.007000", "0.016000"), column(s,
                    "SELECT v FROM T1 UNION SELECT v FROM T0 WHERE v IS NOT NULL ORDER BY 1 LIMIT 4"));
            assertEquals(List.of("-0.999999", "-0.020000", "0.007000", "0.016000", "0.016000"), column(s,
                    "SELECT v FROM T1 UNION ALL SELECT v FROM T0 WHERE v IS NOT NULL ORDER BY 1 LIMIT 5"));
        }
    }
}
