package io.kegdb.sql;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import java.util.List;

import static io.kegdb.sql.SqlTestSupport.fails;
import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The catalog lives in the store: reopening the database over the same store finds the tables again. */
class CatalogPersistenceTest {

    @Test
    void tablesAndRowsSurviveReopen() throws SqlError {
        try (KvStore store = KvStore.inMemory()) {
            try (SqlDatabase db = SqlDatabase.open(store); SqlSession s = db.newSession()) {
                update(s, "CREATE TABLE people (id BIGINT PRIMARY KEY, name VARCHAR(10))");
                update(s, "CREATE TABLE other.blobs (k VARBINARY, v BIGINT, PRIMARY KEY (k))");
                update(s, "CREATE TABLE gone (k VARCHAR PRIMARY KEY, v VARCHAR)");
                update(s, "INSERT INTO people VALUES (1, 'ann'), (-2, 'bob')");
                update(s, "INSERT INTO other.blobs VALUES (X'01', 5)");
                update(s, "INSERT INTO kv VALUES ('k', 'v')");
                update(s, "DROP TABLE gone");
            }
            try (SqlDatabase db = SqlDatabase.open(store); SqlSession s = db.newSession()) {
                assertEquals(List.of(row(-2L, "bob"), row(1L, "ann")), rows(s, "SELECT * FROM people"));
                assertEquals(List.of(row(5L)), rows(s, "SELECT v FROM other.blobs"));
                assertEquals(List.of(row("v")), rows(s, "SELECT v FROM kv WHERE k = 'k'"));
                fails("42S02", s, "SELECT * FROM gone");
                fails("22001", s, "INSERT INTO people VALUES (3, 'much too long')");
                assertEquals(List.of("INFORMATION_SCHEMA", "OTHER", "PUBLIC", "SYS"), db.schemas());
                s.setSchema("OTHER");
                assertEquals(List.of(row(1L)), rows(s, "SELECT COUNT(*) FROM blobs"));
                assertEquals(List.of(row(5L)), rows(s, "SELECT v FROM blobs WHERE k = X'01'"));
                // New ids never collide with the old ones.
                update(s, "CREATE TABLE PUBLIC.fresh (k VARCHAR PRIMARY KEY, v VARCHAR)");
                assertEquals(List.of(), rows(s, "SELECT * FROM PUBLIC.fresh"));
                assertEquals(List.of(row("BLOBS"), row("FRESH"), row("KV"), row("PEOPLE")),
                        rows(s, "SELECT table_name FROM sys.tables ORDER BY table_name"));
            }
        }
    }

    @Test
    void catalogAndRowsSurviveBitcaskRestart(@TempDir Path dir) throws SqlError, IOException {
        try (Bitcask store = Bitcask.open(dir); SqlDatabase db = SqlDatabase.open(store);
             SqlSession s = db.newSession()) {
            s.setDurability(Durability.NO_SYNC);
            update(s, "CREATE TABLE events (seq BIGINT PRIMARY KEY, body VARCHAR)");
            s.setAutoCommit(false);
            for (long i = -5; i < 500; i++) {
                update(s, "INSERT INTO events VALUES (?, ?)", i, "event " + i);
            }
            s.commit();
            s.setAutoCommit(true);
            assertEquals(5, update(s, "DELETE FROM events WHERE seq < 0"));
            assertEquals(List.of(row(500L)), rows(s, "SELECT COUNT(*) FROM events"));
            update(s, "CREATE TABLE dropped (k VARCHAR PRIMARY KEY, v VARCHAR)");
            update(s, "INSERT INTO dropped VALUES ('a', 'b')");
            update(s, "DROP TABLE dropped");
        }
        try (Bitcask store = Bitcask.open(dir); SqlDatabase db = SqlDatabase.open(store);
             SqlSession s = db.newSession()) {
            assertEquals(List.of(row(500L, 0L, 499L)), rows(s, "SELECT COUNT(*), MIN(seq), MAX(seq) FROM events"));
            assertEquals(List.of(row("event 42")), rows(s, "SELECT body FROM events WHERE seq = 42"));
            fails("42S02", s, "SELECT * FROM dropped");
            List<List<Object>> segments = rows(s, "SELECT id, bytes FROM sys.segments");
            assertEquals(store.stats().segments(), segments.size());
        }
    }
}
