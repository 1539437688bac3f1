package io.kegdb.jdbc.differential;

import java.math.BigDecimal;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * A query's rows in a form both databases' answers can be compared in: each value as text (numbers of any
 * Java type by their decimal value, so H2's INTEGER or NUMERIC and KegDB's BIGINT compare equal; bytes as hex;
 * NULL as {@code NULL}), rows kept in order when the query orders them totally and sorted otherwise.
 */
final class ResultRows {

    private ResultRows() {
    }

    static List<String> read(ResultSet rs, boolean ordered) throws SQLException {
        int columns = rs.getMetaData().getColumnCount();
        List<String> rows = new ArrayList<>();
        while (rs.next()) {
            StringBuilder row = new StringBuilder();
            for (int i = 1; i <= columns; i++) {
                row.append(i > 1 ? " | " : "").append(text(rs.getObject(i)));
            }
            rows.add(row.toString());
        }
        if (!ordered) {
            rows.sort(null);
        }
        return rows;
    }

    static String text(Object value) {
        if (value == null) {
            return "NULL";
        }
        if (value instanceof byte[] b) {
            return "X'" + HexFormat.of().formatHex(b) + "'";
        }
        if (value instanceof Number n) {
            BigDecimal d = new BigDecimal(n.toString()).stripTrailingZeros();
            return d.signum() == 0 ? "0" : d.toPlainString();
        }
        if (value instanceof String s) {
            return "'" + s + "'";
        }
        return value.toString();
    }
}
