package io.kegdb.bench;

import io.kegdb.bench.sql.ShapeData;
import io.kegdb.engine.Bitcask;
import io.kegdb.engine.KeyIterator;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvCursor;
import io.kegdb.engine.KvIterator;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * What a scanned row costs, layer by layer, in CPU nanoseconds of the measuring thread per row of the table (so
 * a machine shared with other work still gives usable figures) and bytes allocated per row: the keydir walk alone (keys only), the engine's
 * scan (a {@code KeyValue} per pair), the engine's cursor (in place, each record's CRC and key checked), the
 * CRC32C of a record alone, then SQL through JDBC over the same table: {@code COUNT(*) WHERE v > ?},
 * {@code WHERE v = ?} and {@code ORDER BY v, k LIMIT 20} (prepared, whole table). The table is the SQL-shapes
 * benchmark's {@code kv} ({@link ShapeData}); the engine layers read that table's store directly.
 *
 * <p>{@code java -cp bench/target/kegdb-bench.jar io.kegdb.bench.ScanRowCost [rows] [rounds] [--sql-only]}:
 * prints the best of {@code rounds} (default 5) rounds after two warm-up rounds. {@code --sql-only} skips the
 * engine layers, so that the SQL layers can also be measured against an engine without cursors.
 */
public final class ScanRowCost {

    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    /** The JDK's extension that also counts a thread's allocated bytes (HotSpot has it). */
    private static final com.sun.management.ThreadMXBean ALLOCATION = (com.sun.management.ThreadMXBean) CPU;
    private static long sink;

    private ScanRowCost() {
    }

    public static void main(String[] args) throws Exception {
        int rows = 100_000;
        int rounds = 5;
        boolean sqlOnly = false;
        List<Integer> numbers = new ArrayList<>();
        for (String a : args) {
            if (a.equals("--sql-only")) {
                sqlOnly = true;
            } else {
                numbers.add(Integer.parseInt(a));
            }
        }
        if (!numbers.isEmpty()) {
            rows = numbers.get(0);
        }
        if (numbers.size() > 1) {
            rounds = numbers.get(1);
        }
        try (ScratchDirectory dir = ScratchDirectory.create(BenchStores.parentDirectory(), "kegdb-scan-cost-")) {
            Path store = dir.path().resolve("db");
            String url = "jdbc:kegdb:" + store + "?durability=nosync";
            try (Connection c = DriverManager.getConnection(url)) {
                new ShapeData(rows).load(c);
            }
            System.out.println("| layer (" + rows + " rows) | CPU ns per row | bytes allocated per row |");
            System.out.println("|---|---:|---:|");
            if (!sqlOnly) {
                EngineLayers.measure(store, rows, rounds);
            }
            try (Connection c = DriverManager.getConnection(url)) {
                measureSql(c, rows, rounds);
            }
        }
        if (sink == 42) {
            System.out.println();
        }
    }

    private static void measureSql(Connection c, int rows, int rounds) throws Exception {
        try (PreparedStatement count = c.prepareStatement("SELECT COUNT(*) FROM kv WHERE v > ?");
             PreparedStatement equal = c.prepareStatement("SELECT k FROM kv WHERE v = ?");
             PreparedStatement top = c.prepareStatement("SELECT k, v FROM kv WHERE v >= ? ORDER BY v, k LIMIT 20")) {
            count.setString(1, "v50");
            equal.setString(1, "v42");
            top.setString(1, "v10");
            report("SQL `COUNT(*) WHERE v > ?`", best(rounds, rows, () -> drain(count)));
            report("SQL `WHERE v = ?` (1 row in 100 kept)", best(rounds, rows, () -> drain(equal)));
            report("SQL `WHERE v >= ? ORDER BY v, k LIMIT 20`", best(rounds, rows, () -> drain(top)));
        }
    }

    private static void drain(PreparedStatement statement) throws Exception {
        try (ResultSet rs = statement.executeQuery()) {
            while (rs.next()) {
                sink += rs.getString(1).length();
            }
        }
    }

