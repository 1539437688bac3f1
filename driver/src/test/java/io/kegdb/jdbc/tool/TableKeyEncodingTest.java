package io.kegdb.jdbc.tool;

import io.kegdb.engine.KvStore;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.ColumnType;
import io.kegdb.sql.catalog.TableDef;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The store key {@code kegdb cluster split --table T --at VALUE} splits at: the one the SQL layer writes the
 * row under, found by SQL's name rules; a table or value that is not there is named in the error.
 */
class TableKeyEncodingTest {

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
        TableKeyEncoding keys = new TableKeyEncoding();

        TableDef t = defs.find("PUBLIC", "T");
        assertArrayEquals(t.key(t.checkedKey(42L)), keys.storeKey(store, "t", "42"), "unquoted: upper case");
        assertArrayEquals(t.key(t.checkedKey(-7L)), keys.storeKey(store, "public.T", " -7 "));
        TableDef mixed = defs.find("S", "Mixed");
        assertArrayEquals(mixed.key(mixed.checkedKey("abc")), keys.storeKey(store, "s.\"Mixed\"", "abc"));
        TableDef b = defs.find("PUBLIC", "B");
        assertArrayEquals(b.key(b.checkedKey(new byte[]{10, (byte) 0xff})), keys.storeKey(store, "B", "0aFF"),
                "a VARBINARY key in hex");

        assertTrue(assertThrows(IllegalArgumentException.class, () -> keys.storeKey(store, "s.mixed", "abc"))
                .getMessage().contains("no table S.MIXED"));
        IllegalArgumentException notANumber = assertThrows(IllegalArgumentException.class,
                () -> keys.storeKey(store, "T", "forty-two"));
        assertTrue(notANumber.getMessage().contains("is not a key of PUBLIC.T (BIGINT)"), notANumber.getMessage());
        assertThrows(IllegalArgumentException.class, () -> keys.storeKey(store, "B", "0g"), "not hex");
        assertThrows(IllegalArgumentException.class, () -> keys.storeKey(store, "\"T", "1"), "an open quote");
    }
}
