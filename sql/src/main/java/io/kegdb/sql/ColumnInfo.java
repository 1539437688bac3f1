package io.kegdb.sql;

import java.sql.Types;

/**
 * A result or table column. The sizes a catalog reports ({@link #columnSize()}, {@link #decimalDigits()}, ...)
 * are computed here once, for the driver's {@code DatabaseMetaData} and for {@code INFORMATION_SCHEMA} alike.
 *
 * @param name      column label as the user sees it
 * @param jdbcType  a {@code java.sql.Types} code
 * @param typeName  SQL type name without precision, e.g. {@code VARCHAR}, {@code BIGINT}
 * @param precision maximum length or digits, 0 when not applicable
 * @param scale     digits after the point, 0 when not applicable
 * @param nullable  whether nulls may appear
 * @param schema    schema of the source table, or empty
 * @param table     source table, or empty
 */
public record ColumnInfo(String name, int jdbcType, String typeName, int precision, int scale,
                         boolean nullable, String schema, String table) {

    /**
     * JDBC's COLUMN_SIZE: digits of a number, characters or bytes of a text or binary ({@code Integer.MAX_VALUE}
     * when unlimited), characters of a date or timestamp's text; null when none applies.
     */
    public Integer columnSize() {
        return switch (jdbcType) {
            case Types.BIGINT -> 19;
            case Types.INTEGER -> 10;
            case Types.SMALLINT -> 5;
            case Types.TINYINT -> 3;
            case Types.DOUBLE, Types.FLOAT -> 15;
            case Types.REAL -> 7;
            case Types.BOOLEAN -> 1;
            case Types.DATE -> 10;
            // yyyy-mm-dd hh:mm:ss, then a point and the fractional digits if there are any
            case Types.TIMESTAMP -> 19 + (precision > 0 ? precision + 1 : 0);
            default -> precision > 0 ? Integer.valueOf(precision) : isTextOrBinary() ? Integer.MAX_VALUE : null;
        };
    }

    /** Digits after the point: a number's scale, a TIMESTAMP's fractional-second digits, 0 for a DATE; else null. */
    public Integer decimalDigits() {
        return switch (jdbcType) {
            case Types.TIMESTAMP -> precision;
            case Types.DATE -> 0;
            default -> isNumeric() ? Integer.valueOf(scale) : null;
        };
    }

    /** The radix of a number's precision (10), null for other types. */
    public Integer numericRadix() {
        return isNumeric() ? Integer.valueOf(10) : null;
    }

    /** The maximum length of a text or binary, as {@link #columnSize()}; null for other types. */
    public Integer maximumLength() {
        return isTextOrBinary() ? columnSize() : null;
    }

    /** Whether the type is a number. */
    public boolean isNumeric() {
        return jdbcType == Types.BIGINT || jdbcType == Types.INTEGER || jdbcType == Types.SMALLINT
                || jdbcType == Types.TINYINT || jdbcType == Types.DECIMAL || jdbcType == Types.NUMERIC
                || jdbcType == Types.DOUBLE || jdbcType == Types.FLOAT || jdbcType == Types.REAL;
    }

    /** Whether the type is a text or a binary string. */
    public boolean isTextOrBinary() {
        return jdbcType == Types.VARCHAR || jdbcType == Types.CHAR || jdbcType == Types.LONGVARCHAR
                || jdbcType == Types.VARBINARY || jdbcType == Types.BINARY || jdbcType == Types.LONGVARBINARY;
    }
}