    private static void report(String layer, double[] perRow) {
        System.out.printf("| %s | %.1f | %.1f |%n", layer, perRow[0], perRow[1]);
    }

    private interface Pass {
        void run() throws Exception;
    }

    /**
     * The best, over {@code rounds} rounds after two warm-up ones, of CPU ns per row of one pass over the rows,
     * and the bytes the thread allocated per row in that round (which no other load on the machine changes).
     */
    private static double[] best(int rounds, int rows, Pass pass) throws Exception {
        double[] best = {Double.MAX_VALUE, Double.MAX_VALUE};
        long thread = Thread.currentThread().getId();
        for (int round = 0; round < rounds + 2; round++) {
            int passes = 5;
            long allocated = ALLOCATION.getThreadAllocatedBytes(thread);
            long start = CPU.getCurrentThreadCpuTime();
            for (int i = 0; i < passes; i++) {
                pass.run();
            }
            double nanos = (CPU.getCurrentThreadCpuTime() - start) / (double) passes / rows;
            double bytes = (ALLOCATION.getThreadAllocatedBytes(thread) - allocated) / (double) passes / rows;
            if (round >= 2 && nanos < best[0]) {
                best[0] = nanos;
                best[1] = bytes;
            }
        }
        return best;
    }

    /** The engine's layers, over the SQL table's store opened directly (kept apart for {@code --sql-only}). */
    private static final class EngineLayers {
        static void measure(Path store, int rows, int rounds) throws Exception {
            try (Bitcask db = BenchStores.open(store)) {
                int pairs = (int) db.countKeys(null, null); // the table's rows and the catalog's few
                report("engine keydir walk (`scanKeys`, keys only)", best(rounds, pairs, () -> {
                    try (KeyIterator keys = db.scanKeys(null, null, false)) {
                        while (keys.hasNext()) {
                            sink += keys.next().length;
                        }
                    }
                }));
                report("engine `scan` (a KeyValue per pair)", best(rounds, pairs, () -> {
                    try (KvIterator it = db.scan(null, null)) {
                        while (it.hasNext()) {
                            KeyValue kv = it.next();
                            sink += kv.key().length + kv.value().length;
                        }
                    }
                }));
                report("engine `cursor` (in place)", best(rounds, pairs, () -> {
                    try (KvCursor c = db.cursor(null, null)) {
                        while (c.next()) {
                            sink += c.keyLength() + c.valueLength();
                        }
                    }
                }));
                int recordSize = averageRecordSize(db, pairs);
                ByteBuffer records = ByteBuffer.allocateDirect(pairs * recordSize);
                CRC32C crc = new CRC32C();
                ByteBuffer view = records.duplicate();
                report("CRC32C of one record (" + recordSize + " B) alone, sequential", best(rounds, pairs, () -> {
                    for (int at = 0; at + recordSize <= records.capacity(); at += recordSize) {
                        view.limit(at + recordSize).position(at + 4);
                        crc.reset();
                        crc.update(view);
                        sink += crc.getValue();
                    }
                }));
                byte[] copy = new byte[recordSize];
                report("the same record copied out, then CRC32C of the copy", best(rounds, pairs, () -> {
                    for (int at = 0; at + recordSize <= records.capacity(); at += recordSize) {
                        records.get(at, copy, 0, recordSize);
                        crc.reset();
                        crc.update(copy, 4, recordSize - 4);
                        sink += crc.getValue();
                    }
                }));
            }
        }

        /** The mean record size of the store's pairs: header (11 bytes, docs/FORMAT.md), key and value. */
        private static int averageRecordSize(Bitcask db, int pairs) {
            long bytes = 0;
            try (KvCursor c = db.cursor(null, null)) {
                while (c.next()) {
                    bytes += 11 + c.keyLength() + c.valueLength();
                }
            }
            return (int) Math.max(12, bytes / Math.max(1, pairs));
        }
    }
}
