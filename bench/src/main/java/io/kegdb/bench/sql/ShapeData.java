package io.kegdb.bench.sql;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The data every database gets: {@code kv} with {@code rows} rows (keys {@code k000000}, {@code k000001}, ...:
 * fixed width, so text order is numeric order; values {@code v00}..{@code v99}, a hundred distinct ones spread
 * evenly over the keys) and {@code other} with a tenth as many rows, keyed by every tenth key of {@code kv}, so a
 * join on the key finds one match in ten.
 */
public final class ShapeData {
    /** Distinct values in {@code kv.v}: the groups of a GROUP BY on the value. */
    public static final int DISTINCT_VALUES = 100;
    private static final int BATCH = 1000;

    private final int rows;

    public ShapeData(int rows) {
        if (rows < 1000) {
            throw new IllegalArgumentException("at least 1000 rows, not " + rows);
        }
        this.rows = rows;
    }

    public int rows() {
        return rows;
    }

    public int otherRows() {
        return rows / 10;
    }

    /**
     * {@code k000042}: made inside the timed loops, so without {@code String.format}, whose parsing and locale
     * look-ups cost about as much as a whole KegDB statement and would count against every database alike.
     */
    public static String key(int i) {
        return zeroPadded('k', i, 6);
    }

    public static String value(int i) {
        return zeroPadded('v', (i * 37) % DISTINCT_VALUES, 2);
    }

    /** {@code prefix} and {@code n} (non-negative, at most {@code digits} digits) with leading zeros. */
    static String zeroPadded(char prefix, int n, int digits) {
        char[] out = new char[digits + 1];
        out[0] = prefix;
        for (int d = digits; d >= 1; d--) {
            out[d] = (char) ('0' + n % 10);
            n /= 10;
        }
        return new String(out);
    }

    public static String otherValue(int i) {
        return "o" + i;
    }

    /** Drops and creates both tables (a new KegDB store already has {@code kv}) and loads them, 1000 rows a commit. */
    public void load(Connection c) throws SQLException {
        try (Statement s = c.createStatement()) {
            for (String table : new String[] {"kv", "other"}) {
                s.executeUpdate("DROP TABLE IF EXISTS " + table);
                s.executeUpdate("CREATE TABLE " + table + " (k VARCHAR PRIMARY KEY, v VARCHAR)");
            }
        }
        boolean autoCommit = c.getAutoCommit();
        c.setAutoCommit(false);
        try {
            insert(c, "kv", rows, 1);
            insert(c, "other", otherRows(), 10);
        } finally {
            c.setAutoCommit(autoCommit);
        }
    }

    private static void insert(Connection c, String table, int count, int keyStep) throws SQLException {
        try (PreparedStatement ins = c.prepareStatement("INSERT INTO " + table + " (k, v) VALUES (?, ?)")) {
            for (int i = 0; i < count; i++) {
                ins.setString(1, key(i * keyStep));
                ins.setString(2, keyStep == 1 ? value(i) : otherValue(i));
                ins.addBatch();
                if ((i + 1) % BATCH == 0 || i == count - 1) {
                    ins.executeBatch();
                    c.commit();
                }
            }
        }
    }
}
