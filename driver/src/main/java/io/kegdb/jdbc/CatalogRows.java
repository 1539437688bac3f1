package io.kegdb.jdbc;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.SqlDatabase;
import io.kegdb.sql.TableInfo;

import java.sql.DatabaseMetaData;
import java.sql.Types;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The rows of the catalog calls of {@link java.sql.DatabaseMetaData}, computed from the SQL layer's catalog,
 * with the columns and orderings JDBC specifies.
 */
final class CatalogRows {
    static final String TABLE = "TABLE";
    static final String SYSTEM_TABLE = "SYSTEM TABLE";

    private final SqlDatabase database;

    CatalogRows(SqlDatabase database) {
        this.database = database;
    }

    static String tableType(TableInfo t) {
        return t.system() ? SYSTEM_TABLE : TABLE;
    }

    private List<TableInfo> tables(String schemaPattern, String tablePattern, boolean exactTable) {
        NamePattern schema = NamePattern.of(schemaPattern);
        NamePattern table = exactTable ? NamePattern.nameOrAll(tablePattern) : NamePattern.of(tablePattern);
        List<TableInfo> result = new ArrayList<>();
        for (TableInfo t : database.tables()) {
            if (schema.matches(t.schema()) && table.matches(t.name())) {
                result.add(t);
            }
        }
        return result;
    }

    RowsResult tables(String schemaPattern, String tablePattern, String[] types) {
        RowsResult.Shape shape = new RowsResult.Shape().text("TABLE_CAT").text("TABLE_SCHEM").text("TABLE_NAME")
                .text("TABLE_TYPE").text("REMARKS").text("TYPE_CAT").text("TYPE_SCHEM").text("TYPE_NAME")
                .text("SELF_REFERENCING_COL_NAME").text("REF_GENERATION");
        List<String> wanted = types == null ? null : Arrays.asList(types);
        List<TableInfo> tables = new ArrayList<>();
        for (TableInfo t : tables(schemaPattern, tablePattern, false)) {
            if (wanted == null || wanted.contains(tableType(t))) {
                tables.add(t);
            }
        }
        tables.sort(Comparator.comparing(CatalogRows::tableType).thenComparing(TableInfo::schema)
                .thenComparing(TableInfo::name));
        List<Object[]> rows = new ArrayList<>();
        for (TableInfo t : tables) {
            String remarks = t.system() ? "KegDB system table" : "key/value table";
            rows.add(new Object[] {null, t.schema(), t.name(), tableType(t), remarks, null, null, null, null, null});
        }
        return new RowsResult(shape.columns(), rows);
    }

    RowsResult columns(String schemaPattern, String tablePattern, String columnPattern) {
        RowsResult.Shape shape = new RowsResult.Shape().text("TABLE_CAT").text("TABLE_SCHEM").text("TABLE_NAME")
                .text("COLUMN_NAME").integer("DATA_TYPE").text("TYPE_NAME").integer("COLUMN_SIZE")
                .integer("BUFFER_LENGTH").integer("DECIMAL_DIGITS").integer("NUM_PREC_RADIX").integer("NULLABLE")
                .text("REMARKS").text("COLUMN_DEF").integer("SQL_DATA_TYPE").integer("SQL_DATETIME_SUB")
                .integer("CHAR_OCTET_LENGTH").integer("ORDINAL_POSITION").text("IS_NULLABLE")
                .text("SCOPE_CATALOG").text("SCOPE_SCHEMA").text("SCOPE_TABLE").smallint("SOURCE_DATA_TYPE")
                .text("IS_AUTOINCREMENT").text("IS_GENERATEDCOLUMN");
        NamePattern column = NamePattern.of(columnPattern);
        List<TableInfo> tables = tables(schemaPattern, tablePattern, false);
        tables.sort(Comparator.comparing(TableInfo::schema).thenComparing(TableInfo::name));
        List<Object[]> rows = new ArrayList<>();
        for (TableInfo t : tables) {
            int ordinal = 0;
            for (ColumnInfo c : t.columns()) {
                ordinal++;
                if (!column.matches(c.name())) {
                    continue;
                }
                boolean key = !t.system() && c.name().equals(t.key().name());
                boolean nullable = c.nullable() && !key;
                rows.add(new Object[] {null, t.schema(), t.name(), c.name(), c.jdbcType(), c.typeName(),
                        c.columnSize(), null, c.decimalDigits(), c.numericRadix(), nullable ? DatabaseMetaData.columnNullable : DatabaseMetaData.columnNoNulls,
                        key ? "primary key" : null, null, null, null, c.maximumLength(), ordinal, nullable ? "YES" : "NO",
                        null, null, null, null, "NO", "NO"});
            }
        }
        return new RowsResult(shape.columns(), rows);
    }

