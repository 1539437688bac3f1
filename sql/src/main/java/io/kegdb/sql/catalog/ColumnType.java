package io.kegdb.sql.catalog;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import org.apache.calcite.avatica.util.ByteString;
import org.apache.calcite.sql.type.SqlTypeName;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.util.Locale;

/**
 * The three column types of a key/value table, with their byte encodings. Key encodings sort, as unsigned
 * bytes, in the order of the values (BIGINT: sign bit flipped, big-endian). Values carry a leading presence
 * byte so that NULL, '' and an empty binary stay distinct.
 *
 * <p>Values are held in Calcite's internal representation: String, {@link ByteString}, Long.
 */
public enum ColumnType {
    VARCHAR(SqlTypeName.VARCHAR, Types.VARCHAR),
    VARBINARY(SqlTypeName.VARBINARY, Types.VARBINARY),
    BIGINT(SqlTypeName.BIGINT, Types.BIGINT);

    private static final byte NULL_TAG = 0;
    private static final byte VALUE_TAG = 1;

    public final SqlTypeName sqlType;
    public final int jdbcType;

    ColumnType(SqlTypeName sqlType, int jdbcType) {
        this.sqlType = sqlType;
        this.jdbcType = jdbcType;
    }

    /** The type named in DDL, or null if it is not a key/value column type. */
    public static ColumnType named(String name) {
        return switch (name.toUpperCase(Locale.ROOT)) {
            case "VARCHAR" -> VARCHAR;
            case "VARBINARY" -> VARBINARY;
            case "BIGINT" -> BIGINT;
            default -> null;
        };
    }

    public boolean hasLength() {
        return this != BIGINT;
    }

    /** Converts a bound parameter or computed value to this type's internal form; null stays null. */
    public Object coerce(Object value, String column) throws SqlError {
        if (value == null) {
            return null;
        }
        switch (this) {
            case VARCHAR:
                if (value instanceof String s) {
                    return s;
                }
                if (value instanceof Number || value instanceof Boolean || value instanceof Character) {
                    return value.toString();
                }
                break;
            case VARBINARY:
                if (value instanceof byte[] b) {
                    return new ByteString(b);
                }
                if (value instanceof ByteString b) {
                    return b;
                }
                break;
            case BIGINT:
                if (value instanceof Long || value instanceof Integer || value instanceof Short
                        || value instanceof Byte) {
                    return ((Number) value).longValue();
                }
                if (value instanceof BigDecimal || value instanceof Double || value instanceof Float
                        || value instanceof java.math.BigInteger) {
                    try {
                        return new BigDecimal(value.toString()).longValueExact();
                    } catch (ArithmeticException | NumberFormatException e) {
                        throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                                "value " + value + " is not a BIGINT for column " + column);
                    }
                }
                if (value instanceof String s) {
                    try {
                        return Long.parseLong(s.trim());
                    } catch (NumberFormatException e) {
                        throw new SqlError(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST,
                                "cannot convert '" + s + "' to BIGINT for column " + column);
                    }
                }
                break;
            default:
                break;
        }
        throw new SqlError(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST,
                "cannot convert a " + value.getClass().getSimpleName() + " to " + name()
                + " for column " + column);
    }

    /** Fails with 22001 if an internal value is longer than {@code precision} (0 = unlimited). */
    void checkLength(Object value, int precision, String column) throws SqlError {
        if (precision <= 0 || value == null) {
            return;
        }
        long length = value instanceof String s ? s.codePointCount(0, s.length())
                : value instanceof ByteString b ? b.length() : 0;
        if (length > precision) {
            throw new SqlError(SqlState.STRING_DATA_RIGHT_TRUNCATION,
                    "value of length " + length + " is too long for column " + column
                    + " " + name() + "(" + precision + ")");
        }
    }

    /**
     * The store key of a non-null internal value in table {@code tableId}: the id as 4 big-endian bytes,
     * then the value's order-preserving encoding.
     */
    byte[] encodeKey(int tableId, Object value) {
        byte[] body = switch (this) {
            case VARCHAR -> ((String) value).getBytes(StandardCharsets.UTF_8);
            case VARBINARY -> ((ByteString) value).getBytes();
            case BIGINT -> longBytes(((Long) value) ^ Long.MIN_VALUE);
        };
        byte[] key = new byte[TableDef.PREFIX_LENGTH + body.length];
        key[0] = (byte) (tableId >>> 24);
        key[1] = (byte) (tableId >>> 16);
        key[2] = (byte) (tableId >>> 8);
        key[3] = (byte) tableId;
        System.arraycopy(body, 0, key, TableDef.PREFIX_LENGTH, body.length);
        return key;
    }

    /** Decodes a key written by {@link #encodeKey} whose first {@code offset} bytes are the table prefix. */
    Object decodeKey(byte[] key, int offset) {
        return switch (this) {
            case VARCHAR -> new String(key, offset, key.length - offset, StandardCharsets.UTF_8);
            case VARBINARY -> new ByteString(java.util.Arrays.copyOfRange(key, offset, key.length));
            case BIGINT -> readLong(key, offset) ^ Long.MIN_VALUE;
        };
    }

    public byte[] encodeValue(Object value) {
        if (value == null) {
            return new byte[] {NULL_TAG};
        }
        byte[] body = switch (this) {
            case VARCHAR -> ((String) value).getBytes(StandardCharsets.UTF_8);
            case VARBINARY -> ((ByteString) value).getBytes();
            case BIGINT -> longBytes((Long) value);
        };
        byte[] out = new byte[body.length + 1];
        out[0] = VALUE_TAG;
        System.arraycopy(body, 0, out, 1, body.length);
        return out;
    }

    public Object decodeValue(byte[] bytes) {
        if (bytes.length == 0 || bytes[0] == NULL_TAG) {
            return null;
        }
        return switch (this) {
            case VARCHAR -> new String(bytes, 1, bytes.length - 1, StandardCharsets.UTF_8);
            case VARBINARY -> new ByteString(java.util.Arrays.copyOfRange(bytes, 1, bytes.length));
            case BIGINT -> readLong(bytes, 1);
        };
    }

    static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 7; i >= 0; i--) {
            b[i] = (byte) v;
            v >>>= 8;
        }
        return b;
    }

    static long readLong(byte[] b, int offset) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (b[offset + i] & 0xFF);
        }
        return v;
    }
}
