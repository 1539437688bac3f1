package io.kegdb.raft.users;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Where users live in the store: the system span is keyspace 0 ({@code [00 00 00 00, 00 00 00 01)}), which
 * also holds the SQL catalog ({@code 0000 'T'}, {@code 'M'}, {@code 'V'}). Users take {@code 0000 'A'}: a
 * record per user at {@code 0000 'A' 'U' name} and the cluster's ticket secret at {@code 0000 'A' 'S'}. No
 * client may read or write that span directly; only nodes do.
 *
 * <p>A table's keyspace is the 4-byte big-endian table id its keys start with; a key shorter than 4 bytes
 * belongs to the keyspace of its zero-padded prefix.
 */
public final class SystemKeys {

    /** The first key of the users' span and the first after it. */
    public static final byte[] AUTH_START = {0, 0, 0, 0, 'A'};
    public static final byte[] AUTH_END = {0, 0, 0, 0, 'B'};
    static final byte[] USER_PREFIX = {0, 0, 0, 0, 'A', 'U'};
    static final byte[] USER_PREFIX_END = {0, 0, 0, 0, 'A', 'V'};
    /** The secret tickets are authenticated with, 32 random bytes made with the first user. */
    public static final byte[] SECRET = {0, 0, 0, 0, 'A', 'S'};
    /** The catalog's table entries, {@code 0000 'T' schema 0x00 name} (written by the SQL layer). */
    static final byte[] CATALOG_TABLES = {0, 0, 0, 0, 'T'};
    static final byte[] CATALOG_TABLES_END = {0, 0, 0, 0, 'U'};

    private SystemKeys() {
    }

    static byte[] userKey(String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        byte[] key = Arrays.copyOf(USER_PREFIX, USER_PREFIX.length + n.length);
        System.arraycopy(n, 0, key, USER_PREFIX.length, n.length);
        return key;
    }

    /** The keyspace (table id) {@code key} belongs to, 0 for the system span. */
    static long keyspace(byte[] key) {
        long id = 0;
        for (int i = 0; i < 4; i++) {
            id = (id << 8) | (i < key.length ? key[i] & 0xff : 0);
        }
        return id;
    }

    /** The first key of keyspace {@code id}. */
    static byte[] start(long id) {
        return new byte[] {(byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id};
    }

    /** The last keyspace a range ending before {@code toExclusive} reaches. */
    static long lastKeyspace(byte[] toExclusive) {
        long id = keyspace(toExclusive);
        return Arrays.compareUnsigned(toExclusive, start(id)) <= 0 ? id - 1 : id;
    }

    /** Whether {@code [from, to)} (null bounds open) overlaps the users' span. */
    static boolean touchesAuth(byte[] from, byte[] to) {
        boolean startsBeforeEnd = from == null || Arrays.compareUnsigned(from, AUTH_END) < 0;
        boolean endsAfterStart = to == null || Arrays.compareUnsigned(to, AUTH_START) > 0;
        return startsBeforeEnd && endsAfterStart;
    }

    static boolean isAuth(byte[] key) {
        return Arrays.compareUnsigned(key, AUTH_START) >= 0 && Arrays.compareUnsigned(key, AUTH_END) < 0;
    }
}
