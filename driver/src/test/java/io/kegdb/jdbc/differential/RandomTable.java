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
 * A key/value table with random rows: {@code name (k keyType PRIMARY KEY, v valueType)}, up to 40 rows, a fifth
 * of the values NULL. The same definition and rows are loaded into each database.
 */
record RandomTable(String name, ColumnType keyType, ColumnType valueType, List<Object[]> rows) {

    static RandomTable random(String name, Random r) {
        ColumnType[] types = ColumnType.values();
        ColumnType keyType = types[r.nextInt(types.length)];
        ColumnType valueType = types[r.nextInt(types.length)];
        Map<String, Object[]> byKey = new LinkedHashMap<>(); // keys compared by content (byte[] has no equals)
        int count = r.nextInt(41);
        for (int i = 0; i < count; i++) {
            Object k = keyType.value(r);
            Object v = r.nextInt(5) == 0 ? null : valueType.value(r);
            byKey.putIfAbsent(k instanceof byte[] b ? HexFormat.of().formatHex(b) : k.toString(), new Object[] {k, v});
        }
        return new RandomTable(name, keyType, valueType, List.copyOf(new ArrayList<>(byKey.values())));
    }

    String ddl() {
        return "CREATE TABLE " + name + " (k " + keyType + " PRIMARY KEY, v " + valueType + ")";
    }

    void load(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.executeUpdate(ddl());
        }
        try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + name + " (k, v) VALUES (?, ?)")) {
            for (Object[] row : rows) {
                ins.setObject(1, row[0]);
                ins.setObject(2, row[1]);
                ins.executeUpdate();
            }
        }
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder(ddl()).append(";");
        if (!rows.isEmpty()) {
            sb.append(" INSERT INTO ").append(name).append(" VALUES ");
            for (int i = 0; i < rows.size(); i++) {
                Object[] row = rows.get(i);
                sb.append(i > 0 ? ", " : "").append('(').append(keyType.literal(row[0])).append(", ")
                        .append(row[1] == null ? "NULL" : valueType.literal(row[1])).append(')');
            }
            sb.append(';');
        }
        return sb.toString();
    }
}
