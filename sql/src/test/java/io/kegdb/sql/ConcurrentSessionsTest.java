package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Sessions on several threads share one database: every key is inserted exactly once. */
class ConcurrentSessionsTest {

    private static final int THREADS = 4;
    private static final int KEYS = 500;

    @Test
    void eachKeyIsInsertedByExactlyOneSession() throws Exception {
        try (KvStore store = KvStore.inMemory(); SqlDatabase db = SqlDatabase.open(store)) {
            try (SqlSession s = db.newSession()) {
                update(s, "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR)");
            }
            ExecutorService pool = Executors.newFixedThreadPool(THREADS);
            try {
                List<Future<Long>> results = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    final int thread = t;
                    results.add(pool.submit(() -> insertAll(db, thread)));
                }
                long inserted = 0;
                for (Future<Long> f : results) {
                    inserted += f.get(60, TimeUnit.SECONDS);
                }
                assertEquals(KEYS, inserted, "every key won by exactly one session");
                try (SqlSession s = db.newSession()) {
                    assertEquals(List.of(row((long) KEYS)), rows(s, "SELECT COUNT(*) FROM t"));
                }
            } finally {
                pool.shutdownNow();
            }
        }
    }

    /** Inserts every key, half in autocommit and half in small transactions; counts the keys it won. */
    private static long insertAll(SqlDatabase db, int thread) throws SqlError {
        long won = 0;
        try (SqlSession s = db.newSession()) {
            boolean transactions = thread % 2 == 1;
            s.setAutoCommit(!transactions);
            SqlStatement insert = s.prepare("INSERT INTO t VALUES (?, ?)");
            SqlStatement multi = s.prepare("INSERT INTO t SELECT k + 0, v FROM (VALUES (CAST(? AS BIGINT), CAST(? AS VARCHAR))) AS x (k, v)");
            for (long k = 0; k < KEYS; k++) {
                try {
                    (k % 3 == 0 ? multi : insert).execute(List.of(k, "t" + thread), 0).close();
                    if (transactions) {
                        s.commit();
                    }
                    won++;
                } catch (SqlError e) {
                    assertEquals("23505", e.sqlState(), e.getMessage());
                }
            }
        }
        return won;
    }
}
