package io.kegdb.jdbc.differential;

import java.math.BigDecimal;
import java.math.MathContext;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * Rows in a form the three databases' answers compare in. Each value becomes NULL ({@code null}), text, bytes
 * (as hex), an exact number ({@link BigDecimal}, whatever Java type the driver used: H2's INTEGER, NUMERIC or
 * KegDB's BIGINT are the same number) or an approximate one ({@link Double}). Exact numbers compare exactly; a
 * number compares with a double within a relative 1e-9, which is how SQLite (whose DECIMAL is a double, and
 * whose AVG is one) and a sum of doubles added in another order still agree. Rows stay in order when the query
 * orders every row, and are sorted otherwise.
 */
final class ResultRows {

    private static final double RELATIVE = 1e-9;
    private static final MathContext ORDER_DIGITS = new MathContext(12);

    private ResultRows() {
    }

    static List<List<Object>> read(ResultSet rs, boolean ordered) throws SQLException {
        int columns = rs.getMetaData().getColumnCount();
        List<List<Object>> rows = new ArrayList<>();
        while (rs.next()) {
            List<Object> row = new ArrayList<>(columns);
            for (int i = 1; i <= columns; i++) {
                row.add(normal(rs.getObject(i)));
            }
            rows.add(row);
        }
        if (!ordered) {
            rows.sort(ROW_ORDER);
        }
        return rows;
    }

    static Object normal(Object value) {
        if (value == null) {
            return null;
        }
        if (value instanceof byte[] b) {
            return "X'" + HexFormat.of().formatHex(b) + "'";
        }
        if (value instanceof Boolean b) {
            return b ? BigDecimal.ONE : BigDecimal.ZERO;
        }
        if (value instanceof Double || value instanceof Float) {
            return ((Number) value).doubleValue();
        }
        if (value instanceof Number n) {
            return new BigDecimal(n.toString());
        }
        if (value instanceof String s) {
            return "'" + s + "'";
        }
        return value.toString();
    }

    static boolean same(List<List<Object>> a, List<List<Object>> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            List<Object> x = a.get(i);
            List<Object> y = b.get(i);
            if (x.size() != y.size()) {
                return false;
            }
            for (int c = 0; c < x.size(); c++) {
                if (!sameValue(x.get(c), y.get(c))) {
                    return false;
                }
            }
        }
        return true;
    }

    static boolean sameValue(Object x, Object y) {
        if (x == null || y == null) {
            return x == y;
        }
        if (x instanceof BigDecimal a && y instanceof BigDecimal b) {
            return a.compareTo(b) == 0;
        }
        if (x instanceof Number a && y instanceof Number b) {
            double p = a.doubleValue();
            double q = b.doubleValue();
            if (Double.isNaN(p) || Double.isInfinite(p) || Double.isNaN(q) || Double.isInfinite(q)) {
                return Double.compare(p, q) == 0;
            }
            return Math.abs(p - q) <= RELATIVE * Math.max(Math.abs(p), Math.abs(q));
        }
        return x.equals(y);
    }

    /**
     * The order unordered rows are compared in: column by column, NULL first, numbers by their value cut to 12
     * digits (so an exact number and the double of it sort to the same place, the next column deciding; two exact
     * numbers by their whole value then), the rest by text.
     */
    static final Comparator<List<Object>> ROW_ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = compareValues(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    private static int compareValues(Object x, Object y) {
        if (x == null || y == null) {
            return x == null ? (y == null ? 0 : -1) : 1;
        }
        if (x instanceof Number a && y instanceof Number b) {
            int c = rounded(a).compareTo(rounded(b));
            // exact numbers equal in 12 digits (9223372036854775806 and ...807) still sort apart
            return c != 0 || a instanceof Double || b instanceof Double ? c : ((BigDecimal) a).compareTo((BigDecimal) b);
        }
        if (x instanceof Number || y instanceof Number) {
            return x instanceof Number ? -1 : 1;
        }
        return x.toString().compareTo(y.toString());
    }

    private static BigDecimal rounded(Number n) {
        if (n instanceof Double d) {
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                return BigDecimal.valueOf(Double.isNaN(d) ? Double.MAX_VALUE : Math.signum(d) * Double.MAX_VALUE);
            }
            return new BigDecimal(d).round(ORDER_DIGITS);
        }
        return ((BigDecimal) n).round(ORDER_DIGITS);
    }

    static String text(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Double d) {
            return d + "~";
        }
        if (v instanceof BigDecimal d) {
            BigDecimal n = d.stripTrailingZeros();
            return n.signum() == 0 ? "0" : n.toPlainString();
        }
        return v.toString();
    }

    /** Rows as readable text: each value as its SQL literal, a double marked with {@code ~}. */
    static String show(List<List<Object>> rows) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < rows.size(); i++) {
            sb.append(i > 0 ? ", " : "").append('(');
            List<Object> row = rows.get(i);
            for (int c = 0; c < row.size(); c++) {
                Object v = row.get(c);
                sb.append(c > 0 ? ", " : "").append(text(v));
            }
            sb.append(')');
        }
        return sb.append(']').toString();
    }
}
