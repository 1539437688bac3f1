package io.kegdb.jdbc.fuzz;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A fingerprint of every user table's name, column types and rows as one connection sees them (its pending
 * writes included): equal digests mean equal data. Also reports row counts per table.
 */
record TableDigest(String sha256, Map<String, Long> rowCounts) {

    static TableDigest of(Connection c) throws SQLException {
        MessageDigest md;
        try {
            md = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        List<String[]> tables = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME, KEY_TYPE, VALUE_TYPE FROM SYS.TABLES"
                     + " ORDER BY TABLE_SCHEMA, TABLE_NAME")) {
            while (rs.next()) {
                tables.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)});
            }
        }
        Map<String, Long> counts = new TreeMap<>();
        for (String[] t : tables) {
            String name = quote(t[0]) + "." + quote(t[1]);
            update(md, String.join("\u0001", t));
            long rows = 0;
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT * FROM " + name)) {
                while (rs.next()) {
                    update(md, value(rs.getObject(1)));
                    update(md, value(rs.getObject(2)));
                    rows++;
                }
            }
            counts.put(t[0] + "." + t[1], rows);
        }
        return new TableDigest(HexFormat.of().formatHex(md.digest()), counts);
    }

    static String quote(String identifier) {
        return '"' + identifier.replace("\"", "\"\"") + '"';
    }

    private static String value(Object v) {
        if (v == null) {
            return "N";
        }
        if (v instanceof byte[] b) {
            return "B" + HexFormat.of().formatHex(b);
        }
        return v.getClass().getSimpleName().charAt(0) + v.toString();
    }

    private static void update(MessageDigest md, String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        md.update((byte) (b.length >>> 24));
        md.update((byte) (b.length >>> 16));
        md.update((byte) (b.length >>> 8));
        md.update((byte) b.length);
        md.update(b);
    }

    long totalRows() {
        return rowCounts.values().stream().mapToLong(Long::longValue).sum();
    }
}
