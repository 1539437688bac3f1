package io.kegdb.jdbc.blackbox;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.WriteBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The documented limits, at and just past their edges, through the engine and through JDBC: key and value
 * sizes, many tables, LIMIT over a million rows, thousands of segments with a bounded number of open files.
 * Sizes are larger under {@code -Pstress}; the figures are printed for docs/RELIABILITY.md.
 */
class LimitsTest {

    private static final boolean STRESS = Boolean.getBoolean("kegdb.stress");

    @TempDir
    Path tmp;

    // ------------------------------------------------------------------ key and value sizes

    @Test
    void engineAcceptsKeysAndValuesAtTheLimitAndRefusesOneByteMoreWritingNothing() throws IOException {
        BitcaskOptions options = BitcaskOptions.builder().maxKeySize(100).maxValueSize(1000).build();
        Path dir = tmp.resolve("engine-sizes");
        try (Bitcask db = Bitcask.open(dir, options)) {
            byte[] key = filled(100, 'k');
            byte[] value = filled(1000, 'v');
            db.put(key, value);
            assertArrayEquals(value, db.get(key));

            IllegalArgumentException longKey = assertThrows(IllegalArgumentException.class,
                    () -> db.put(filled(101, 'k'), value));
            assertTrue(longKey.getMessage().contains("maxKeySize 100"), longKey.getMessage());
            IllegalArgumentException longValue = assertThrows(IllegalArgumentException.class,
                    () -> db.put(filled(99, 'k'), filled(1001, 'v')));
            assertTrue(longValue.getMessage().contains("maxValueSize 1000"), longValue.getMessage());
            // A batch with one oversize entry writes none of its entries.
            WriteBatch batch = new WriteBatch().put(filled(5, 'a'), filled(5, 'a')).put(filled(6, 'b'), filled(1001, 'b'));
            assertThrows(IllegalArgumentException.class, () -> db.write(batch, Durability.SYNC));
            assertNull(db.get(filled(5, 'a')));
            assertNull(db.get(filled(101, 'k')));
            assertNull(db.get(filled(99, 'k')));
            assertEquals(1, db.stats().keys());
        }
        try (Bitcask db = Bitcask.open(dir, options)) {
            assertEquals(1, db.stats().keys());
            assertEquals(0, db.stats().deadBytes(), "a refused write left a record behind");
        }
    }

