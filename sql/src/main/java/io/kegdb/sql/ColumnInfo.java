package io.kegdb.sql;

/**
 * A result or table column.
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
}
