package io.kegdb.jdbc.differential;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * A key/value table with random rows: {@code name (k keyType PRIMARY KEY, v valueType)}, empty now and then and
 * otherwise up to 40 rows, with a share of NULL values drawn per table (none, a fifth, half or nearly all). The
 * same definition and rows are loaded into each database; after a write the databases agreed on, the test keeps
 * the rows they then hold ({@link #withRows}), so a reproduction starts from the table as the statement saw it.
 */
record RandomTable(String name, ColumnType keyType, ColumnType valueType, List<Object[]> rows) {

    private static final int[] NULL_PERCENT = {0, 20, 50, 90};

    static RandomTable random(String name, Random r) {
        ColumnType[] types = ColumnType.values();
        ColumnType keyType = types[r.nextInt(types.length)];
        ColumnType valueType = types[r.nextInt(types.length)];
        int nullPercent = NULL_PERCENT[r.nextInt(NULL_PERCENT.length)];
        Map<String, Object[]> byKey = new LinkedHashMap<>(); // keys compared by content (byte[] has no equals)
        int count = r.nextInt(5) == 0 ? 0 : 1 + r.nextInt(40);
        for (int i = 0; i < count; i++) {
            Object k = keyType.value(r);
            Object v = r.nextInt(100) < nullPercent ? null : valueType.value(r);
            byKey.putIfAbsent(keyText(k), new Object[] {k, v});
        }
        return new RandomTable(name, keyType, valueType, List.copyOf(byKey.values()));
    }

    /** A key's identity: its content (byte[] has no equals); -0.0 is the key 0.0, as every database stores it. */
    static String keyText(Object k) {
        return k instanceof byte[] b ? HexFormat.of().formatHex(b) : k instanceof Double d && d == 0.0 ? "0.0"
                : k.toString();
    }

    /** The same table holding other rows. */
    RandomTable withRows(List<Object[]> newRows) {
        return new RandomTable(name, keyType, valueType, List.copyOf(newRows));
    }

    boolean hasKey(Object k) {
        String text = keyText(k);
        return rows.stream().anyMatch(row -> keyText(row[0]).equals(text));
    }

    String ddl(Dialect d) {
        return "CREATE TABLE " + name + " (k " + d.type(keyType) + " PRIMARY KEY, v " + d.type(valueType) + ")";
    }

    /** Creates the table and inserts the rows, in one transaction. */
    void load(Connection c, Dialect d) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate(ddl(d));
        }
        c.setAutoCommit(false);
        try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + name + " (k, v) VALUES (?, ?)")) {
            for (Object[] row : rows) {
                ins.setObject(1, row[0]);
                ins.setObject(2, row[1]);
                ins.executeUpdate();
            }
            c.commit();
        } finally {
            c.setAutoCommit(true);
        }
    }

    /** The rows as one INSERT of literals (KegDB's and H2's SQL), or null for an empty table. */
    String insertSql() {
        if (rows.isEmpty()) {
            return null;
        }
        StringBuilder sb = new StringBuilder("INSERT INTO ").append(name).append(" VALUES ");
        for (int i = 0; i < rows.size(); i++) {
            Object[] row = rows.get(i);
            sb.append(i > 0 ? ", " : "").append('(').append(keyType.literal(row[0])).append(", ")
                    .append(row[1] == null ? "NULL" : valueType.literal(row[1])).append(')');
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        String insert = insertSql();
        return ddl(Dialect.KEGDB) + ";" + (insert == null ? "" : " " + insert + ";");
    }
}
