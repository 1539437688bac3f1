package io.kegdb.sql.calcite;

import io.kegdb.sql.ColumnInfo;
import io.kegdb.sql.TableInfo;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.TableDef;
import org.apache.calcite.sql.type.SqlTypeName;

import java.sql.Types;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The catalog as a list of {@link TableInfo}s, and the standard {@code INFORMATION_SCHEMA} views over that
 * list. The same list answers the driver's {@code DatabaseMetaData} (through {@code SqlDatabase.tables()}), so
 * both say the same: names, types and sizes come from {@link ColumnInfo}, the key constraint's name from
 * {@link TableInfo#primaryKeyName()}. There is no catalog name (JDBC's TABLE_CAT is null): the *_CATALOG
 * columns are NULL.
 */
final class InformationSchema {

    /** The views, in the order SCHEMATA, TABLES, COLUMNS, TABLE_CONSTRAINTS, KEY_COLUMN_USAGE, VIEWS, SEQUENCES. */
    final List<SystemTable> views;
    private final Catalog.Snapshot snapshot;
    private final List<SystemTable> systemTables;

    InformationSchema(Catalog.Snapshot snapshot, List<SystemTable> systemTables) {
        this.snapshot = snapshot;
        this.systemTables = systemTables;
        this.views = List.of(
                view("SCHEMATA", List.of(nullableText("CATALOG_NAME"), text("SCHEMA_NAME"), text("SCHEMA_OWNER"),
                        text("DEFAULT_CHARACTER_SET_NAME")), this::schemata),
                view("TABLES", List.of(nullableText("TABLE_CATALOG"), text("TABLE_SCHEMA"), text("TABLE_NAME"),
                        text("TABLE_TYPE"), text("REMARKS")), this::tables),
                view("COLUMNS", List.of(nullableText("TABLE_CATALOG"), text("TABLE_SCHEMA"), text("TABLE_NAME"),
                        text("COLUMN_NAME"), number("ORDINAL_POSITION"), nullableText("COLUMN_DEFAULT"),
                        text("IS_NULLABLE"), text("DATA_TYPE"), nullableNumber("CHARACTER_MAXIMUM_LENGTH"),
                        nullableNumber("CHARACTER_OCTET_LENGTH"), nullableNumber("NUMERIC_PRECISION"),
                        nullableNumber("NUMERIC_PRECISION_RADIX"), nullableNumber("NUMERIC_SCALE"),
                        nullableNumber("DATETIME_PRECISION")), this::columns),
                view("TABLE_CONSTRAINTS", List.of(nullableText("CONSTRAINT_CATALOG"), text("CONSTRAINT_SCHEMA"),
                        text("CONSTRAINT_NAME"), nullableText("TABLE_CATALOG"), text("TABLE_SCHEMA"),
                        text("TABLE_NAME"), text("CONSTRAINT_TYPE"), text("IS_DEFERRABLE"),
                        text("INITIALLY_DEFERRED")), this::tableConstraints),
                view("KEY_COLUMN_USAGE", List.of(nullableText("CONSTRAINT_CATALOG"), text("CONSTRAINT_SCHEMA"),
                        text("CONSTRAINT_NAME"), nullableText("TABLE_CATALOG"), text("TABLE_SCHEMA"),
                        text("TABLE_NAME"), text("COLUMN_NAME"), number("ORDINAL_POSITION"),
                        nullableNumber("POSITION_IN_UNIQUE_CONSTRAINT")), this::keyColumnUsage),
                // No views and no sequences exist; tools ask for them (Hibernate's H2 dialect reads SEQUENCES).
                view("VIEWS", List.of(nullableText("TABLE_CATALOG"), text("TABLE_SCHEMA"), text("TABLE_NAME"),
                        text("VIEW_DEFINITION"), text("CHECK_OPTION"), text("IS_UPDATABLE")), List::of),
                view("SEQUENCES", List.of(nullableText("SEQUENCE_CATALOG"), text("SEQUENCE_SCHEMA"),
                        text("SEQUENCE_NAME"), text("DATA_TYPE"), number("START_VALUE"), number("MINIMUM_VALUE"),
                        number("MAXIMUM_VALUE"), number("INCREMENT"), text("CYCLE_OPTION")), List::of));
    }

    /** Every table: the user tables by schema and name, then SYS's, then INFORMATION_SCHEMA's views. */
    List<TableInfo> tableInfos() {
        List<TableInfo> out = new ArrayList<>();
        for (Map<String, TableDef> tables : snapshot.schemas().values()) {
            for (TableDef def : tables.values()) {
                ColumnInfo k = def.column(0);
                ColumnInfo v = def.column(1);
                out.add(new TableInfo(def.schema(), def.name(), false, k, v, List.of(k, v)));
            }
        }
        out.addAll(infos(Catalog.SYSTEM_SCHEMA, systemTables));
        out.addAll(infos(Catalog.INFORMATION_SCHEMA, views));
        return out;
    }

    private static List<TableInfo> infos(String schema, List<SystemTable> tables) {
        List<TableInfo> out = new ArrayList<>();
        for (SystemTable t : tables) {
            List<ColumnInfo> cols = new ArrayList<>();
            for (SystemTable.Column c : t.columns) {
                cols.add(new ColumnInfo(c.name(), c.jdbcType(), c.type().getName(),
                        c.type() == SqlTypeName.BIGINT ? 19 : 0, 0, c.nullable(), schema, t.name));
            }
            out.add(new TableInfo(schema, t.name, true, cols.get(0), cols.get(1), List.copyOf(cols)));
        }
        return out;
    }

    private List<Object[]> schemata() {
        TreeSet<String> names = new TreeSet<>(snapshot.schemas().keySet());
        names.add(Catalog.SYSTEM_SCHEMA);
        names.add(Catalog.INFORMATION_SCHEMA);
        List<Object[]> rows = new ArrayList<>();
        for (String s : names) {
            rows.add(new Object[] {null, s, "", "UTF8"});
        }
        return rows;
    }

    private List<TableInfo> sorted() {
        List<TableInfo> tables = tableInfos();
        tables.sort(Comparator.comparing(TableInfo::schema).thenComparing(TableInfo::name));
        return tables;
    }

    private List<Object[]> tables() {
        List<Object[]> rows = new ArrayList<>();
        for (TableInfo t : sorted()) {
            rows.add(new Object[] {null, t.schema(), t.name(), t.system() ? "SYSTEM TABLE" : "BASE TABLE",
                t.system() ? "KegDB system table" : "key/value table"});
        }
        return rows;
    }

    private List<Object[]> columns() {
        List<Object[]> rows = new ArrayList<>();
        for (TableInfo t : sorted()) {
            long ordinal = 0;
            for (ColumnInfo c : t.columns()) {
                ordinal++;
                boolean datetime = c.jdbcType() == Types.DATE || c.jdbcType() == Types.TIMESTAMP;
                rows.add(new Object[] {null, t.schema(), t.name(), c.name(), ordinal, null,
                    c.nullable() ? "YES" : "NO", c.typeName(), along(c.maximumLength()), along(c.maximumLength()),
                    c.isNumeric() ? along(c.columnSize()) : null, along(c.numericRadix()),
                    c.isNumeric() ? along(c.decimalDigits()) : null, datetime ? along(c.decimalDigits()) : null});
            }
        }
        return rows;
    }

    private List<Object[]> tableConstraints() {
        return keyRows(t -> new Object[] {null, t.schema(), t.primaryKeyName(), null, t.schema(), t.name(),
            "PRIMARY KEY", "NO", "NO"});
    }

    private List<Object[]> keyColumnUsage() {
        return keyRows(t -> new Object[] {null, t.schema(), t.primaryKeyName(), null, t.schema(), t.name(),
            t.key().name(), 1L, null});
    }

    /** A row per user table (system tables have no key). */
    private List<Object[]> keyRows(Function<TableInfo, Object[]> row) {
        List<Object[]> rows = new ArrayList<>();
        for (TableInfo t : sorted()) {
            if (!t.system()) {
                rows.add(row.apply(t));
            }
        }
        return rows;
    }

    private static Long along(Integer i) {
        return i == null ? null : i.longValue();
    }

    private static SystemTable view(String name, List<SystemTable.Column> columns,
                                    Supplier<List<Object[]>> rows) {
        return SystemTable.of(Catalog.INFORMATION_SCHEMA, name, columns, rows);
    }

    private static SystemTable.Column text(String name) {
        return new SystemTable.Column(name, SqlTypeName.VARCHAR, Types.VARCHAR, false);
    }

    private static SystemTable.Column nullableText(String name) {
        return new SystemTable.Column(name, SqlTypeName.VARCHAR, Types.VARCHAR, true);
    }

    private static SystemTable.Column number(String name) {
        return new SystemTable.Column(name, SqlTypeName.BIGINT, Types.BIGINT, false);
    }

    private static SystemTable.Column nullableNumber(String name) {
        return new SystemTable.Column(name, SqlTypeName.BIGINT, Types.BIGINT, true);
    }
}