    RowsResult primaryKeys(String schema, String table) {
        RowsResult.Shape shape = new RowsResult.Shape().text("TABLE_CAT").text("TABLE_SCHEM").text("TABLE_NAME")
                .text("COLUMN_NAME").smallint("KEY_SEQ").text("PK_NAME");
        List<TableInfo> tables = userTables(schema, table);
        tables.sort(Comparator.comparing((TableInfo t) -> t.key().name()));
        List<Object[]> rows = new ArrayList<>();
        for (TableInfo t : tables) {
            rows.add(new Object[] {null, t.schema(), t.name(), t.key().name(), (short) 1, t.primaryKeyName()});
        }
        return new RowsResult(shape.columns(), rows);
    }

    /** The key is the one index of a table: unique, ordered (the keydir is sorted). */
    RowsResult indexInfo(String schema, String table) {
        RowsResult.Shape shape = new RowsResult.Shape().text("TABLE_CAT").text("TABLE_SCHEM").text("TABLE_NAME")
                .bool("NON_UNIQUE").text("INDEX_QUALIFIER").text("INDEX_NAME").smallint("TYPE")
                .smallint("ORDINAL_POSITION").text("COLUMN_NAME").text("ASC_OR_DESC").bigint("CARDINALITY")
                .bigint("PAGES").text("FILTER_CONDITION");
        List<TableInfo> tables = userTables(schema, table);
        tables.sort(Comparator.comparing(TableInfo::schema).thenComparing(TableInfo::name));
        List<Object[]> rows = new ArrayList<>();
        for (TableInfo t : tables) {
            rows.add(new Object[] {null, t.schema(), t.name(), false, null, t.primaryKeyName(),
                    DatabaseMetaData.tableIndexOther, (short) 1, t.key().name(), "A", null, null, null});
        }
        return new RowsResult(shape.columns(), rows);
    }

    RowsResult bestRowIdentifier(String schema, String table) {
        RowsResult.Shape shape = new RowsResult.Shape().smallint("SCOPE").text("COLUMN_NAME").integer("DATA_TYPE")
                .text("TYPE_NAME").integer("COLUMN_SIZE").integer("BUFFER_LENGTH").smallint("DECIMAL_DIGITS")
                .smallint("PSEUDO_COLUMN");
        List<Object[]> rows = new ArrayList<>();
        for (TableInfo t : userTables(schema, table)) {
            ColumnInfo k = t.key();
            rows.add(new Object[] {(short) DatabaseMetaData.bestRowSession, k.name(), k.jdbcType(), k.typeName(),
                    k.columnSize(), null, k.decimalDigits() == null ? null : (short) (int) k.decimalDigits(),
                    (short) DatabaseMetaData.bestRowNotPseudo});
        }
        return new RowsResult(shape.columns(), rows);
    }

    private List<TableInfo> userTables(String schema, String table) {
        List<TableInfo> result = new ArrayList<>();
        NamePattern s = NamePattern.nameOrAll(schema);
        for (TableInfo t : tables(null, table, true)) {
            if (!t.system() && s.matches(t.schema())) {
                result.add(t);
            }
        }
        return result;
    }

    RowsResult schemas(String schemaPattern) {
        RowsResult.Shape shape = new RowsResult.Shape().text("TABLE_SCHEM").text("TABLE_CATALOG");
        NamePattern pattern = NamePattern.of(schemaPattern);
        List<Object[]> rows = new ArrayList<>();
        database.schemas().stream().filter(pattern::matches).sorted()
                .forEach(s -> rows.add(new Object[] {s, null}));
        return new RowsResult(shape.columns(), rows);
    }

    static RowsResult catalogs() {
        return new RowsResult(new RowsResult.Shape().text("TABLE_CAT").columns(), List.of());
    }

