package io.kegdb.raft;

import io.kegdb.engine.WriteBatch;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The data the split tests share: range 1 of group {@link #NAME} holding {@link #ROWS} keys of tables 5 and 9,
 * split between them at {@link #AT} (table 9's keyspace), which makes range 2, group {@link #RIGHT}.
 */
public final class TwoTableRange {

    public static final String NAME = "kg";
    public static final String RIGHT = "kg_r2";
    public static final int ROWS = 50;
    public static final byte[] AT = keyspace(9);

    private TwoTableRange() {
    }

    /** The first key of table {@code id}'s keyspace. */
    public static byte[] keyspace(int id) {
        return ByteBuffer.allocate(4).putInt(id).array();
    }

    public static byte[] key(int table, int n) {
        return ByteBuffer.allocate(8).putInt(table).putInt(n).array();
    }

    public static byte[] value(int table, int n) {
        return ("t" + table + "-" + n).getBytes(StandardCharsets.UTF_8);
    }

    /** The catalog version entry at {@code version}, as the SQL layer writes it. */
    public static byte[] catalogEntry(long version) {
        return ByteBuffer.allocate(12).putLong(version).putInt(20).array();
    }

    /** Every row of both tables, in one batch. */
    public static WriteBatch rows() {
        WriteBatch rows = new WriteBatch();
        for (int n = 0; n < ROWS; n++) {
            rows.put(key(5, n), value(5, n)).put(key(9, n), value(9, n));
        }
        return rows;
    }
}
