package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.failure;
import static io.kegdb.jdbc.dialect.Databases.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * INFORMATION_SCHEMA's views say what {@link DatabaseMetaData} says, for every table (user tables of every
 * column type as key and as value, SYS's tables, the views themselves) and every column.
 */
class InformationSchemaTest {

    private static final String[] TYPES = {"VARCHAR", "VARCHAR(12)", "VARBINARY", "VARBINARY(8)", "BIGINT",
        "INTEGER", "DOUBLE", "BOOLEAN", "DECIMAL", "DECIMAL(10,3)", "DATE", "TIMESTAMP", "TIMESTAMP(0)"};

    private static List<Object> row(Object... values) {
        return Arrays.asList(values);
    }

    /** Numbers as longs, so an INTEGER of the metadata and a BIGINT of the view compare equal. */
    private static List<List<Object>> normalized(List<List<Object>> rows) {
        List<List<Object>> out = new ArrayList<>();
        for (List<Object> r : rows) {
            List<Object> n = new ArrayList<>();
            for (Object o : r) {
                n.add(o instanceof Number x ? (Object) x.longValue() : o);
            }
            out.add(n);
        }
        return out;
    }

    private static List<List<Object>> metadata(ResultSet rs, String... columns) throws SQLException {
        List<List<Object>> out = new ArrayList<>();
        try (rs) {
            while (rs.next()) {
                List<Object> r = new ArrayList<>();
                for (String c : columns) {
                    r.add(rs.getObject(c));
                }
                out.add(r);
            }
        }
        return normalized(out);
    }

    @Test
    void viewsAgreeWithDatabaseMetaData() throws SQLException {
        try (Connection c = Databases.kegdb()) {
            for (int i = 0; i < TYPES.length; i++) {
                exec(c, "CREATE TABLE K" + i + " (k " + TYPES[i] + " PRIMARY KEY, v " + TYPES[(i + 3) % TYPES.length] + ")");
            }
            exec(c, "CREATE TABLE APP.VALUE_FIRST (v DATE, k INTEGER, PRIMARY KEY (k))");
            DatabaseMetaData md = c.getMetaData();

            assertEquals(metadata(md.getSchemas(), "TABLE_SCHEM"),
                    normalized(rows(c, "SELECT schema_name FROM information_schema.schemata ORDER BY schema_name")));
            assertTrue(rows(c, "SELECT schema_name FROM information_schema.schemata").contains(row("INFORMATION_SCHEMA")));

            List<List<Object>> tables = metadata(md.getTables(null, null, "%", null), "TABLE_SCHEM", "TABLE_NAME",
                    "TABLE_TYPE", "REMARKS");
            List<List<Object>> fromView = normalized(rows(c, "SELECT table_schema, table_name, CASE table_type"
                    + " WHEN 'BASE TABLE' THEN 'TABLE' ELSE table_type END, remarks FROM information_schema.tables"
                    + " ORDER BY CASE table_type WHEN 'BASE TABLE' THEN 'TABLE' ELSE table_type END,"
                    + " table_schema, table_name"));
            assertEquals(tables, fromView);
            assertTrue(tables.size() > TYPES.length + 10, "user tables, SYS and INFORMATION_SCHEMA: " + tables);

            List<List<Object>> columns = metadata(md.getColumns(null, null, "%", "%"), "TABLE_SCHEM", "TABLE_NAME",
                    "COLUMN_NAME", "ORDINAL_POSITION", "IS_NULLABLE", "TYPE_NAME", "COLUMN_SIZE", "DECIMAL_DIGITS",
                    "NUM_PREC_RADIX", "CHAR_OCTET_LENGTH");
            List<List<Object>> columnView = normalized(rows(c, "SELECT table_schema, table_name, column_name,"
                    + " ordinal_position, is_nullable, data_type,"
                    + " COALESCE(character_maximum_length, numeric_precision,"
                    + "   CASE data_type WHEN 'BOOLEAN' THEN 1 WHEN 'DATE' THEN 10 WHEN 'TIMESTAMP' THEN 19 + datetime_precision"
                    + "   + CASE WHEN datetime_precision > 0 THEN 1 ELSE 0 END END),"
                    + " COALESCE(numeric_scale, datetime_precision), numeric_precision_radix, character_octet_length"
                    + " FROM information_schema.columns ORDER BY table_schema, table_name, ordinal_position"));
            assertEquals(columns, columnView);
            assertTrue(columns.contains(normalized(List.of(row("PUBLIC", "K9", "K", 1, "NO", "DECIMAL", 10, 3, 10,
                    null))).get(0)), columns.toString());

            List<List<Object>> keys = metadata(md.getPrimaryKeys(null, null, null), "TABLE_SCHEM", "TABLE_NAME",
                    "COLUMN_NAME", "KEY_SEQ", "PK_NAME");
            List<List<Object>> keyView = normalized(rows(c, "SELECT k.table_schema, k.table_name, k.column_name,"
                    + " k.ordinal_position, k.constraint_name FROM information_schema.key_column_usage k"
                    + " JOIN information_schema.table_constraints t ON t.constraint_schema = k.constraint_schema"
                    + " AND t.constraint_name = k.constraint_name WHERE t.constraint_type = 'PRIMARY KEY'"
                    + " ORDER BY k.column_name, k.table_schema, k.table_name"));
            keys.sort((a, b) -> (a.get(2) + "." + a.get(0) + "." + a.get(1)).compareTo(b.get(2) + "." + b.get(0) + "." + b.get(1)));
            assertEquals(keys, keyView);
            assertTrue(keyView.contains(row("APP", "VALUE_FIRST", "K", 1L, "PK_VALUE_FIRST")), keyView.toString());

            assertEquals(List.of(), rows(c, "SELECT * FROM information_schema.views"));
            assertEquals(List.of(), rows(c, "SELECT * FROM information_schema.sequences"));
        }
    }

    @Test
    void viewsAreReadOnlyAndTheSchemaHoldsNoUserTables() throws SQLException {
        try (Connection c = Databases.kegdb()) {
            assertEquals("42000", failure(c, "DELETE FROM information_schema.tables"));
            assertEquals("42000", failure(c, "CREATE TABLE information_schema.t (k INT PRIMARY KEY, v INT)"));
            assertEquals("42000", failure(c, "DROP TABLE information_schema.tables"));
            // a table created afterwards shows at once
            exec(c, "CREATE TABLE later (k VARCHAR(5) PRIMARY KEY, v BIGINT)");
            assertEquals(List.of(row("K", 1L, "NO", "VARCHAR", 5L), row("V", 2L, "YES", "BIGINT", null)),
                    rows(c, "SELECT column_name, ordinal_position, is_nullable, data_type, character_maximum_length"
                            + " FROM information_schema.columns WHERE table_name = 'LATER' ORDER BY ordinal_position"));
        }
    }
}