    static RowsResult tableTypes() {
        return new RowsResult(new RowsResult.Shape().text("TABLE_TYPE").columns(),
                List.of(new Object[] {SYSTEM_TABLE}, new Object[] {TABLE}));
    }

    /** The column types a table may declare, ordered by DATA_TYPE. */
    static RowsResult typeInfo() {
        RowsResult.Shape shape = new RowsResult.Shape().text("TYPE_NAME").integer("DATA_TYPE").integer("PRECISION")
                .text("LITERAL_PREFIX").text("LITERAL_SUFFIX").text("CREATE_PARAMS").smallint("NULLABLE")
                .bool("CASE_SENSITIVE").smallint("SEARCHABLE").bool("UNSIGNED_ATTRIBUTE").bool("FIXED_PREC_SCALE")
                .bool("AUTO_INCREMENT").text("LOCAL_TYPE_NAME").smallint("MINIMUM_SCALE").smallint("MAXIMUM_SCALE")
                .integer("SQL_DATA_TYPE").integer("SQL_DATETIME_SUB").integer("NUM_PREC_RADIX");
        short nullable = (short) DatabaseMetaData.typeNullable;
        short searchable = (short) DatabaseMetaData.typeSearchable;
        // DECIMAL: up to 19 digits (Calcite's limit); TIMESTAMP: kept to the millisecond (docs/SQL.md).
        short maxDecimal = 19;
        short maxFraction = 3;
        List<Object[]> rows = List.of(
                new Object[] {"BIGINT", Types.BIGINT, 19, null, null, null, nullable, false, searchable, false,
                        false, false, "BIGINT", (short) 0, (short) 0, null, null, 10},
                new Object[] {"VARBINARY", Types.VARBINARY, Integer.MAX_VALUE, "X'", "'", "length", nullable, false,
                        searchable, null, false, false, "VARBINARY", (short) 0, (short) 0, null, null, null},
                new Object[] {"DECIMAL", Types.DECIMAL, (int) maxDecimal, null, null,
                        "precision,scale", nullable, false, searchable, false, false, false, "DECIMAL", (short) 0,
                        maxDecimal, null, null, 10},
                new Object[] {"INTEGER", Types.INTEGER, 10, null, null, null, nullable, false, searchable, false,
                        false, false, "INTEGER", (short) 0, (short) 0, null, null, 10},
                new Object[] {"DOUBLE", Types.DOUBLE, 15, null, null, null, nullable, false, searchable, false,
                        false, false, "DOUBLE", (short) 0, (short) 0, null, null, 10},
                new Object[] {"VARCHAR", Types.VARCHAR, Integer.MAX_VALUE, "'", "'", "length", nullable, true,
                        searchable, null, false, false, "VARCHAR", (short) 0, (short) 0, null, null, null},
                new Object[] {"BOOLEAN", Types.BOOLEAN, 1, null, null, null, nullable, false, searchable, null,
                        false, false, "BOOLEAN", (short) 0, (short) 0, null, null, null},
                new Object[] {"DATE", Types.DATE, 10, "DATE '", "'", null, nullable, false, searchable, null,
                        false, false, "DATE", (short) 0, (short) 0, null, null, null},
                new Object[] {"TIMESTAMP", Types.TIMESTAMP, 23, "TIMESTAMP '", "'", "precision", nullable, false,
                        searchable, null, false, false, "TIMESTAMP", (short) 0, maxFraction, null, null, null});
        return new RowsResult(shape.columns(), rows);
    }

    static RowsResult clientInfoProperties() {
        RowsResult.Shape shape = new RowsResult.Shape().text("NAME").integer("MAX_LEN").text("DEFAULT_VALUE")
                .text("DESCRIPTION");
        return new RowsResult(shape.columns(), List.of(
                new Object[] {"ApplicationName", 1024, null, "name of the application using the connection"},
                new Object[] {"ClientHostname", 1024, null, "host the application runs on"},
                new Object[] {"ClientUser", 1024, null, "user of the application"}));
    }

    /** An empty result with the given columns (foreign keys, procedures, privileges, ...). */
    static RowsResult empty(String... textColumns) {
        RowsResult.Shape shape = new RowsResult.Shape();
        for (String c : textColumns) {
            shape.text(c);
        }
        return new RowsResult(shape.columns(), List.of());
    }
}
