package io.kegdb.bench.jdbc;

import com.zaxxer.hikari.HikariDataSource;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The benchmark's workloads on one pooled database: 16-byte keys, 128-byte values in table BENCH. Each
 * returns operations per second; reads check the value they get. Keys and values are made before any
 * timing starts, so the timed loops measure the database and the driver, not string formatting.
 */
final class JdbcWorkloads {
    static final int KEY_BYTES = 16;
    static final int VALUE_BYTES = 128;

    private final HikariDataSource pool;
    private final int rows;
    private final RowData data;

    JdbcWorkloads(HikariDataSource pool, int rows, RowData data) {
        this.pool = pool;
        this.rows = rows;
        this.data = data;
    }

    static String key(int i) {
        return String.format("k%015d", i);
    }

    static String autocommitKey(int i) {
        return String.format("a%015d", i);
    }

    static String value(int i) {
        StringBuilder sb = new StringBuilder(VALUE_BYTES);
        sb.append(String.format("%08d", i));
        while (sb.length() < VALUE_BYTES) {
            sb.append((char) ('a' + (sb.length() + i) % 26));
        }
        return sb.toString();
    }

    /** Every key and value (and ad hoc SQL text) the workloads use, made once before the first run. */
    static final class RowData {
        final String[] keys;
        final String[] values;
        final String[] autocommitKeys;
        final String[] adHocSelects;

        RowData(int rows, int autocommitRows) {
            keys = new String[rows];
            values = new String[Math.max(rows, autocommitRows)];
            adHocSelects = new String[rows];
            for (int i = 0; i < values.length; i++) {
                values[i] = value(i);
            }
            for (int i = 0; i < rows; i++) {
                keys[i] = key(i);
                adHocSelects[i] = "SELECT V FROM BENCH WHERE K = '" + keys[i] + "'";
            }
            autocommitKeys = new String[autocommitRows];
            for (int i = 0; i < autocommitRows; i++) {
                autocommitKeys[i] = autocommitKey(i);
            }
        }
    }

