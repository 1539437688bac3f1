package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * An autocommitted {@code UPDATE t SET v = ? WHERE k = ?} is one conditional write (the row must be present
 * when it is applied), not a read and then a write; UPDATEs that read the old value still read it.
 */
class OneWriteUpdateTest {

    @Test
    void anUpdateByKeyIsOneWriteAndCountsTheRowItFound() throws SqlError {
        for (boolean roundTrips : new boolean[] {true, false}) {
            CountingStore store = new CountingStore(KvStore.inMemory(), roundTrips);
            try (SqlDatabase db = SqlDatabase.open(store); SqlSession s = db.newSession()) {
                update(s, "CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR)");
                update(s, "INSERT INTO t VALUES (1, 'one')");
                store.reset();
                assertEquals(1, update(s, "UPDATE t SET v = ? WHERE id = ?", "uno", 1L));
                assertEquals(0, update(s, "UPDATE t SET v = ? WHERE id = ?", "dos", 2L));
                assertEquals(1, update(s, "UPDATE t SET v = 'eins' WHERE id = 1"));
                assertEquals(0, store.reads(), "no read");
                assertEquals(3, store.writes.get(), "one conditional write each");
                assertEquals(List.of(row(1L, "eins")), rows(s, "SELECT * FROM t"), "no row 2 was made");

                store.reset();
                assertEquals(1, update(s, "UPDATE t SET v = v || '!' WHERE id = 1"));
                assertEquals(1, store.reads() > 0 ? 1 : 0, "an UPDATE reading the old value reads it");
                assertEquals(List.of(row(1L, "eins!")), rows(s, "SELECT * FROM t"));
            } finally {
                store.close();
            }
        }
    }
}
