package io.kegdb.sql;

/**
 * A table of the catalog: always one key column (the primary key) and one value column.
 *
 * @param schema  schema name
 * @param name    table name
 * @param system  true for the read-only tables of schema SYS
 * @param key     the key column (primary key); for system tables the first column
 * @param value   the value column; for system tables the remaining columns are in {@code columns}
 * @param columns every column in order
 */
public record TableInfo(String schema, String name, boolean system, ColumnInfo key, ColumnInfo value,
                        java.util.List<ColumnInfo> columns) {

    /** The name of a user table's primary key (and of its one index): {@code PK_} and the table name. */
    public String primaryKeyName() {
        return "PK_" + name;
    }
}
