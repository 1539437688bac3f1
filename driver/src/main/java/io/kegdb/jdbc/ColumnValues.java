package io.kegdb.jdbc;

import io.kegdb.sql.SqlState;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.sql.Date;
import java.sql.SQLException;
import java.sql.Time;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HexFormat;

/**
 * Conversions between the SQL layer's values (String, byte[], Long, Integer, Double, BigDecimal, Boolean,
 * java.time) and what JDBC getters return. A value that cannot convert is SQLState 22018.
 */
final class ColumnValues {

    private ColumnValues() {
    }

    /** The JDBC-standard Java object for a column of type {@code jdbcType}. */
    static Object toJdbcObject(Object v, int jdbcType) throws SQLException {
        if (v == null) {
            return null;
        }
        return switch (jdbcType) {
            case Types.BIGINT -> toLong(v);
            case Types.INTEGER, Types.SMALLINT, Types.TINYINT -> toInt(v);
            case Types.DOUBLE, Types.FLOAT -> toDouble(v);
            case Types.REAL -> (float) toDouble(v);
            case Types.DECIMAL, Types.NUMERIC -> toBigDecimal(v);
            case Types.BOOLEAN, Types.BIT -> toBoolean(v);
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR -> toStringValue(v);
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> toBytes(v);
            case Types.DATE -> toDate(v);
            case Types.TIME -> toTime(v);
            case Types.TIMESTAMP -> toTimestamp(v);
            default -> v instanceof LocalDate || v instanceof LocalDateTime || v instanceof LocalTime
                    ? toSqlTemporal(v) : v;
        };
    }

    private static Object toSqlTemporal(Object v) {
        if (v instanceof LocalDate d) {
            return Date.valueOf(d);
        }
        if (v instanceof LocalDateTime t) {
            return Timestamp.valueOf(t);
        }
        return Time.valueOf((LocalTime) v);
    }

    static String toStringValue(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof byte[] b) {
            return HexFormat.of().formatHex(b);
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        return v.toString();
    }

    static long toLong(Object v) throws SQLException {
        if (v instanceof Long l) {
            return l;
        }
        if (v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return ((Number) v).longValue();
        }
        if (v instanceof BigDecimal || v instanceof BigInteger || v instanceof Double || v instanceof Float) {
            BigDecimal d = v instanceof BigDecimal bd ? bd : v instanceof BigInteger bi ? new BigDecimal(bi)
                    : BigDecimal.valueOf(((Number) v).doubleValue());
            try {
                return d.setScale(0, java.math.RoundingMode.DOWN).longValueExact();
            } catch (ArithmeticException e) {
                throw conversion(v, "BIGINT", e);
            }
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (v instanceof String s) {
            try {
                return Long.parseLong(s.trim());
            } catch (NumberFormatException e) {
                throw conversion(v, "BIGINT", e);
            }
        }
        throw conversion(v, "BIGINT", null);
    }

    static int toInt(Object v) throws SQLException {
        long l = toLong(v);
        if (l < Integer.MIN_VALUE || l > Integer.MAX_VALUE) {
            throw JdbcErrors.of(SqlState.NUMERIC_VALUE_OUT_OF_RANGE, "value " + l + " out of range for INTEGER");
        }
        return (int) l;
    }

    static double toDouble(Object v) throws SQLException {
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        if (v instanceof String s) {
            try {
                return Double.parseDouble(s.trim());
            } catch (NumberFormatException e) {
                throw conversion(v, "DOUBLE", e);
            }
        }
        throw conversion(v, "DOUBLE", null);
    }

    static BigDecimal toBigDecimal(Object v) throws SQLException {
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof BigInteger bi) {
            return new BigDecimal(bi);
        }
        if (v instanceof Number n) {
            return BigDecimal.valueOf(n.doubleValue());
        }
        if (v instanceof String s) {
            try {
                return new BigDecimal(s.trim());
            } catch (NumberFormatException e) {
                throw conversion(v, "DECIMAL", e);
            }
        }
        throw conversion(v, "DECIMAL", null);
    }

