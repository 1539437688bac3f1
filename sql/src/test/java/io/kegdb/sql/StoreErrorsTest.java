package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import io.kegdb.engine.UnsupportedStoreOperationException;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SQLStates of refusals a store gives for what it does not do: not built yet (0A000) or not here (42000). */
class StoreErrorsTest {

    @Test
    void workAcrossRangesIsAFeatureNotBuiltYet() {
        for (String operation : new String[]{UnsupportedStoreOperationException.WRITE_ACROSS_RANGES,
            UnsupportedStoreOperationException.SNAPSHOT_ACROSS_RANGES}) {
            SqlError e = StoreErrors.translate(new UnsupportedStoreOperationException(operation,
                    "keys in range 1 and range 2"));
            assertEquals(SqlState.FEATURE_NOT_SUPPORTED, e.sqlState(), operation);
            assertEquals("keys in range 1 and range 2", e.getMessage(), "the store's message, which names the ranges");
        }
    }

    @Test
    void aBackupOfAStoreWithoutFilesIsNotForThisDatabase() {
        try (KvStore memory = KvStore.inMemory()) {
            SqlError e = StoreErrors.translate(new UnsupportedStoreOperationException(
                    UnsupportedStoreOperationException.BACKUP, memory));
            assertEquals(SqlState.SYNTAX_ERROR, e.sqlState());
            assertTrue(e.getMessage().startsWith("BACKUP TO needs a local store"), e.getMessage());
        }
    }
}
