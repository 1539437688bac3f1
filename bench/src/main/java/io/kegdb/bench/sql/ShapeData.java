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

    public static String key(int i) {
        return String.format("k%06d", i);
    }

    public static String value(int i) {
        return String.format("v%02d", (i * 37) % DISTINCT_VALUES);
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
