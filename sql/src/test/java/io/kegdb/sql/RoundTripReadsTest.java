package io.kegdb.sql;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Over a store whose reads are round trips (a replicated store's client), keys read only for their presence are
 * read in bulk too: an IN list of keys selecting the key alone, and an IN sub-query on the key (a lookup join
 * reading keys alone), are one multi-get per batch, not a presence check (one request) per key.
 */
class RoundTripReadsTest extends CountedStoreTest {

    @BeforeAll
    static void fill() throws SqlError {
        open(true);
        update(s, "CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR)");
        update(s, "CREATE TABLE refs (id BIGINT PRIMARY KEY, target BIGINT)");
        s.setAutoCommit(false);
        try (SqlStatement t = s.prepare("INSERT INTO t VALUES (?, ?)");
             SqlStatement refs = s.prepare("INSERT INTO refs VALUES (?, ?)")) {
            for (long i = 0; i < 200; i++) {
                t.execute(List.of(i, "v" + i), 0).close();
                refs.execute(List.of(i, i * 3), 0).close();
            }
        }
        s.commit();
        s.setAutoCommit(true);
    }

    @Test
    void anInListOfKeysAloneIsOneMultiGet() throws SqlError {
        StringBuilder in = new StringBuilder();
        for (int i = 0; i < 50; i++) {
            in.append(i == 0 ? "" : ", ").append(i * 7);
        }
        List<List<Object>> found = rows(s, "SELECT id FROM t WHERE id IN (" + in + ") ORDER BY id");
        assertEquals(29, found.size(), "0, 7, ..., 196");
        assertEquals(row(196L), found.get(28));
        assertEquals(1, store.multiGets.get());
        assertEquals(50, store.multiGetKeys.get());
        assertEquals(0, store.gets.get(), "no presence check per key");
    }

    @Test
    void anInSubQueryOnTheKeyIsOneMultiGetPerBatch() throws SqlError {
        String sql = "SELECT refs.id FROM refs WHERE refs.id BETWEEN 0 AND 99 AND refs.target IN (SELECT id FROM t)";
        String plan = (String) rows(s, "EXPLAIN PLAN FOR " + sql).get(0).get(0);
        assertTrue(plan.contains("KvLookupJoin(table=[[PUBLIC, T]]"), plan);
        store.reset();
        List<List<Object>> found = rows(s, sql + " ORDER BY refs.id");
        assertEquals(67, found.size(), "targets 0, 3, ..., 198");
        assertEquals(row(66L), found.get(66));
        assertEquals(1, store.multiGets.get(), "the 100 outer rows' targets in one multi-get");
        assertEquals(100, store.multiGetKeys.get());
        assertEquals(0, store.gets.get());
    }
}
