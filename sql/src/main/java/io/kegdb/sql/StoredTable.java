package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;

import java.util.HexFormat;
import java.util.Locale;

/**
 * A user table as a store holds it: its keyspace and the encodings of its key and value, found by name in the
 * store's catalog. For tools that work with store keys beside SQL, such as {@code kegdb cluster split --table T
 * --at VALUE}, which must send a node the store key a row of T is written under (a node has no SQL layer).
 */
public final class StoredTable {

    private final TableDef def;

    private StoredTable(TableDef def) {
        this.def = def;
    }

    /**
     * The table {@code table} ({@code [SCHEMA.]NAME}, each part upper-cased unless in double quotes, as SQL
     * reads identifiers; schema PUBLIC when none is given) in the catalog {@code store} holds.
     *
     * @throws SqlError 42S02 if there is no such table, 42000 if {@code table} is not a table name, or the
     *                  store's error reading the catalog
     */
    public static StoredTable find(KvStore store, String table) throws SqlError {
        String[] name = qualified(table);
        TableDef def = Catalog.open(store, true).snapshot().find(name[0], name[1]);
        if (def == null) {
            throw new SqlError(SqlState.TABLE_NOT_FOUND, "no table " + name[0] + "." + name[1]);
        }
        return new StoredTable(def);
    }

    /** {@code SCHEMA.NAME}. */
    public String qualifiedName() {
        return def.qualifiedName();
    }

    /**
     * The store key of the row whose key is {@code text}, converted as a parameter's text is ({@code 42},
     * {@code abc}, {@code 2024-01-31}, {@code true}); a VARBINARY key's value is hex digits.
     *
     * @throws SqlError (22018, 22003, 22023, ...) naming the table's key declaration if {@code text} is no key
     *                  of this table
     */
    public byte[] keyOf(String text) throws SqlError {
        try {
            return key(def.keyType() == ColumnType.VARBINARY ? HexFormat.of().parseHex(text) : text);
        } catch (IllegalArgumentException e) {
            throw new SqlError(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST, notAKey(text) + ": not hex digits", e);
        } catch (SqlError e) {
            throw new SqlError(e.sqlState(), notAKey(text) + ": " + e.getMessage(), e);
        }
    }

    /** The store key of the row whose key is {@code value} (a Java value the key column takes). */
    public byte[] key(Object value) throws SqlError {
        return def.key(def.checkedKey(value));
    }

    /** The first bytes of every key of this table. */
    public byte[] prefix() {
        return def.prefix();
    }

    /** The first store key after this table's keyspace. */
    public byte[] prefixEnd() {
        return def.prefixEnd();
    }

    /** The key value a store key of this table holds. */
    public Object decodeKey(byte[] storeKey) {
        return def.decodeKey(storeKey);
    }

    /** The value a stored value of this table holds (null for SQL NULL). */
    public Object decodeValue(byte[] stored) {
        return def.decodeValue(stored);
    }

    private String notAKey(String text) {
        return "'" + text + "' is not a key of " + def.qualifiedName() + " (" + def.keyDeclaration() + ")";
    }

    private static String[] qualified(String table) throws SqlError {
        String schema = Catalog.DEFAULT_SCHEMA;
        String name = table.trim();
        int dot = dotOutsideQuotes(name);
        if (dot >= 0) {
            schema = identifier(name.substring(0, dot), table);
            name = name.substring(dot + 1);
        }
        return new String[]{schema, identifier(name, table)};
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

    private static String identifier(String part, String table) throws SqlError {
        String p = part.trim();
        if (p.length() >= 2 && p.startsWith("\"") && p.endsWith("\"")) {
            return p.substring(1, p.length() - 1).replace("\"\"", "\"");
        }
        if (p.isEmpty() || p.contains("\"")) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "not a table name: " + table);
        }
        return p.toUpperCase(Locale.ROOT);
    }
}
