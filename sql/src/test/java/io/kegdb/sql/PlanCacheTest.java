package io.kegdb.sql;

import io.kegdb.engine.KvStore;
import io.kegdb.sql.calcite.CalcitePlan;
import io.kegdb.sql.direct.KeyValuePlan;
import io.kegdb.sql.plan.Plan;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

/** Plans are made once per statement text and catalog version; key/value shapes skip Calcite. */
class PlanCacheTest {

    @Test
    void keyValueShapesUseTheDirectPath() throws SqlError {
        try (KvStore store = KvStore.inMemory(); SqlDatabase db = SqlDatabase.open(store)) {
            KegDatabase kdb = (KegDatabase) db;
            for (String sql : List.of("SELECT * FROM kv WHERE k = ?", "SELECT v, k FROM kv WHERE K = 'x'",
                    "INSERT INTO kv (k, v) VALUES (?, ?)", "INSERT INTO kv (v, k) VALUES ('a', 'b')",
                    "UPSERT INTO kv VALUES (?, ?)", "UPDATE kv SET v = ? WHERE k = ?", "DELETE FROM kv WHERE k = ?;",
                    "insert into \"KV\" values ('x', null)")) {
                assertInstanceOf(KeyValuePlan.class, kdb.plan(sql, "PUBLIC"), sql);
            }
            for (String sql : List.of("SELECT * FROM kv WHERE v = ?", "SELECT UPPER(v) FROM kv WHERE k = ?",
                    "INSERT INTO kv VALUES (?, ?), (?, ?)", "UPDATE kv SET v = v || 'x' WHERE k = ?",
                    "DELETE FROM kv WHERE k > ?", "INSERT INTO kv VALUES (1, 'a')")) {
                assertInstanceOf(CalcitePlan.class, kdb.plan(sql, "PUBLIC"), sql);
            }
            Plan first = kdb.plan("SELECT v FROM kv WHERE k > ?", "PUBLIC");
            assertSame(first, kdb.plan("SELECT v FROM kv WHERE k > ?", "PUBLIC"), "cached");
        }
    }

    @Test
    void ddlInvalidatesPlansAndPreparedStatementsReplan() throws SqlError {
        try (KvStore store = KvStore.inMemory(); SqlDatabase db = SqlDatabase.open(store);
             SqlSession s = db.newSession()) {
            update(s, "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR)");
            update(s, "INSERT INTO t VALUES (1, 'a')");
            SqlStatement point = s.prepare("SELECT v FROM t WHERE k = ?");
            SqlStatement scan = s.prepare("SELECT COUNT(*) FROM t WHERE v IS NOT NULL");
            assertEquals(List.of(row("a")), SqlTestSupport.drain(point.execute(List.of(1L), 0)));
            update(s, "DROP TABLE t");
            update(s, "CREATE TABLE t (k VARCHAR PRIMARY KEY, v BIGINT)");
            update(s, "INSERT INTO t VALUES ('1', 10)");
            assertEquals(List.of(row(10L)), SqlTestSupport.drain(point.execute(List.of("1"), 0)));
            assertEquals(List.of(row(1L)), SqlTestSupport.drain(scan.execute(List.of(), 0)));
            update(s, "DROP TABLE t");
            SqlError e = org.junit.jupiter.api.Assertions.assertThrows(SqlError.class, () -> point.execute(List.of("1"), 0));
            assertEquals("42S02", e.sqlState());
            fails("42S02", s, "SELECT v FROM t WHERE k = '1'");
            assertEquals(List.of(), rows(s, "SELECT * FROM kv"));
        }
    }
}
