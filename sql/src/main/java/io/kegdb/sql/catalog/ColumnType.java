package io.kegdb.sql.catalog;

import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;
import org.apache.calcite.avatica.util.ByteString;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.Arrays;

/**
 * The column types of a key/value table, with their byte encodings. Key encodings sort, as unsigned bytes, in
 * the order of the values: integers and dates big-endian with the sign bit flipped, DOUBLE by the IEEE trick
 * (positive: sign bit flipped; negative: all bits flipped), DECIMAL as its unscaled value at the column's scale
 * in 9 bytes (19 digits need 65 bits) with the sign bit flipped. Values carry a leading presence byte so that
 * NULL, '' and an empty binary stay distinct.
 *
 * <p>Values are held in Calcite's internal representation: String, {@link ByteString}, Long, Integer, Double,
 * Boolean, BigDecimal, DATE as Integer days since 1970-01-01, TIMESTAMP as Long milliseconds since
 * 1970-01-01 00:00 (a local date-time, no time zone).
 *
 * <p>Each constant is named as Calcite's SQL type of the column. Nothing here initializes Calcite, whose
 * defaults (the character set) the SQL layer sets before its first use.
 *
 * <p>Length: the maximum length of VARCHAR and VARBINARY (0 = unlimited), the precision of DECIMAL, the
 * fractional-second digits of TIMESTAMP (at most 3: values are kept to the millisecond). Scale: DECIMAL only.
 */
public enum ColumnType {
    VARCHAR(Types.VARCHAR),
    VARBINARY(Types.VARBINARY),
    BIGINT(Types.BIGINT),
    INTEGER(Types.INTEGER),
    DOUBLE(Types.DOUBLE),
    BOOLEAN(Types.BOOLEAN),
    DECIMAL(Types.DECIMAL),
    DATE(Types.DATE),
    TIMESTAMP(Types.TIMESTAMP);

    /** The largest DECIMAL precision of a column: what the 9-byte key encoding holds (computed values go to 38). */
    public static final int MAX_DECIMAL_PRECISION = 19;
    /** The largest DECIMAL precision of a computed value (SQL Server's and Oracle's limit; Calcite's division rule assumes 38). */
    public static final int MAX_COMPUTED_DECIMAL_PRECISION = 38;
    /** Fractional-second digits a TIMESTAMP keeps (Calcite's internal form is milliseconds). */
    public static final int MAX_TIMESTAMP_PRECISION = 3;
    private static final int DECIMAL_KEY_BYTES = 9;
    private static final byte NULL_TAG = 0;
    private static final byte VALUE_TAG = 1;

    public final int jdbcType;

    ColumnType(int jdbcType) {
        this.jdbcType = jdbcType;
    }

    /** Whether the type takes a maximum length {@code (n)}. */
    public boolean hasLength() {
        return this == VARCHAR || this == VARBINARY;
    }

    /** The type as DDL declares it, e.g. {@code VARCHAR(20)}, {@code DECIMAL(10,2)}, {@code TIMESTAMP(3)}. */
    public String declaration(int length, int scale) {
        return switch (this) {
            case VARCHAR, VARBINARY -> length > 0 ? name() + "(" + length + ")" : name();
            case DECIMAL -> name() + "(" + length + "," + scale + ")";
            case TIMESTAMP -> name() + "(" + length + ")";
            default -> name();
        };
    }

    /** Precision as JDBC metadata reports it (Calcite's precision of the type; 0 when it has none). */
    public int precision(int length) {
        return switch (this) {
            case BIGINT -> 19;
            case INTEGER -> 10;
            case DOUBLE -> 15;
            case BOOLEAN -> 1;
            case DATE -> 0;
            default -> length;
        };
    }

    /** Converts a bound parameter or computed value to this type's internal form; null stays null. */
    public Object coerce(Object value, String column) throws SqlError {
        if (value == null) {
            return null;
        }
        Object v = switch (this) {
            case VARCHAR -> value instanceof String || value instanceof Number || value instanceof Boolean
                    || value instanceof Character ? value.toString() : null;
            case VARBINARY -> value instanceof byte[] b ? new ByteString(b) : value instanceof ByteString ? value : null;
            case BIGINT -> integral(value, Long.MIN_VALUE, Long.MAX_VALUE, column);
            case INTEGER -> {
                Long l = integral(value, Integer.MIN_VALUE, Integer.MAX_VALUE, column);
                yield l == null ? null : (Object) l.intValue();
            }
            case DOUBLE -> value instanceof Number n ? (Object) n.doubleValue()
                    : value instanceof String s ? (Object) parseDouble(s, column) : null;
            case BOOLEAN -> value instanceof Boolean ? value : value instanceof String s ? parseBoolean(s, column) : null;
            case DECIMAL -> decimal(value, column);
            case DATE -> date(value, column);
            case TIMESTAMP -> timestamp(value, column);
        };
        if (v == null) {
            throw new SqlError(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST,
                    "cannot convert a " + value.getClass().getSimpleName() + " to " + name() + " for column " + column);
        }
        return v;
    }

