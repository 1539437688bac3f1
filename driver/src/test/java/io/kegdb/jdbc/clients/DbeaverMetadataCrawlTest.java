package io.kegdb.jdbc.clients;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The calls DBeaver's generic driver makes, in its order: identity and dialect, type info, transaction
 * capabilities, catalogs then schemas, table types, tables, and per table columns, primary key, indexes and
 * foreign keys; then a data page with max rows, and an edit through a prepared UPDATE keyed by the primary key.
 */
class DbeaverMetadataCrawlTest {

    private static List<Map<String, Object>> rows(ResultSet rs) throws SQLException {
        List<Map<String, Object>> out = new ArrayList<>();
        try (rs) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                Map<String, Object> row = new LinkedHashMap<>();
                for (int i = 1; i <= n; i++) {
                    row.put(rs.getMetaData().getColumnLabel(i), rs.getObject(i));
                }
                out.add(row);
            }
        }
        return out;
    }

    @Test
    void crawlBrowseAndEditLikeDbeaver() throws SQLException {
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:mem:dbeaver-crawl")) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE USERS (ID BIGINT PRIMARY KEY, NAME VARCHAR)");
                s.executeUpdate("INSERT INTO USERS VALUES (1, 'ada')");
                s.executeUpdate("INSERT INTO USERS VALUES (2, 'bob')");
            }

            // 1. identity and dialect
            DatabaseMetaData md = c.getMetaData();
            assertEquals("KegDB", md.getDatabaseProductName());
            assertNotNull(md.getDatabaseProductVersion());
            assertNotNull(md.getDriverName());
            assertNotNull(md.getDriverVersion());
            assertTrue(md.getDatabaseMajorVersion() >= 0 && md.getDatabaseMinorVersion() >= 0);
            assertEquals("\"", md.getIdentifierQuoteString());
            assertNotNull(md.getSQLKeywords());
            assertNotNull(md.getNumericFunctions());
            assertNotNull(md.getStringFunctions());
            assertNotNull(md.getSystemFunctions());
            assertNotNull(md.getTimeDateFunctions());
            assertEquals("\\", md.getSearchStringEscape());
            assertTrue(md.storesUpperCaseIdentifiers());
            assertFalse(md.storesLowerCaseIdentifiers());
            assertTrue(md.supportsMixedCaseQuotedIdentifiers());
            assertEquals("schema", md.getSchemaTerm());
            assertEquals(".", md.getCatalogSeparator());
            assertTrue(md.supportsSchemasInDataManipulation());
            assertFalse(md.supportsCatalogsInDataManipulation());

            // 2. type info, ordered by DATA_TYPE
            List<Map<String, Object>> types = rows(md.getTypeInfo());
            assertEquals(List.of("BIGINT", "VARBINARY", "DECIMAL", "INTEGER", "DOUBLE", "VARCHAR", "BOOLEAN", "DATE", "TIMESTAMP"),
                    types.stream().map(r -> r.get("TYPE_NAME")).toList());
            assertEquals(Types.BIGINT, types.get(0).get("DATA_TYPE"));

            // 3. transactions
            assertTrue(md.supportsTransactions());
            assertEquals(Connection.TRANSACTION_READ_COMMITTED, md.getDefaultTransactionIsolation());
            assertTrue(md.supportsTransactionIsolationLevel(Connection.TRANSACTION_READ_COMMITTED));
            assertTrue(c.getAutoCommit());
            assertFalse(c.isReadOnly());
            assertFalse(md.isReadOnly());

            // 4. catalogs (none), so schemas
            assertEquals(List.of(), rows(md.getCatalogs()));
            List<Object> schemas = rows(md.getSchemas()).stream().map(r -> r.get("TABLE_SCHEM")).toList();
            String schema = c.getSchema();
            assertTrue(schemas.contains(schema), schemas + " lacks " + schema);
            assertTrue(schemas.contains("SYS"), schemas.toString());
            assertEquals(List.of(schema), rows(md.getSchemas(null, schema)).stream().map(r -> r.get("TABLE_SCHEM")).toList());

            // 5. table types and tables
            assertEquals(List.of("SYSTEM TABLE", "TABLE"),
                    rows(md.getTableTypes()).stream().map(r -> r.get("TABLE_TYPE")).toList());
            List<Map<String, Object>> tables = rows(md.getTables(null, schema, "%", null));
            List<Object> names = tables.stream().map(r -> r.get("TABLE_NAME")).toList();
            assertTrue(names.contains("USERS") && names.contains("KV"), names.toString());
            assertTrue(tables.stream().allMatch(r -> "TABLE".equals(r.get("TABLE_TYPE"))));
            List<Map<String, Object>> system = rows(md.getTables(null, "SYS", "%", new String[] {"SYSTEM TABLE"}));
            assertFalse(system.isEmpty(), "system tables are listed");
            assertTrue(system.stream().allMatch(r -> "SYSTEM TABLE".equals(r.get("TABLE_TYPE"))));
            assertEquals(List.of(), rows(md.getTables(null, schema, "%", new String[] {"VIEW"})));

            // 6. per table: columns, primary key, indexes, foreign keys
            List<Map<String, Object>> columns = rows(md.getColumns(null, schema, "USERS", "%"));
            assertEquals(List.of("ID", "NAME"), columns.stream().map(r -> r.get("COLUMN_NAME")).toList());
            assertEquals(Types.BIGINT, columns.get(0).get("DATA_TYPE"));
            assertEquals("BIGINT", columns.get(0).get("TYPE_NAME"));
            assertEquals(Types.VARCHAR, columns.get(1).get("DATA_TYPE"));
            assertEquals("VARCHAR", columns.get(1).get("TYPE_NAME"), "clean type name, no precision");
            assertEquals(DatabaseMetaData.columnNoNulls, columns.get(0).get("NULLABLE"));
            assertEquals("NO", columns.get(0).get("IS_NULLABLE"));
            assertEquals(1, columns.get(0).get("ORDINAL_POSITION"));
            assertEquals(2, columns.get(1).get("ORDINAL_POSITION"));

            List<Map<String, Object>> pk = rows(md.getPrimaryKeys(null, schema, "USERS"));
            assertEquals(1, pk.size());
            assertEquals("ID", pk.get(0).get("COLUMN_NAME"));
            assertEquals(1, ((Number) pk.get(0).get("KEY_SEQ")).intValue());
            assertNotNull(pk.get(0).get("PK_NAME"));
            List<Object> allPkTables = rows(md.getPrimaryKeys(null, schema, "%")).stream()
                    .map(r -> r.get("TABLE_NAME")).toList();
            assertTrue(allPkTables.contains("USERS") && allPkTables.contains("KV"), allPkTables.toString());

            List<Map<String, Object>> indexes = rows(md.getIndexInfo(null, schema, "USERS", false, true));
            assertEquals(1, indexes.size());
            assertEquals(false, indexes.get(0).get("NON_UNIQUE"));
            assertEquals("ID", indexes.get(0).get("COLUMN_NAME"));
            assertEquals(pk.get(0).get("PK_NAME"), indexes.get(0).get("INDEX_NAME"));
            assertEquals(List.of(), rows(md.getImportedKeys(null, schema, "USERS")));
            assertEquals(List.of(), rows(md.getExportedKeys(null, schema, "USERS")));

            // 7. data page
            try (Statement s = c.createStatement()) {
                s.setMaxRows(200);
                s.setFetchSize(200);
                try (ResultSet rs = s.executeQuery("SELECT * FROM \"" + schema + "\".\"USERS\"")) {
                    assertEquals(Types.BIGINT, rs.getMetaData().getColumnType(1));
                    assertEquals("USERS", rs.getMetaData().getTableName(1));
                    int n = 0;
                    while (rs.next()) {
                        n++;
                    }
                    assertEquals(2, n);
                }
            }

            // 8. edit a cell: UPDATE keyed by the primary key, autocommitted
            try (PreparedStatement up = c.prepareStatement(
                    "UPDATE \"" + schema + "\".\"USERS\" SET \"NAME\"=? WHERE \"ID\"=?")) {
                up.setString(1, "bea");
                up.setLong(2, 2);
                assertEquals(1, up.executeUpdate());
            }
            try (Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT NAME FROM USERS WHERE ID = 2")) {
                assertTrue(rs.next());
                assertEquals("bea", rs.getString(1));
            }
        }
    }
}
