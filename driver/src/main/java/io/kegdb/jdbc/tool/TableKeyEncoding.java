package io.kegdb.jdbc.tool;

import io.kegdb.engine.KvStore;
import io.kegdb.raft.tool.ClusterMain;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.StoredTable;

/**
 * The store key of a table's key value as the SQL layer writes it ({@link StoredTable#keyOf}), the table found
 * in the catalog read through the cluster's store.
 */
final class TableKeyEncoding implements ClusterMain.KeyEncoding {

    @Override
    public byte[] storeKey(KvStore store, String table, String value) {
        try {
            return StoredTable.find(store, table).keyOf(value);
        } catch (SqlError e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }
}
