package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A table's store keys as tools outside SQL make them ({@code kegdb cluster split --table T --at VALUE}): the one
 * the SQL layer writes the row under, the table found by SQL's name rules; a table or value that is not there is
 * named in the error.
 */
class StoredTableTest {

    private static TableDef table(String schema, String name, ColumnType keyType) {
        return new TableDef(schema, name, 0, "K", keyType, 0, 0, "V", ColumnType.VARCHAR, 0, 0);
    }

    @Test
    void aKeyValueBecomesTheStoreKeyItsRowIsWrittenUnder() throws Exception {
        KvStore store = KvStore.inMemory();
        Catalog catalog = Catalog.open(store, true);
        catalog.create(table("PUBLIC", "T", ColumnType.BIGINT), false);
        catalog.create(table("S", "Mixed", ColumnType.VARCHAR), false);
        catalog.create(table("PUBLIC", "B", ColumnType.VARBINARY), false);
        Catalog.Snapshot defs = catalog.snapshot();

        TableDef t = defs.find("PUBLIC", "T");
        assertArrayEquals(t.key(t.checkedKey(42L)), StoredTable.find(store, "t").keyOf("42"), "unquoted: upper case");
        assertArrayEquals(t.key(t.checkedKey(-7L)), StoredTable.find(store, "public.T").keyOf(" -7 "));
        TableDef mixed = defs.find("S", "Mixed");
        assertArrayEquals(mixed.key(mixed.checkedKey("abc")), StoredTable.find(store, "s.\"Mixed\"").keyOf("abc"));
        TableDef b = defs.find("PUBLIC", "B");
        assertArrayEquals(b.key(b.checkedKey(new byte[]{10, (byte) 0xff})), StoredTable.find(store, "B").keyOf("0aFF"),
                "a VARBINARY key in hex");

        SqlError noTable = assertThrows(SqlError.class, () -> StoredTable.find(store, "s.mixed"));
        assertEquals(SqlState.TABLE_NOT_FOUND, noTable.sqlState());
        assertTrue(noTable.getMessage().contains("no table S.MIXED"), noTable.getMessage());
        SqlError notANumber = assertThrows(SqlError.class, () -> StoredTable.find(store, "T").keyOf("forty-two"));
        assertTrue(notANumber.getMessage().contains("is not a key of PUBLIC.T (BIGINT)"), notANumber.getMessage());
        SqlError notHex = assertThrows(SqlError.class, () -> StoredTable.find(store, "B").keyOf("0g"));
        assertEquals(SqlState.INVALID_CHARACTER_VALUE_FOR_CAST, notHex.sqlState());
        assertEquals(SqlState.SYNTAX_ERROR, assertThrows(SqlError.class, () -> StoredTable.find(store, "\"T"))
                .sqlState(), "an open quote");
    }

    @Test
    void aStoredPairDecodesAsItsRow() throws Exception {
        KvStore store = KvStore.inMemory();
        Catalog.open(store, true).create(table("PUBLIC", "T", ColumnType.BIGINT), false);
        StoredTable t = StoredTable.find(store, "T");
        byte[] key = t.key(5L);
        assertEquals(5L, t.decodeKey(key));
        assertTrue(Arrays.compareUnsigned(t.prefix(), key) <= 0 && Arrays.compareUnsigned(key, t.prefixEnd()) < 0,
                "the key lies in the table's keyspace");
        assertEquals("PUBLIC.T", t.qualifiedName());
    }
}
