package io.kegdb.sql.catalog;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;

/**
 * A user table: one key column and one value column, stored in the keyspace that starts with the table's
 * 4-byte id. Ids are never reused, so data a crash left behind after DROP TABLE stays unreachable.
 * Length and scale of a column are as {@link ColumnType} defines them.
 */
public record TableDef(String schema, String name, int id, String keyColumn, ColumnType keyType, int keyLength,
                int keyScale, String valueColumn, ColumnType valueType, int valueLength, int valueScale) {

    /** The catalog entry format of stores written before DECIMAL: no scales. */
    private static final int FORMAT_WITHOUT_SCALES = 1;
    /** Format 1 followed by the key's and the value's scale. */
    private static final int FORMAT_WITH_SCALES = 2;
    /** Length of {@link #prefix()}: the table id. */
    public static final int PREFIX_LENGTH = 4;

    /** First bytes of every key of this table. */
    public byte[] prefix() {
        return ByteBuffer.allocate(PREFIX_LENGTH).putInt(id).array();
    }

    /** The first key after this table's keyspace (ids are below Integer.MAX_VALUE). */
    public byte[] prefixEnd() {
        return ByteBuffer.allocate(PREFIX_LENGTH).putInt(id + 1).array();
    }

    public String qualifiedName() {
        return schema + "." + name;
    }

    /** The key column ({@code index} 0, never null) or the value column (1) as results and metadata describe it. */
    public ColumnInfo column(int index) {
        boolean isKey = index == 0;
        ColumnType type = isKey ? keyType : valueType;
        int length = isKey ? keyLength : valueLength;
        return new ColumnInfo(isKey ? keyColumn : valueColumn, type.jdbcType, type.name(), type.precision(length),
                isKey ? keyScale : valueScale, !isKey, schema, name);
    }

    /** Store key of a non-null internal key value (no separate prefix array: this runs once per row). */
    public byte[] key(Object value) {
        return keyType.encodeKey(id, value, keyScale);
    }

    public Object decodeKey(byte[] key) {
        return keyType.decodeKey(key, PREFIX_LENGTH, keyScale);
    }

    /** The stored form of a value fitted by {@link #checkedValue}. */
    public byte[] encodeValue(Object value) {
        return valueType.encodeValue(value, valueScale);
    }

    public Object decodeValue(byte[] bytes) {
        return valueType.decodeValue(bytes, valueScale);
    }

    /** Checks and converts a key to be written: never null (23502) or NaN, fitted to its column. */
    public Object checkedKey(Object value) throws SqlError {
        Object v = keyType.coerce(value, keyColumn);
        if (v == null) {
            throw new SqlError(SqlState.NOT_NULL_VIOLATION, "the key column " + keyColumn + " of " + qualifiedName()
                    + " cannot be NULL");
        }
        if (v instanceof Double d && d.isNaN()) {
            // NaN is unordered in SQL comparisons, so no place in the key order would be right for it.
            throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "the key column " + keyColumn + " of "
                    + qualifiedName() + " cannot be NaN");
        }
        return keyType.fit(v, keyLength, keyScale, keyColumn);
    }

    public Object checkedValue(Object value) throws SqlError {
        return valueType.fit(valueType.coerce(value, valueColumn), valueLength, valueScale, valueColumn);
    }

    /**
     * The key a lookup for {@code value} reads, or null if no row can have it: NULL, NaN, or a DECIMAL with
     * more fractional digits than the key's scale or more whole digits than its precision leaves.
     */
    public Object searchKey(Object value) throws SqlError {
        Object v = keyType.coerce(value, keyColumn);
        if (v == null || (v instanceof Double d && d.isNaN()) || !ColumnType.exactAtScale(v, keyScale)
                || beyondKeyDigits(v)) {
            return null;
        }
        return v;
    }

    /**
     * Whether {@code value} (a DECIMAL at most as fine as the key's scale) has more whole digits than the key
     * column holds: no key equals it, and its key would not fit the 9-byte encoding.
     */
    private boolean beyondKeyDigits(Object value) {
        return value instanceof BigDecimal d && d.signum() != 0
                && d.precision() - d.scale() > keyLength - keyScale;
    }

    /**
     * Whether a value column of this table's type is stored in one form per SQL value, so {@code V = x}
     * can compare stored bytes: not DOUBLE (0.0 and -0.0 are equal but stored apart; NaN equals nothing).
     */
    public boolean valueBytesDecideEquality() {
        return valueType != ColumnType.DOUBLE;
    }

    /**
     * The stored form of the value a row must hold to satisfy {@code V = value}, or null if no row can: NULL,
     * or a DECIMAL with more fractional digits than the column's scale. Only for types whose stored bytes
     * decide equality ({@link #valueBytesDecideEquality}).
     */
    public byte[] searchValue(Object value) throws SqlError {
        Object v = valueType.coerce(value, valueColumn);
        if (v == null || !ColumnType.exactAtScale(v, valueScale)) {
            return null;
        }
        return valueType.encodeValue(v, valueScale);
    }

    /**
     * A range bound on the key in terms of stored keys: {@code value} itself, or for a DECIMAL with more
     * fractional digits than the key's scale the nearest key inside the range (rounded up for a lower bound,
     * down for an upper one), which is then an inclusive bound; for a DECIMAL with more whole digits than the
     * key holds, the column's extreme key on that side (inclusive). Null if no key lies on the range's side of
     * it: nothing compares with it (NULL, NaN), or a DECIMAL lower bound above every key or upper bound below.
     */
    public Bound rangeBound(Object value, boolean lower) throws SqlError {
        Object v = keyType.coerce(value, keyColumn);
        if (v == null || (v instanceof Double d && d.isNaN())) {
            return null;
        }
        boolean rounded = !ColumnType.exactAtScale(v, keyScale);
        if (rounded) {
            v = ((BigDecimal) v).setScale(keyScale, lower ? RoundingMode.CEILING : RoundingMode.FLOOR);
        }
        if (beyondKeyDigits(v)) {
            // past every key on one side: the range is empty, or the bound is the column's extreme key
            boolean aboveAll = ((BigDecimal) v).signum() > 0;
            if (aboveAll == lower) {
                return null;
            }
            BigDecimal largest = BigDecimal.TEN.pow(keyLength).subtract(BigDecimal.ONE).movePointLeft(keyScale);
            return new Bound(aboveAll ? largest : largest.negate(), true);
        }
        return new Bound(v, rounded);
    }

    /** A key bound; {@code inclusive} when it was rounded into the range and must be included whatever the operator. */
    public record Bound(Object value, boolean inclusive) {
    }

    public String keyDeclaration() {
        return keyType.declaration(keyLength, keyScale);
    }

    public String valueDeclaration() {
        return valueType.declaration(valueLength, valueScale);
    }

    byte[] serialize() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            boolean scales = keyScale != 0 || valueScale != 0;
            out.writeByte(scales ? FORMAT_WITH_SCALES : FORMAT_WITHOUT_SCALES);
            out.writeInt(id);
            out.writeUTF(keyColumn);
            out.writeUTF(keyType.name());
            out.writeInt(keyLength);
            out.writeUTF(valueColumn);
            out.writeUTF(valueType.name());
            out.writeInt(valueLength);
            if (scales) {
                out.writeInt(keyScale);
                out.writeInt(valueScale);
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static TableDef deserialize(String schema, String name, byte[] data) throws IOException {
        DataInputStream in = new DataInputStream(new ByteArrayInputStream(data));
        int format = in.readUnsignedByte();
        if (format != FORMAT_WITHOUT_SCALES && format != FORMAT_WITH_SCALES) {
            throw new IOException("catalog entry of " + schema + "." + name + " has unknown format " + format);
        }
        int id = in.readInt();
        String keyColumn = in.readUTF();
        ColumnType keyType = type(in.readUTF(), schema, name);
        int keyLength = in.readInt();
        String valueColumn = in.readUTF();
        ColumnType valueType = type(in.readUTF(), schema, name);
        int valueLength = in.readInt();
        int keyScale = format == FORMAT_WITH_SCALES ? in.readInt() : 0;
        int valueScale = format == FORMAT_WITH_SCALES ? in.readInt() : 0;
        return new TableDef(schema, name, id, keyColumn, keyType, keyLength, keyScale, valueColumn, valueType,
                valueLength, valueScale);
    }

    private static ColumnType type(String stored, String schema, String name) throws IOException {
        try {
            return ColumnType.valueOf(stored);
        } catch (IllegalArgumentException e) {
            throw new IOException("catalog entry of " + schema + "." + name + " has unknown column type " + stored
                    + " (written by a newer KegDB?)");
        }
    }
}
