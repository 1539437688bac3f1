package io.kegdb.jdbc.tool;

import io.kegdb.engine.KvStore;
import io.kegdb.raft.tool.ClusterMain;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;

import java.util.HexFormat;
import java.util.Locale;

/**
 * The store key of a table's key value as the SQL layer writes it: the table's keyspace id, then the key
 * column's order-preserving encoding ({@link TableDef#key}), the table found in the catalog read through the
 * cluster's store. The value is its SQL text as a parameter would be converted ({@code 42}, {@code abc},
 * {@code 2024-01-31}, {@code true}); a VARBINARY key's value is hex digits.
 */
final class TableKeyEncoding implements ClusterMain.KeyEncoding {

    @Override
    public byte[] storeKey(KvStore store, String table, String value) {
        Catalog.Snapshot catalog;
        try {
            catalog = Catalog.open(store, true).snapshot();
        } catch (SqlError e) {
            throw new IllegalArgumentException("cannot read the catalog: " + e.getMessage(), e);
        }
        String[] name = qualified(table);
        TableDef def = catalog.find(name[0], name[1]);
        if (def == null) {
            throw new IllegalArgumentException("no table " + name[0] + "." + name[1]);
        }
        try {
            Object key = def.keyType() == ColumnType.VARBINARY ? HexFormat.of().parseHex(value) : value;
            return def.key(def.checkedKey(key));
        } catch (SqlError | IllegalArgumentException e) {
            throw new IllegalArgumentException("'" + value + "' is not a key of " + def.qualifiedName() + " ("
                    + def.keyDeclaration() + "): " + e.getMessage(), e);
        }
    }

    /** {@code [SCHEMA.]NAME}, each part upper-cased unless in double quotes (SQL's rule); PUBLIC by default. */
    static String[] qualified(String table) {
        String schema = Catalog.DEFAULT_SCHEMA;
        String name = table.trim();
        int dot = dotOutsideQuotes(name);
        if (dot >= 0) {
            schema = identifier(name.substring(0, dot));
            name = name.substring(dot + 1);
        }
        return new String[]{schema, identifier(name)};
    }

    private static int dotOutsideQuotes(String s) {
        boolean quoted = false;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == '.' && !quoted) {
                return i;
            }
        }
        return -1;
    }

    private static String identifier(String part) {
        String p = part.trim();
        if (p.length() >= 2 && p.startsWith("\"") && p.endsWith("\"")) {
            return p.substring(1, p.length() - 1).replace("\"\"", "\"");
        }
        if (p.isEmpty() || p.contains("\"")) {
            throw new IllegalArgumentException("not a table name: " + part);
        }
        return p.toUpperCase(Locale.ROOT);
    }
}