    /** A whole number within [min, max] from an integral or exact numeric value or a numeral; null if neither. */
    private Long integral(Object value, long min, long max, String column) throws SqlError {
        long l;
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            l = ((Number) value).longValue();
        } else if (value instanceof BigDecimal || value instanceof Double || value instanceof Float
                || value instanceof BigInteger) {
            try {
                l = new BigDecimal(value.toString()).longValueExact();
            } catch (ArithmeticException | NumberFormatException e) {
                throw outOfRange(value, column);
            }
        } else if (value instanceof String s) {
            try {
                l = Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                throw new SqlError(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST,
                        "cannot convert '" + s + "' to " + name() + " for column " + column);
            }
        } else {
            return null;
        }
        if (l < min || l > max) {
            throw outOfRange(value, column);
        }
        return l;
    }

    private SqlError outOfRange(Object value, String column) {
        return new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                "value " + value + " is not a" + (this == INTEGER ? "n " : " ") + name() + " for column " + column);
    }

    private double parseDouble(String s, String column) throws SqlError {
        try {
            return Double.parseDouble(s.trim());
        } catch (NumberFormatException e) {
            throw new SqlError(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST,
                    "cannot convert '" + s + "' to DOUBLE for column " + column);
        }
    }

    private static Boolean parseBoolean(String s, String column) throws SqlError {
        String t = s.trim();
        if (t.equalsIgnoreCase("true")) {
            return true;
        }
        if (t.equalsIgnoreCase("false")) {
            return false;
        }
        throw new SqlError(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST,
                "cannot convert '" + s + "' to BOOLEAN for column " + column);
    }

    private static BigDecimal decimal(Object value, String column) throws SqlError {
        if (value instanceof BigDecimal d) {
            return d;
        }
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
            return BigDecimal.valueOf(((Number) value).longValue());
        }
        if (value instanceof BigInteger i) {
            return new BigDecimal(i);
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE,
                        "value " + d + " is not a DECIMAL for column " + column);
            }
            return BigDecimal.valueOf(d);
        }
        if (value instanceof String s) {
            try {
                return new BigDecimal(s.trim());
            } catch (NumberFormatException e) {
                throw new SqlError(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST,
                        "cannot convert '" + s + "' to DECIMAL for column " + column);
            }
        }
        return null;
    }

    /** Days since 1970-01-01 from a date, a date-time (its date), a numeral of days, or an ISO date text. */
    private static Integer date(Object value, String column) throws SqlError {
        if (value instanceof Integer days) {
            return days;
        }
        if (value instanceof LocalDate d) {
            return Math.toIntExact(d.toEpochDay());
        }
        if (value instanceof LocalDateTime t) {
            return Math.toIntExact(t.toLocalDate().toEpochDay());
        }
        if (value instanceof java.sql.Date d) {
            return Math.toIntExact(d.toLocalDate().toEpochDay());
        }
        if (value instanceof String s) {
            try {
                return Math.toIntExact(LocalDate.parse(s.trim()).toEpochDay());
            } catch (DateTimeParseException e) {
                throw new SqlError(SqlState.INVALID_DATETIME_FORMAT,
                        "'" + s + "' is not a DATE (yyyy-mm-dd) for column " + column);
            }
        }
        return null;
    }

    /** Milliseconds since 1970-01-01 00:00 from a date-time, a date (its midnight), or a text. */
    private static Long timestamp(Object value, String column) throws SqlError {
        if (value instanceof Long millis) {
            return millis;
        }
        if (value instanceof String s && s.trim().length() == 10) {
            return timestamp(date(s, column).longValue() * 86_400_000L, column);
        }
        LocalDateTime t = null;
        if (value instanceof LocalDateTime l) {
            t = l;
        } else if (value instanceof LocalDate d) {
            t = d.atStartOfDay();
        } else if (value instanceof java.sql.Timestamp ts) {
            t = ts.toLocalDateTime();
        } else if (value instanceof String s) {
            try {
                // java.sql.Timestamp's text, or LocalDateTime's (a 'T' between date and time)
                t = java.sql.Timestamp.valueOf(s.trim().replace('T', ' ')).toLocalDateTime();
            } catch (IllegalArgumentException e) {
                throw new SqlError(SqlState.INVALID_DATETIME_FORMAT,
                        "'" + s + "' is not a TIMESTAMP (yyyy-mm-dd hh:mm:ss[.f...]) for column " + column);
            }
        }
        return t == null ? null : t.toInstant(ZoneOffset.UTC).toEpochMilli();
    }

    /**
     * Fits an internal value to the column as an assignment does: fails with 22001 if a VARCHAR/VARBINARY is
     * longer than {@code length} (0 = unlimited); rounds a DECIMAL half up to {@code scale} and fails with
     * 22003 if it then has more than {@code length} digits; drops a TIMESTAMP's digits beyond {@code length};
     * makes a DOUBLE -0.0 the 0.0 it equals.
     */
    Object fit(Object value, int length, int scale, String column) throws SqlError {
        if (value == null) {
            return null;
        }
        switch (this) {
            case VARCHAR, VARBINARY -> {
                long n = value instanceof String s ? s.codePointCount(0, s.length()) : ((ByteString) value).length();
                if (length > 0 && n > length) {
                    throw new SqlError(SqlState.STRING_DATA_RIGHT_TRUNCATION, "value of length " + n
                            + " is too long for column " + column + " " + name() + "(" + length + ")");
                }
                return value;
            }
            case DECIMAL -> {
                BigDecimal d = ((BigDecimal) value).setScale(scale, RoundingMode.HALF_UP);
                if (d.precision() - d.scale() > length - scale) {
                    throw new SqlError(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value " + value
                            + " does not fit column " + column + " " + declaration(length, scale));
                }
                return d;
            }
            case TIMESTAMP -> {
                long unit = length >= MAX_TIMESTAMP_PRECISION ? 1 : length == 2 ? 10 : length == 1 ? 100 : 1000;
                long millis = (Long) value;
                return millis - Math.floorMod(millis, unit);
            }
            case DOUBLE -> {
                // -0.0 equals 0.0 in SQL, but Calcite groups, joins and de-duplicates doubles with
                // Double.equals, which tells them apart: one stored zero keeps them one value
                return (Double) value == 0.0 ? (Object) 0.0 : value;
            }
            default -> {
                return value;
            }
        }
    }

    /** Whether a DECIMAL value has no more fractional digits than {@code scale} (other types: always). */
    static boolean exactAtScale(Object value, int scale) {
        return !(value instanceof BigDecimal d) || d.stripTrailingZeros().scale() <= scale;
    }

    /**
     * The store key of a non-null internal value in table {@code tableId}: the id as 4 big-endian bytes,
     * then the value's order-preserving encoding. A DECIMAL must be exact at {@code scale}.
     */
    byte[] encodeKey(int tableId, Object value, int scale) {
        byte[] body = switch (this) {
            case VARCHAR -> ((String) value).getBytes(StandardCharsets.UTF_8);
            case VARBINARY -> ((ByteString) value).getBytes();
            case BIGINT, TIMESTAMP -> longBytes(((Long) value) ^ Long.MIN_VALUE);
            case INTEGER, DATE -> intBytes(((Integer) value) ^ Integer.MIN_VALUE);
            case DOUBLE -> longBytes(orderedDoubleBits((Double) value));
            case BOOLEAN -> new byte[] {(byte) ((Boolean) value ? 1 : 0)};
            case DECIMAL -> decimalKey((BigDecimal) value, scale);
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
    Object decodeKey(byte[] key, int offset, int scale) {
        return switch (this) {
            case VARCHAR -> new String(key, offset, key.length - offset, StandardCharsets.UTF_8);
            case VARBINARY -> new ByteString(Arrays.copyOfRange(key, offset, key.length));
            case BIGINT, TIMESTAMP -> readLong(key, offset) ^ Long.MIN_VALUE;
            case INTEGER, DATE -> readInt(key, offset) ^ Integer.MIN_VALUE;
            case DOUBLE -> Double.longBitsToDouble(unorderedDoubleBits(readLong(key, offset)));
            case BOOLEAN -> key[offset] != 0;
            case DECIMAL -> {
                byte[] b = Arrays.copyOfRange(key, offset, offset + DECIMAL_KEY_BYTES);
                b[0] ^= (byte) 0x80;
                yield new BigDecimal(new BigInteger(b), scale);
            }
        };
    }

    /** IEEE bits made to sort as unsigned bytes in numeric order; -0.0 is stored as 0.0 (they are equal in SQL). */
    private static long orderedDoubleBits(double d) {
        long bits = Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
        return bits < 0 ? ~bits : bits ^ Long.MIN_VALUE;
    }

    private static long unorderedDoubleBits(long ordered) {
        return ordered < 0 ? ordered ^ Long.MIN_VALUE : ~ordered;
    }

    private static byte[] decimalKey(BigDecimal value, int scale) {
        byte[] unscaled = value.setScale(scale, RoundingMode.UNNECESSARY).unscaledValue().toByteArray();
        byte[] b = new byte[DECIMAL_KEY_BYTES];
        byte fill = unscaled[0] < 0 ? (byte) 0xFF : 0;
        int pad = DECIMAL_KEY_BYTES - unscaled.length;
        Arrays.fill(b, 0, pad, fill);
        System.arraycopy(unscaled, 0, b, pad, unscaled.length);
        b[0] ^= (byte) 0x80;
        return b;
    }

    /** The stored form of an internal value (null: NULL) of this type at {@code scale}. */
    public byte[] encodeValue(Object value, int scale) {
        if (value == null) {
            return new byte[] {NULL_TAG};
        }
        byte[] body = switch (this) {
            case VARCHAR -> ((String) value).getBytes(StandardCharsets.UTF_8);
            case VARBINARY -> ((ByteString) value).getBytes();
            case BIGINT, TIMESTAMP -> longBytes((Long) value);
            case INTEGER, DATE -> intBytes((Integer) value);
            case DOUBLE -> longBytes(Double.doubleToRawLongBits((Double) value));
            case BOOLEAN -> new byte[] {(byte) ((Boolean) value ? 1 : 0)};
            case DECIMAL -> ((BigDecimal) value).setScale(scale, RoundingMode.UNNECESSARY).unscaledValue().toByteArray();
        };
        byte[] out = new byte[body.length + 1];
        out[0] = VALUE_TAG;
        System.arraycopy(body, 0, out, 1, body.length);
        return out;
    }

    Object decodeValue(byte[] bytes, int scale) {
        if (bytes.length == 0 || bytes[0] == NULL_TAG) {
            return null;
        }
        return switch (this) {
            case VARCHAR -> new String(bytes, 1, bytes.length - 1, StandardCharsets.UTF_8);
            case VARBINARY -> new ByteString(Arrays.copyOfRange(bytes, 1, bytes.length));
            case BIGINT, TIMESTAMP -> readLong(bytes, 1);
            case INTEGER, DATE -> readInt(bytes, 1);
            case DOUBLE -> Double.longBitsToDouble(readLong(bytes, 1));
            case BOOLEAN -> bytes[1] != 0;
            case DECIMAL -> new BigDecimal(new BigInteger(Arrays.copyOfRange(bytes, 1, bytes.length)), scale);
        };
    }

    /** Whether {@code stored}, a stored value of any type, is NULL. */
    public static boolean isNullValue(byte[] stored) {
        return isNullValue(stored, 0, stored.length);
    }

    /** {@link #isNullValue(byte[])} of the stored value {@code a[offset, offset + length)}, read in place. */
    public static boolean isNullValue(byte[] a, int offset, int length) {
        return length == 0 || a[offset] == NULL_TAG;
    }

    /**
     * Whether {@link #compareValues} orders stored values of this type as SQL orders the values: VARCHAR (UTF-8,
     * compared as Java compares the strings), BIGINT, INTEGER, DATE and TIMESTAMP (fixed-width integers). Not
     * DOUBLE (0.0 and -0.0, NaN), DECIMAL (stored at variable length), BOOLEAN or VARBINARY.
     */
    public boolean valuesCompareStored() {
        return this == VARCHAR || this == BIGINT || this == INTEGER || this == DATE || this == TIMESTAMP;
    }

    /**
     * Compares two non-NULL stored values of a type whose {@link #valuesCompareStored} holds, without decoding
     * them: negative, zero or positive as {@code a} is before, equal to or after {@code b} in SQL order.
     */
    public int compareValues(byte[] a, byte[] b) {
        return compareValues(a, 0, a.length, b, 0, b.length);
    }

    /**
     * {@link #compareValues(byte[], byte[])} of the stored values {@code a[aOffset, aOffset + aLength)} and
     * {@code b[bOffset, bOffset + bLength)}, read in place (a scan compares its cursor's view).
     */
    public int compareValues(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength) {
        return switch (this) {
            case BIGINT, TIMESTAMP -> Long.compare(readLong(a, aOffset + 1), readLong(b, bOffset + 1));
            case INTEGER, DATE -> Integer.compare(readInt(a, aOffset + 1), readInt(b, bOffset + 1));
            case VARCHAR -> compareUtf8AsUtf16(a, aOffset, aLength, b, bOffset, bLength);
            default -> throw new IllegalStateException(this + " values are not compared stored");
        };
    }

    /**
     * Compares UTF-8 texts (after the presence byte) in the order of their UTF-16 code units, which is how Java
     * and so SQL here compare strings. The two orders differ in one case only: at the first differing byte (the
     * lead bytes of two code points of different UTF-8 lengths) one code point lies in U+E000..U+FFFF (lead byte
     * EE or EF) and the other above U+FFFF (lead byte F0..F4), whose UTF-16 form starts with a surrogate, D800..DBFF.
     */
    private static int compareUtf8AsUtf16(byte[] a, int aOffset, int aLength, byte[] b, int bOffset, int bLength) {
        int n = Math.min(aLength, bLength);
        int i = java.util.Arrays.mismatch(a, aOffset + 1, aOffset + n, b, bOffset + 1, bOffset + n);
        if (i < 0) {
            return Integer.compare(aLength, bLength);
        }
        int x = a[aOffset + 1 + i] & 0xFF;
        int y = b[bOffset + 1 + i] & 0xFF;
        if (x >= 0xEE && y >= 0xEE && (x >= 0xF0) != (y >= 0xF0)) {
            return x >= 0xF0 ? -1 : 1;
        }
        return Integer.compare(x, y);
    }

    /**
     * The number a non-NULL stored value of an integer or date-time type holds, read from its bytes: INTEGER and
     * DATE as their int, BIGINT and TIMESTAMP as their long. For aggregates that add or compare values unboxed.
     */
    public long storedLong(byte[] stored) {
        return storedLong(stored, 0);
    }

    /** {@link #storedLong(byte[])} of the stored value starting at {@code a[offset]}, read in place. */
    public long storedLong(byte[] a, int offset) {
        return switch (this) {
            case BIGINT, TIMESTAMP -> readLong(a, offset + 1);
            case INTEGER, DATE -> readInt(a, offset + 1);
            default -> throw new IllegalStateException(this + " values are not read as a long");
        };
    }

    /** A non-NULL stored DOUBLE value. */
    public static double storedDouble(byte[] stored) {
        return storedDouble(stored, 0);
    }

    /** {@link #storedDouble(byte[])} of the stored value starting at {@code a[offset]}, read in place. */
    public static double storedDouble(byte[] a, int offset) {
        return Double.longBitsToDouble(readLong(a, offset + 1));
    }

    /** Whether a non-NULL stored DECIMAL value's unscaled number fits a long ({@link #storedUnscaled}). */
    public static boolean unscaledFitsLong(byte[] stored) {
        return unscaledFitsLong(stored.length);
    }

    /** {@link #unscaledFitsLong(byte[])} of a stored value {@code length} bytes long. */
    public static boolean unscaledFitsLong(int length) {
        return length <= 1 + Long.BYTES;
    }

    /** A non-NULL stored DECIMAL value's unscaled number (its two's complement bytes), which fits a long. */
    public static long storedUnscaled(byte[] stored) {
        return storedUnscaled(stored, 0, stored.length);
    }

    /** {@link #storedUnscaled(byte[])} of the stored value {@code a[offset, offset + length)}, read in place. */
    public static long storedUnscaled(byte[] a, int offset, int length) {
        long v = a[offset + 1]; // sign-extended
        for (int i = offset + 2; i < offset + length; i++) {
            v = (v << 8) | (a[i] & 0xFF);
        }
        return v;
    }

    /** A non-NULL stored DECIMAL value's unscaled number, of any size. */
    public static BigInteger storedUnscaledBig(byte[] stored) {
        return storedUnscaledBig(stored, 0, stored.length);
    }

    /** {@link #storedUnscaledBig(byte[])} of the stored value {@code a[offset, offset + length)}, read in place. */
    public static BigInteger storedUnscaledBig(byte[] a, int offset, int length) {
        return new BigInteger(a, offset + 1, length - 1);
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

    private static byte[] intBytes(int v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }

    private static int readInt(byte[] b, int offset) {
        return (b[offset] & 0xFF) << 24 | (b[offset + 1] & 0xFF) << 16 | (b[offset + 2] & 0xFF) << 8
                | (b[offset + 3] & 0xFF);
    }
}