    @Test
    void jdbcAcceptsRowsAtTheStoreLimitAndRefusesOneByteMoreWritingNothing() throws SQLException {
        String url = "jdbc:kegdb:" + tmp.resolve("jdbc-sizes") + "?maxKeySize=100&maxValueSize=1000";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            // A row's store key is the table's 4-byte id + the UTF-8 key; its store value is 1 byte + the value.
            String key = "k".repeat(96);
            String value = "v".repeat(999);
            assertEquals(1, s.executeUpdate("INSERT INTO KV VALUES ('" + key + "', '" + value + "')"));
            assertEquals(List.of(value), values(s, "SELECT V FROM KV WHERE K = '" + key + "'"));

            SQLException longKey = assertThrows(SQLException.class,
                    () -> s.executeUpdate("INSERT INTO KV VALUES ('" + key + "k', 'v')"));
            assertEquals("22001", longKey.getSQLState());
            assertTrue(longKey.getMessage().contains("maxKeySize 100"), longKey.getMessage());
            SQLException longValue = assertThrows(SQLException.class,
                    () -> s.executeUpdate("UPSERT INTO KV VALUES ('a', '" + value + "v')"));
            assertEquals("22001", longValue.getSQLState());
            assertTrue(longValue.getMessage().contains("maxValueSize 1000"), longValue.getMessage());
            // Prepared, multi-row: the good row is not written either.
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO KV VALUES (?, ?), (?, ?)")) {
                ps.setString(1, "good");
                ps.setString(2, "row");
                ps.setString(3, "bad");
                ps.setString(4, value + "v");
                assertEquals("22001", assertThrows(SQLException.class, ps::executeUpdate).getSQLState());
            }
            // In a transaction the store checks sizes at commit: the commit fails and writes nothing.
            c.setAutoCommit(false);
            s.executeUpdate("INSERT INTO KV VALUES ('in-tx', 'x')");
            s.executeUpdate("INSERT INTO KV VALUES ('" + key + "kk', 'x')");
            assertEquals("22001", assertThrows(SQLException.class, c::commit).getSQLState());
            c.setAutoCommit(true);
            assertEquals(List.of(key), values(s, "SELECT K FROM KV"));
        }
    }

    // ------------------------------------------------------------------ many tables

    @Test
    void manyTablesCanBeCreatedListedQueriedReopenedAndDropped() throws SQLException {
        int tables = STRESS ? 10_000 : 2_000;
        String url = "jdbc:kegdb:" + tmp.resolve("tables") + "?durability=nosync";
        long start = System.nanoTime();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            for (int i = 0; i < tables; i++) {
                s.executeUpdate("CREATE TABLE T" + i + " (K VARCHAR PRIMARY KEY, V BIGINT)");
            }
            assertEquals(tables + 1, tableCount(c));
            for (int i = 0; i < tables; i += 97) {
                s.executeUpdate("INSERT INTO T" + i + " VALUES ('k', " + i + ")");
                assertEquals(List.of(String.valueOf(i)), values(s, "SELECT V FROM T" + i + " WHERE K = 'k'"));
            }
        }
        long created = System.nanoTime();
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            assertEquals(tables + 1, tableCount(c));
            assertEquals(List.of("97"), values(s, "SELECT T97.V + T0.V FROM T97 JOIN T0 ON T97.K = T0.K"));
            for (int i = 0; i < tables; i++) {
                s.executeUpdate("DROP TABLE T" + i);
            }
            assertEquals(1, tableCount(c));
        }
        try (Connection c = DriverManager.getConnection(url)) {
            assertEquals(1, tableCount(c));
        }
        System.out.printf("Limits: %d tables created, listed, queried and reopened in %d ms, dropped in %d ms%n",
                tables, (created - start) / 1_000_000, (System.nanoTime() - created) / 1_000_000);
    }

    private static int tableCount(Connection c) throws SQLException {
        int n = 0;
        try (ResultSet rs = c.getMetaData().getTables(null, null, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                n++;
            }
        }
        return n;
    }

    // ------------------------------------------------------------------ LIMIT over a million rows

    @Test
    void limitsOverAMillionRowsAreServedByAStoreScanThatStopsEarly() throws SQLException {
        int rows = 1_000_000;
        String url = "jdbc:kegdb:" + tmp.resolve("million") + "?durability=nosync";
        try (Connection c = DriverManager.getConnection(url); Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE D (K BIGINT PRIMARY KEY, V BIGINT)");
            s.executeUpdate("INSERT INTO D VALUES (0, 0), (1, 0), (2, 0), (3, 0), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0), (9, 0)");
            s.executeUpdate("CREATE TABLE BIG (K BIGINT PRIMARY KEY, V VARCHAR)");
            try (PreparedStatement fill = c.prepareStatement("INSERT INTO BIG SELECT CAST(? AS BIGINT) * 10000"
                    + " + a.K * 1000 + b.K * 100 + c.K * 10 + d.K, 'v' || CAST(d.K AS VARCHAR) FROM D a, D b, D c, D d")) {
                for (int block = 0; block < rows / 10_000; block++) {
                    fill.setLong(1, block);
                    assertEquals(10_000, fill.executeUpdate());
                }
            }
            assertEquals(List.of(String.valueOf(rows)), values(s, "SELECT COUNT(*) FROM BIG"));

            assertEquals(range(0, 10), values(s, "SELECT K FROM BIG ORDER BY K LIMIT 10"));
            assertEquals(range(rows - 10, rows), values(s, "SELECT K FROM BIG ORDER BY K LIMIT 10 OFFSET " + (rows - 10)));
            assertEquals(List.of("999999", "999998", "999997"), values(s, "SELECT K FROM BIG ORDER BY K DESC LIMIT 3"));
            assertEquals(range(500_000, 500_005), values(s, "SELECT K FROM BIG WHERE K >= 500000 ORDER BY K LIMIT 5"));

            // Time-free evidence that nothing is materialized or sorted: the order and the limit are part of
            // the store scan, which stops after offset + fetch pairs, and no Sort or Limit runs above it.
            for (String q : List.of("SELECT K FROM BIG ORDER BY K LIMIT 10",
                    "SELECT K, V FROM BIG ORDER BY K LIMIT 10 OFFSET " + (rows - 10),
                    "SELECT K FROM BIG ORDER BY K DESC LIMIT 3")) {
                String plan = values(s, "EXPLAIN PLAN FOR " + q).get(0);
                assertTrue(plan.contains("KvScan(") && plan.contains("fetch=["), plan);
                assertFalse(plan.contains("Sort") || plan.contains("Limit"), plan);
            }
            // The offset literal became a parameter of the shared plan; EXPLAIN's last line binds it.
            String paged = values(s, "EXPLAIN PLAN FOR SELECT K, V FROM BIG ORDER BY K LIMIT 10 OFFSET " + (rows - 10))
                    .get(0);
            Matcher offset = Pattern.compile("KvScan\\(.*offset=\\[\\?(\\d+)]").matcher(paged);
            assertTrue(offset.find(), paged);
            assertTrue(paged.contains("?" + offset.group(1) + "=" + (rows - 10)), paged);
        }
    }

    private static List<String> range(int from, int to) {
        List<String> out = new ArrayList<>();
        for (int i = from; i < to; i++) {
            out.add(String.valueOf(i));
        }
        return out;
    }

    // ------------------------------------------------------------------ thousands of segments, bounded files

    @Test
    void thousandsOfSegmentsKeepOpenFilesBounded() throws IOException {
        int segments = STRESS ? 10_000 : 2_000;
        int maxOpenFiles = 16;
        BitcaskOptions options = BitcaskOptions.builder().segmentSize(4096).maxOpenFiles(maxOpenFiles)
                .mergeInterval(Duration.ZERO).durability(Durability.NO_SYNC).build();
        Path dir = tmp.resolve("segments");
        long baseline = openFiles();
        long peak = baseline;
        int keys;
        try (Bitcask db = Bitcask.open(dir, options)) {
            keys = 0;
            while (db.stats().segments() < segments) {
                for (int i = 0; i < 100; i++, keys++) {
                    db.put(key(keys), value(keys));
                }
                peak = Math.max(peak, openFiles());
            }
            peak = Math.max(peak, readEverything(db, keys));
        }
        assertTrue(openFiles() <= baseline + 1, "files left open after close: " + openFiles() + " vs " + baseline);
        try (Bitcask db = Bitcask.open(dir, options)) {
            assertEquals(keys, db.stats().keys());
            assertTrue(db.stats().segments() >= segments);
            peak = Math.max(peak, readEverything(db, keys));
        }
        assertTrue(openFiles() <= baseline + 1, "files left open after close: " + openFiles() + " vs " + baseline);
        // The readers' cache, the active segment, its hint, the lock and the directory, with some slack.
        assertTrue(peak - baseline <= maxOpenFiles + 8, "open files peaked at " + (peak - baseline)
                + " above the baseline with maxOpenFiles " + maxOpenFiles);
        System.out.printf("Limits: %d segments, %d keys, open files at most %d above the baseline (maxOpenFiles %d)%n",
                segments, keys, peak - baseline, maxOpenFiles);
    }

    @Test
    void thousandsOfSegmentsThroughJdbcKeepOpenFilesBounded() throws SQLException {
        int segments = STRESS ? 5_000 : 1_000;
        String url = "jdbc:kegdb:" + tmp.resolve("jdbc-segments")
                + "?durability=nosync&segmentSize=4k&maxOpenFiles=16&mergeInterval=0";
        long baseline = openFiles();
        long peak = baseline;
        int rows = 0;
        try (Connection c = DriverManager.getConnection(url);
             PreparedStatement put = c.prepareStatement("UPSERT INTO KV VALUES (?, ?)");
             Statement s = c.createStatement()) {
            String value = "v".repeat(900);
            while (stat(s, "segments") < segments) {
                for (int i = 0; i < 100; i++, rows++) {
                    put.setString(1, "k" + rows);
                    put.setString(2, value);
                    put.executeUpdate();
                }
                peak = Math.max(peak, openFiles());
            }
            assertEquals(List.of(rows + " " + (long) rows * value.length()),
                    values(s, "SELECT CAST(COUNT(*) AS VARCHAR) || ' ' || CAST(SUM(CHAR_LENGTH(V)) AS VARCHAR) FROM KV"));
            peak = Math.max(peak, openFiles());
            Random random = new Random(3);
            for (int i = 0; i < 2_000; i++) {
                int k = random.nextInt(rows);
                assertEquals(List.of(value), values(s, "SELECT V FROM KV WHERE K = 'k" + k + "'"));
            }
            peak = Math.max(peak, openFiles());
        }
        assertTrue(openFiles() <= baseline + 1, "files left open after the last connection closed");
        assertTrue(peak - baseline <= 16 + 8, "open files peaked at " + (peak - baseline) + " above the baseline");
        System.out.printf("Limits (JDBC): %d segments, %d rows, open files at most %d above the baseline%n",
                segments, rows, peak - baseline);
    }

    private static long stat(Statement s, String name) throws SQLException {
        try (ResultSet rs = s.executeQuery("SELECT \"VALUE\" FROM SYS.STATS WHERE NAME = '" + name + "'")) {
            assertTrue(rs.next());
            return rs.getLong(1);
        }
    }

    /** Point reads in random order and one full scan; returns the most files seen open meanwhile. */
    private static long readEverything(Bitcask db, int keys) {
        long peak = 0;
        Random random = new Random(7);
        for (int i = 0; i < keys; i++) {
            int k = random.nextInt(keys);
            assertArrayEquals(value(k), db.get(key(k)));
            if (i % 500 == 0) {
                peak = Math.max(peak, openFiles());
            }
        }
        int seen = 0;
        try (KvIterator it = db.scan(null, null)) {
            while (it.hasNext()) {
                it.next();
                if (++seen % 500 == 0) {
                    peak = Math.max(peak, openFiles());
                }
            }
        }
        assertEquals(keys, seen);
        return peak;
    }

    private static long openFiles() {
        try (Stream<Path> fds = Files.list(Path.of("/proc/self/fd"))) {
            return fds.count();
        } catch (IOException e) {
            throw new IllegalStateException("cannot list /proc/self/fd", e);
        }
    }

    private static byte[] key(int i) {
        return String.format("key-%08d", i).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] value(int i) {
        byte[] v = new byte[900];
        Arrays.fill(v, (byte) i);
        return v;
    }

    private static byte[] filled(int n, char c) {
        byte[] b = new byte[n];
        Arrays.fill(b, (byte) c);
        return b;
    }

    private static List<String> values(Statement s, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }
}
