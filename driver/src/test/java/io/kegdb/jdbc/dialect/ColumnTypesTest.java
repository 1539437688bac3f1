package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.Date;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.failure;
import static io.kegdb.jdbc.dialect.Databases.rows;
import static io.kegdb.jdbc.dialect.Databases.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * INTEGER, DOUBLE, BOOLEAN, DECIMAL, DATE and TIMESTAMP as keys and values: stored values, key order and pushed
 * key ranges agree with H2 (negative numbers, dates before 1970, DECIMAL bounds finer than the key's scale), and
 * the metadata describes each type.
 */
class ColumnTypesTest {

    /** A key type, keys in ascending order, and a bound that falls between (or on) keys. */
    private record KeyCase(String type, List<Object> keys, Object pivot) {
    }

    private static final List<KeyCase> KEYS = List.of(
            new KeyCase("INTEGER", List.of(Integer.MIN_VALUE, -70000, -5, -1, 0, 1, 7, 65536, Integer.MAX_VALUE), -1),
            new KeyCase("DOUBLE", List.of(-1e300, -2.5, -0.5, -1e-300, 0.0, 1e-300, 0.25, 3.25, 1e300), -0.3),
            new KeyCase("BOOLEAN", List.of(false, true), false),
            new KeyCase("DECIMAL(10,2)", decimals("-99999999.99", "-1.50", "-0.01", "0.00", "0.01", "2.50",
                    "12345678.90"), new BigDecimal("-0.005")),
            new KeyCase("BIGINT", List.of(Long.MIN_VALUE, -3L, 0L, 4L, Long.MAX_VALUE), 0L),
            new KeyCase("DATE", List.of(Date.valueOf("1900-01-01"), Date.valueOf("1969-12-31"),
                    Date.valueOf("1970-01-01"), Date.valueOf("2024-02-29")), Date.valueOf("1969-12-31")),
            new KeyCase("TIMESTAMP(3)", List.of(Timestamp.valueOf("1900-01-01 00:00:00.001"),
                    Timestamp.valueOf("1969-12-31 23:59:59.999"), Timestamp.valueOf("1970-01-01 00:00:00"),
                    Timestamp.valueOf("2024-02-29 12:34:56.789")), Timestamp.valueOf("1969-12-31 23:59:59.999")));

    /** Queries whose results must match H2's; {@code ?} is the case's pivot. */
    private static final String[] KEY_QUERIES = {
        "SELECT k, v FROM t ORDER BY k",
        "SELECT k FROM t ORDER BY k DESC",
        "SELECT k FROM t ORDER BY k LIMIT 2",
        "SELECT k FROM t WHERE k > ? ORDER BY k",
        "SELECT k FROM t WHERE k >= ? ORDER BY k",
        "SELECT k FROM t WHERE k < ? ORDER BY k DESC",
        "SELECT k FROM t WHERE k <= ? ORDER BY k",
        "SELECT v FROM t WHERE k = ?",
        "SELECT k FROM t WHERE k <> ? ORDER BY k",
        "SELECT COUNT(*) FROM t WHERE k >= ?",
    };

    @Test
    void keyOrderAndRangesAgreeWithH2() throws SQLException {
        for (KeyCase kc : KEYS) {
            try (Connection keg = Databases.kegdb(); Connection h2 = Databases.h2()) {
                for (Connection c : List.of(keg, h2)) {
                    exec(c, "CREATE TABLE t (k " + kc.type() + " PRIMARY KEY, v VARCHAR(20))");
                    // Inserted in reverse so that the order cannot come from insertion.
                    for (int i = kc.keys().size() - 1; i >= 0; i--) {
                        assertEquals(1, update(c, "INSERT INTO t (k, v) VALUES (?, ?)", kc.keys().get(i), "v" + i));
                    }
                }
                assertEquals(kc.keys(), column(rows(keg, "SELECT k FROM t ORDER BY k")), kc.type());
                for (String q : KEY_QUERIES) {
                    Object[] params = q.contains("?") ? new Object[] {kc.pivot()} : new Object[0];
                    assertEquals(rows(h2, q, params), rows(keg, q, params), kc.type() + ": " + q);
                }
                // The order and the range come from the store: the plan has neither a sort nor a filter.
                String plan = rows(keg, "EXPLAIN PLAN FOR SELECT k FROM t WHERE k > ? ORDER BY k DESC", kc.pivot())
                        .get(0).get(0).toString();
                assertTrue(plan.contains("KvScan") && plan.contains("desc") && !plan.contains("Sort")
                        && !plan.contains("Filter"), kc.type() + ": " + plan);
            }
        }
    }

    @Test
    void decimalBoundsFinerThanTheKeyScaleSelectWhatH2Selects() throws SQLException {
        try (Connection keg = Databases.kegdb(); Connection h2 = Databases.h2()) {
            for (Connection c : List.of(keg, h2)) {
                exec(c, "CREATE TABLE t (k DECIMAL(6,2) PRIMARY KEY, v INTEGER)");
                for (String k : List.of("-1.01", "-1.00", "-0.99", "0.00", "1.23", "1.24", "1.25")) {
                    update(c, "INSERT INTO t VALUES (?, 1)", new BigDecimal(k));
                }
            }
            for (String bound : List.of("1.231", "1.235", "1.239", "-1.005", "-0.999", "1.24", "0")) {
                for (String op : List.of("<", "<=", "=", ">=", ">")) {
                    String q = "SELECT k FROM t WHERE k " + op + " ? ORDER BY k";
                    BigDecimal p = new BigDecimal(bound);
                    assertEquals(rows(h2, q, p), rows(keg, q, p), q + " with " + bound);
                    String literal = "SELECT k FROM t WHERE k " + op + " " + bound + " ORDER BY k";
                    assertEquals(rows(h2, literal), rows(keg, literal), literal);
                }
            }
        }
    }

    @Test
    void valuesOfEachTypeRoundTripLikeH2() throws SQLException {
        String[] types = {"INTEGER", "DOUBLE", "BOOLEAN", "DECIMAL(12,3)", "DATE", "TIMESTAMP(3)", "NUMERIC(5)"};
        Object[][] values = {
            {-7, 0, Integer.MAX_VALUE},
            {-1.5e-10, 0.0, 6.02e23},
            {true, false, true},
            {new BigDecimal("-123456789.123"), new BigDecimal("0.001"), new BigDecimal("1.0005")},
            {Date.valueOf("1812-06-24"), Date.valueOf("1970-01-02"), Date.valueOf("9999-12-31")},
            {Timestamp.valueOf("1812-06-24 01:02:03.004"), Timestamp.valueOf("1970-01-01 00:00:00"),
                Timestamp.valueOf("2038-01-19 03:14:08.5")},
            {new BigDecimal("-99999"), BigDecimal.ZERO, new BigDecimal("12.5")},
        };
        for (int t = 0; t < types.length; t++) {
            try (Connection keg = Databases.kegdb(); Connection h2 = Databases.h2()) {
                for (Connection c : List.of(keg, h2)) {
                    exec(c, "CREATE TABLE t (k INTEGER PRIMARY KEY, v " + types[t] + ")",
                            "INSERT INTO t VALUES (0, NULL)");
                    for (int i = 0; i < values[t].length; i++) {
                        update(c, "INSERT INTO t VALUES (?, ?)", i + 1, values[t][i]);
                    }
                }
                assertEquals(rows(h2, "SELECT * FROM t ORDER BY k"), rows(keg, "SELECT * FROM t ORDER BY k"),
                        types[t]);
                assertEquals(rows(h2, "SELECT v FROM t WHERE k = 2"), rows(keg, "SELECT v FROM t WHERE k = 2"),
                        types[t] + " on the fast path");
                assertEquals(rows(h2, "SELECT k FROM t WHERE v IS NULL"), rows(keg, "SELECT k FROM t WHERE v IS NULL"));
                // V = ? is decided on stored bytes in the scan for most types: each stored value finds its row.
                for (Object v : values[t]) {
                    String q = "SELECT k FROM t WHERE v = ? AND k >= 0 ORDER BY k";
                    assertEquals(rows(h2, q, v), rows(keg, q, v), types[t] + " = " + v);
                }
                assertEquals(rows(h2, "SELECT k FROM t WHERE v = NULL"), rows(keg, "SELECT k FROM t WHERE v = NULL"));
            }
        }
    }

    @Test
    void doubleKeysRefuseNaNAndStoreNegativeZeroAsZero() throws SQLException {
        try (Connection keg = Databases.kegdb()) {
            exec(keg, "CREATE TABLE t (k DOUBLE PRIMARY KEY, v DOUBLE)");
            assertEquals("22003", failure(keg, "INSERT INTO t VALUES (?, 1)", Double.NaN));
            update(keg, "INSERT INTO t VALUES (?, ?)", Double.NEGATIVE_INFINITY, Double.NaN);
            update(keg, "INSERT INTO t VALUES (?, 2)", Double.POSITIVE_INFINITY);
            update(keg, "INSERT INTO t VALUES (?, 3)", -0.0);
            assertEquals("23505", failure(keg, "INSERT INTO t VALUES (?, 4)", 0.0));
            assertEquals(List.of(Double.NEGATIVE_INFINITY, 0.0, Double.POSITIVE_INFINITY),
                    column(rows(keg, "SELECT k FROM t ORDER BY k")));
            assertEquals(List.of(List.of(3.0)), rows(keg, "SELECT v FROM t WHERE k = 0"));
            assertTrue(Double.isNaN((Double) rows(keg, "SELECT v FROM t WHERE k = ?",
                    Double.NEGATIVE_INFINITY).get(0).get(0)));
            // NaN compares false with everything: a range bounded by it is empty.
            assertEquals(List.of(), rows(keg, "SELECT k FROM t WHERE k < ?", Double.NaN));
            assertEquals(List.of(), rows(keg, "SELECT k FROM t WHERE k = ?", Double.NaN));
        }
    }

    @Test
    void assignmentsFitTheColumnLikeH2() throws SQLException {
        try (Connection keg = Databases.kegdb(); Connection h2 = Databases.h2()) {
            for (Connection c : List.of(keg, h2)) {
                exec(c, "CREATE TABLE t (k DECIMAL(5,2) PRIMARY KEY, v DECIMAL(4,1))");
                update(c, "INSERT INTO t VALUES (?, ?)", new BigDecimal("1.005"), new BigDecimal("-2.25"));
                update(c, "INSERT INTO t VALUES (?, ?)", new BigDecimal("-1.004"), 7);
            }
            assertEquals(rows(h2, "SELECT * FROM t ORDER BY k"), rows(keg, "SELECT * FROM t ORDER BY k"));
            assertEquals("22003", failure(keg, "INSERT INTO t VALUES (?, 1)", new BigDecimal("1000")));
            assertEquals("22003", failure(keg, "INSERT INTO t VALUES (1, ?)", new BigDecimal("1000")));
            exec(keg, "CREATE TABLE i (k INTEGER PRIMARY KEY, v INTEGER)");
            assertEquals("22003", failure(keg, "INSERT INTO i VALUES (?, 1)", 1L << 40));
            assertEquals("22018", failure(keg, "INSERT INTO i VALUES (?, 1)", "one"));
        }
    }

    @Test
    void metadataDescribesEachType() throws SQLException {
        try (Connection keg = Databases.kegdb()) {
            String[][] tables = {
                // type in DDL, TYPE_NAME, DATA_TYPE, COLUMN_SIZE, DECIMAL_DIGITS (null = not applicable)
                {"INT", "INTEGER", "" + Types.INTEGER, "10", "0"},
                {"DOUBLE PRECISION", "DOUBLE", "" + Types.DOUBLE, "15", "0"},
                {"FLOAT(53)", "DOUBLE", "" + Types.DOUBLE, "15", "0"},
                {"BOOLEAN", "BOOLEAN", "" + Types.BOOLEAN, "1", null},
                {"NUMERIC(12,4)", "DECIMAL", "" + Types.DECIMAL, "12", "4"},
                {"DECIMAL", "DECIMAL", "" + Types.DECIMAL, "19", "0"},
                {"DATE", "DATE", "" + Types.DATE, "10", "0"},
                {"TIMESTAMP", "TIMESTAMP", "" + Types.TIMESTAMP, "23", "3"},
                {"TIMESTAMP(6)", "TIMESTAMP", "" + Types.TIMESTAMP, "23", "3"},
                {"TIMESTAMP(0)", "TIMESTAMP", "" + Types.TIMESTAMP, "19", "0"},
            };
            for (int i = 0; i < tables.length; i++) {
                exec(keg, "CREATE TABLE t" + i + " (k " + tables[i][0] + " PRIMARY KEY, v " + tables[i][0] + ")");
            }
            DatabaseMetaData md = keg.getMetaData();
            for (int i = 0; i < tables.length; i++) {
                try (ResultSet rs = md.getColumns(null, "PUBLIC", "T" + i, null)) {
                    for (String column : List.of("K", "V")) {
                        assertTrue(rs.next());
                        String what = tables[i][0] + " " + column;
                        assertEquals(column, rs.getString("COLUMN_NAME"), what);
                        assertEquals(tables[i][1], rs.getString("TYPE_NAME"), what);
                        assertEquals(Integer.parseInt(tables[i][2]), rs.getInt("DATA_TYPE"), what);
                        assertEquals(Integer.parseInt(tables[i][3]), rs.getInt("COLUMN_SIZE"), what);
                        Object digits = rs.getObject("DECIMAL_DIGITS");
                        assertEquals(tables[i][4], digits == null ? null : digits.toString(), what);
                    }
                }
                // Both the fast path and Calcite's plans describe the columns the same way.
                update(keg, "INSERT INTO t" + i + " (k, v) SELECT k, v FROM (SELECT k, v FROM t" + i + ") x");
                ResultSetMetaData fast;
                ResultSetMetaData planned;
                try (var ps = keg.prepareStatement("SELECT k, v FROM t" + i + " WHERE k = ?");
                     var all = keg.prepareStatement("SELECT k, v FROM t" + i + " ORDER BY k")) {
                    fast = ps.getMetaData();
                    planned = all.getMetaData();
                    for (int col = 1; col <= 2; col++) {
                        String what = tables[i][0] + " column " + col;
                        assertEquals(Integer.parseInt(tables[i][2]), fast.getColumnType(col), what);
                        assertEquals(tables[i][1], fast.getColumnTypeName(col), what);
                        assertEquals(planned.getColumnType(col), fast.getColumnType(col), what);
                        assertEquals(planned.getColumnTypeName(col), fast.getColumnTypeName(col), what);
                        assertEquals(planned.getPrecision(col), fast.getPrecision(col), what);
                        assertEquals(planned.getScale(col), fast.getScale(col), what);
                        assertEquals(planned.getColumnClassName(col), fast.getColumnClassName(col), what);
                    }
                }
            }
            Set<String> typeNames = new HashSet<>();
            List<Integer> dataTypes = new ArrayList<>();
            try (ResultSet rs = md.getTypeInfo()) {
                while (rs.next()) {
                    typeNames.add(rs.getString("TYPE_NAME"));
                    dataTypes.add(rs.getInt("DATA_TYPE"));
                }
            }
            assertEquals(Set.of("VARCHAR", "VARBINARY", "BIGINT", "INTEGER", "DOUBLE", "BOOLEAN", "DECIMAL", "DATE",
                    "TIMESTAMP"), typeNames);
            List<Integer> sorted = new ArrayList<>(dataTypes);
            sorted.sort(null);
            assertEquals(sorted, dataTypes, "getTypeInfo is ordered by DATA_TYPE");
        }
    }

    @Test
    void newTypesSurviveReopening(@TempDir Path dir) throws SQLException {
        String url = "jdbc:kegdb:" + dir.resolve("db");
        try (Connection c = DriverManager.getConnection(url)) {
            exec(c, "CREATE TABLE d (k DECIMAL(8,3) PRIMARY KEY, v TIMESTAMP(2))",
                    "CREATE TABLE before (k VARCHAR(5) PRIMARY KEY, v BIGINT)",
                    "INSERT INTO d VALUES (-1.5, TIMESTAMP '1969-07-20 20:17:40.129')", "INSERT INTO before VALUES ('a', 1)");
        }
        try (Connection c = DriverManager.getConnection(url)) {
            assertEquals(List.of(List.of(new BigDecimal("-1.500"), Timestamp.valueOf("1969-07-20 20:17:40.12"))),
                    rows(c, "SELECT * FROM d WHERE k < 0"));
            assertEquals(List.of(List.of("a", 1L)), rows(c, "SELECT * FROM before"));
            assertEquals(List.of(List.of("DECIMAL(8,3)", "TIMESTAMP(2)")),
                    rows(c, "SELECT key_type, value_type FROM sys.tables WHERE table_name = 'D'"));
        }
    }

    private static List<Object> column(List<List<Object>> rows) {
        List<Object> out = new ArrayList<>();
        rows.forEach(r -> out.add(r.get(0)));
        return out;
    }

    private static List<Object> decimals(String... values) {
        List<Object> out = new ArrayList<>();
        for (String v : values) {
            out.add(new BigDecimal(v));
        }
        return out;
    }
}