    static boolean toBoolean(Object v) throws SQLException {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n) {
            return n.doubleValue() != 0;
        }
        if (v instanceof String s) {
            String t = s.trim();
            if (t.equalsIgnoreCase("true") || t.equals("1")) {
                return true;
            }
            if (t.equalsIgnoreCase("false") || t.equals("0")) {
                return false;
            }
        }
        throw conversion(v, "BOOLEAN", null);
    }

    static byte[] toBytes(Object v) throws SQLException {
        if (v instanceof byte[] b) {
            return b;
        }
        if (v instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        throw conversion(v, "VARBINARY", null);
    }

    static Date toDate(Object v) throws SQLException {
        if (v instanceof LocalDate d) {
            return Date.valueOf(d);
        }
        if (v instanceof LocalDateTime t) {
            return Date.valueOf(t.toLocalDate());
        }
        if (v instanceof Date d) {
            return d;
        }
        if (v instanceof String s) {
            try {
                return Date.valueOf(s.trim());
            } catch (IllegalArgumentException e) {
                throw conversion(v, "DATE", e);
            }
        }
        throw conversion(v, "DATE", null);
    }

    static Time toTime(Object v) throws SQLException {
        if (v instanceof LocalTime t) {
            return Time.valueOf(t);
        }
        if (v instanceof LocalDateTime t) {
            return Time.valueOf(t.toLocalTime());
        }
        if (v instanceof Time t) {
            return t;
        }
        if (v instanceof String s) {
            try {
                return Time.valueOf(s.trim());
            } catch (IllegalArgumentException e) {
                throw conversion(v, "TIME", e);
            }
        }
        throw conversion(v, "TIME", null);
    }

    static Timestamp toTimestamp(Object v) throws SQLException {
        if (v instanceof LocalDateTime t) {
            return Timestamp.valueOf(t);
        }
        if (v instanceof LocalDate d) {
            return Timestamp.valueOf(d.atStartOfDay());
        }
        if (v instanceof Instant i) {
            return Timestamp.from(i);
        }
        if (v instanceof OffsetDateTime o) {
            return Timestamp.from(o.toInstant());
        }
        if (v instanceof Timestamp t) {
            return t;
        }
        if (v instanceof String s) {
            try {
                return Timestamp.valueOf(s.trim());
            } catch (IllegalArgumentException e) {
                throw conversion(v, "TIMESTAMP", e);
            }
        }
        throw conversion(v, "TIMESTAMP", null);
    }

    /** {@code getObject(column, type)}: the value as {@code type}. */
    @SuppressWarnings("unchecked")
    static <T> T toType(Object v, Class<T> type) throws SQLException {
        if (v == null) {
            return null;
        }
        Object r;
        if (type.isInstance(v)) {
            r = v;
        } else if (type == String.class) {
            r = toStringValue(v);
        } else if (type == Long.class) {
            r = toLong(v);
        } else if (type == Integer.class) {
            r = toInt(v);
        } else if (type == Short.class) {
            r = (short) toInt(v);
        } else if (type == Double.class) {
            r = toDouble(v);
        } else if (type == Float.class) {
            r = (float) toDouble(v);
        } else if (type == BigDecimal.class) {
            r = toBigDecimal(v);
        } else if (type == Boolean.class) {
            r = toBoolean(v);
        } else if (type == byte[].class) {
            r = toBytes(v);
        } else if (type == Date.class) {
            r = toDate(v);
        } else if (type == Time.class) {
            r = toTime(v);
        } else if (type == Timestamp.class) {
            r = toTimestamp(v);
        } else if (type == LocalDate.class) {
            r = toDate(v).toLocalDate();
        } else if (type == LocalTime.class) {
            r = toTime(v).toLocalTime();
        } else if (type == LocalDateTime.class) {
            r = toTimestamp(v).toLocalDateTime();
        } else if (type == OffsetDateTime.class) {
            r = toTimestamp(v).toLocalDateTime().atOffset(ZoneOffset.UTC);
        } else {
            throw conversion(v, type.getName(), null);
        }
        return (T) r;
    }

    /** Whether values of {@code jdbcType} carry a sign, for the result set and parameter metadata alike. */
    static boolean isSigned(int jdbcType) {
        return switch (jdbcType) {
            case Types.BIGINT, Types.INTEGER, Types.SMALLINT, Types.TINYINT, Types.DOUBLE, Types.FLOAT, Types.REAL,
                    Types.DECIMAL, Types.NUMERIC -> true;
            default -> false;
        };
    }

    /** The Java class {@code getObject} returns for {@code jdbcType}. */
    static String className(int jdbcType) {
        return switch (jdbcType) {
            case Types.BIGINT -> Long.class.getName();
            case Types.INTEGER, Types.SMALLINT, Types.TINYINT -> Integer.class.getName();
            case Types.DOUBLE, Types.FLOAT -> Double.class.getName();
            case Types.REAL -> Float.class.getName();
            case Types.DECIMAL, Types.NUMERIC -> BigDecimal.class.getName();
            case Types.BOOLEAN, Types.BIT -> Boolean.class.getName();
            case Types.BINARY, Types.VARBINARY, Types.LONGVARBINARY -> byte[].class.getName();
            case Types.DATE -> Date.class.getName();
            case Types.TIME -> Time.class.getName();
            case Types.TIMESTAMP -> Timestamp.class.getName();
            case Types.CHAR, Types.VARCHAR, Types.LONGVARCHAR -> String.class.getName();
            default -> Object.class.getName();
        };
    }

    private static SQLException conversion(Object v, String target, Throwable cause) {
        String shown = v instanceof byte[] b ? "byte[" + b.length + "]" : String.valueOf(v);
        if (shown.length() > 60) {
            shown = shown.substring(0, 57) + "...";
        }
        return JdbcErrors.of(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST,
                "cannot convert " + v.getClass().getSimpleName() + " '" + shown
                + "' to " + target, cause);
    }
}