    void createTable(String ddl) throws SQLException {
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate(ddl);
        }
    }

    /**
     * Untimed warm-up of the write paths (JIT), made of what the timed inserts do: {@code rounds} rounds that
     * each create a table like BENCH and load every row into it, batched, then {@code autocommitted}
     * autocommitted inserts. The tables stay: dropping them would run code the timed part never runs, and a
     * JIT-compiled database would then recompile while it is timed.
     */
    void warmUpWrites(String benchDdl, int rounds, int autocommitted) throws SQLException {
        List<String> tables = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            tables.add("WARMUP" + r);
        }
        load(benchDdl, tables, 1000);
        createTable(benchDdl.replace("BENCH", "WARMUP"));
        try (Connection c = pool.getConnection();
             PreparedStatement ins = c.prepareStatement("INSERT INTO WARMUP (K, V) VALUES (?, ?)")) {
            for (int i = 0; i < autocommitted; i++) {
                ins.setString(1, data.autocommitKeys[i]);
                ins.setString(2, data.values[i]);
                ins.executeUpdate();
            }
        }
    }

    /**
     * {@code rows} inserts, prepared and batched, committed every {@code txnSize} rows, {@code rounds} times:
     * each round creates a table like BENCH and loads it, the last round loads BENCH itself (which the reads
     * then use), so the database grows by the rows of each round. Returns each round's rows per second.
     */
    double[] batchedInsert(String benchDdl, int rounds, int txnSize) throws SQLException {
        List<String> tables = new ArrayList<>();
        for (int r = 1; r < rounds; r++) {
            tables.add("BENCH" + r);
        }
        tables.add("BENCH");
        return load(benchDdl, tables, txnSize);
    }

    /** Loads every row into each table in turn (creating it, except BENCH); the rows per second of each. */
    private double[] load(String benchDdl, List<String> tables, int txnSize) throws SQLException {
        double[] perTable = new double[tables.size()];
        for (int t = 0; t < perTable.length; t++) {
            String table = tables.get(t);
            if (!table.equals("BENCH")) {
                createTable(benchDdl.replace("BENCH", table));
            }
            long start = System.nanoTime();
            insertInto(table, rows, txnSize);
            perTable[t] = perSecond(rows, start);
        }
        return perTable;
    }

    private void insertInto(String table, int count, int txnSize) throws SQLException {
        try (Connection c = pool.getConnection();
             PreparedStatement ins = c.prepareStatement("INSERT INTO " + table + " (K, V) VALUES (?, ?)")) {
            c.setAutoCommit(false);
            for (int i = 0; i < count; i++) {
                ins.setString(1, data.keys[i]);
                ins.setString(2, data.values[i]);
                ins.addBatch();
                if ((i + 1) % txnSize == 0 || i == count - 1) {
                    ins.executeBatch();
                    c.commit();
                }
            }
            c.setAutoCommit(true);
        }
    }

    /** Single-row inserts, each its own (durable where the database makes it so) autocommitted transaction. */
    double autocommitInserts(int count) throws SQLException {
        long start = System.nanoTime();
        try (Connection c = pool.getConnection();
             PreparedStatement ins = c.prepareStatement("INSERT INTO BENCH (K, V) VALUES (?, ?)")) {
            c.setAutoCommit(true);
            for (int i = 0; i < count; i++) {
                ins.setString(1, data.autocommitKeys[i]);
                ins.setString(2, data.values[i]);
                ins.executeUpdate();
            }
        }
        return perSecond(count, start);
    }

    /** Point selects through one prepared statement per thread, on random keys. */
    double preparedPointSelects(int threads, int perThread) throws Exception {
        pointSelectsOn(1, warmUp(perThread), 99); // warm up: JIT, plan caches
        long start = System.nanoTime();
        pointSelectsOn(threads, perThread, 7);
        return perSecond((long) threads * perThread, start);
    }

    private void pointSelectsOn(int threads, int perThread, long seed) throws Exception {
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                long threadSeed = seed + t;
                futures.add(executor.submit(() -> {
                    Random rnd = new Random(threadSeed);
                    try (Connection c = pool.getConnection();
                         PreparedStatement sel = c.prepareStatement("SELECT V FROM BENCH WHERE K = ?")) {
                        for (int i = 0; i < perThread; i++) {
                            int k = rnd.nextInt(rows);
                            sel.setString(1, data.keys[k]);
                            try (ResultSet rs = sel.executeQuery()) {
                                check(rs, k);
                            }
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            executor.shutdown();
        }
    }

    /** Point selects with the key as a literal in new SQL text each time, as a console or an ORM without caching. */
    double adHocPointSelects(int count) throws SQLException {
        adHoc(warmUp(count), 98);
        long start = System.nanoTime();
        adHoc(count, 8);
        return perSecond(count, start);
    }

    private void adHoc(int count, long seed) throws SQLException {
        Random rnd = new Random(seed);
        try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
            for (int i = 0; i < count; i++) {
                int k = rnd.nextInt(rows);
                try (ResultSet rs = s.executeQuery(data.adHocSelects[k])) {
                    check(rs, k);
                }
            }
        }
    }

    private void check(ResultSet rs, int k) throws SQLException {
        if (!rs.next() || !data.values[k].equals(rs.getString(1))) {
            throw new IllegalStateException("wrong or missing row for " + data.keys[k]);
        }
    }

    /**
     * Untimed operations before a timed read workload: a tenth of it, at least 20,000 (the JVM databases
     * compile their hot paths meanwhile), but never more than the workload itself.
     */
    private static int warmUp(int ops) {
        return Math.max(1, Math.min(ops, Math.max(ops / 10, 20_000)));
    }

    private static double perSecond(long ops, long startNanos) {
        return ops / ((System.nanoTime() - startNanos) / 1e9);
    }
}
