package io.kegdb.bench;

import io.kegdb.engine.Bitcask;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.zip.CRC32C;

/**
 * What a record read costs and how much of it is the CRC check, in CPU time of the measuring thread (so a
 * machine shared with other work still gives usable figures): a point get of a present key; the CRC32C a get
 * computes over one record (all but the CRC field: header, key, value; the engine's call, a fresh CRC32C over
 * a slice of a direct buffer as large as the store's records, at a random record); the copy of a value out of
 * the same buffer alone (the memory a read reaches either way: the CRC's own cost is the difference); and
 * 100 keys read with
 * 100 gets against one multi-get. 8-byte keys, 100,000 keys, values of 128, 1024 and 8192 bytes.
 *
 * <p>{@code java -cp bench/target/kegdb-bench.jar io.kegdb.bench.RecordReadCost [rounds]}: prints, per value
 * size, the best of {@code rounds} (default 5) rounds of CPU ns per operation.
 */
public final class RecordReadCost {

    private static final int KEYS = 100_000;
    private static final int KEY_SIZE = 8;
    /** Record header bytes (docs/FORMAT.md); the CRC covers all of a record but its own 4 bytes. */
    private static final int RECORD_HEADER = 11;
    private static final int PROBES = 1 << 16;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static long sink;

    private RecordReadCost() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        System.out.println("| value bytes | get, ns | CRC of the record, ns | value copy alone, ns | CRC share of a get"
                + " | 100 gets, ns | getAll of 100, ns |");
        System.out.println("|---:|---:|---:|---:|---:|---:|---:|");
        for (int valueSize : new int[] {128, 1024, 8192}) {
            measure(valueSize, rounds);
        }
        if (sink == 42) {
            System.out.println();
        }
    }

    private static void measure(int valueSize, int rounds) throws Exception {
        KeySpace keys = new KeySpace(1, KEY_SIZE, valueSize);
        try (ScratchDirectory dir = ScratchDirectory.create(BenchStores.parentDirectory(), "kegdb-record-cost-");
             Bitcask db = BenchStores.open(dir.path())) {
            BenchStores.fill(db, keys, KEYS);
            int recordSize = RECORD_HEADER + KEY_SIZE + valueSize;
            ByteBuffer records = ByteBuffer.allocateDirect(KEYS * recordSize);
            SplittableRandom random = new SplittableRandom(3);
            while (records.remaining() >= 8) {
                records.putLong(random.nextLong());
            }
            byte[][] probes = new byte[PROBES][];
            int[] offsets = new int[PROBES];
            for (int i = 0; i < PROBES; i++) {
                probes[i] = keys.key(random.nextLong(KEYS));
                offsets[i] = random.nextInt(KEYS) * recordSize;
            }
            List<List<byte[]>> hundreds = new ArrayList<>();
            for (int i = 0; i + 100 <= PROBES; i += 100) {
                hundreds.add(List.of(probes).subList(i, i + 100));
            }
            double get = Double.MAX_VALUE;
            double crc = Double.MAX_VALUE;
            double gets100 = Double.MAX_VALUE;
            double getAll100 = Double.MAX_VALUE;
            double copy = Double.MAX_VALUE;
            byte[] value = new byte[valueSize];
            for (int round = 0; round < rounds + 2; round++) { // the first two warm up
                boolean counted = round >= 2;
                double g = perOp(PROBES * 4, i -> sink += db.get(probes[i & (PROBES - 1)]).length);
                double c = perOp(PROBES * 4, i -> {
                    CRC32C sum = new CRC32C();
                    sum.update(records.slice(offsets[i & (PROBES - 1)] + 4, recordSize - 4));
                    sink += sum.getValue();
                });
                double v = perOp(PROBES * 4, i -> {
                    records.get(offsets[i & (PROBES - 1)] + RECORD_HEADER + KEY_SIZE, value, 0, valueSize);
                    sink += value[0];
                });
                double g100 = perOp(hundreds.size() * 4, i -> {
                    for (byte[] k : hundreds.get(i % hundreds.size())) {
                        sink += db.get(k).length;
                    }
                });
                double a100 = perOp(hundreds.size() * 4, i -> {
                    for (byte[] found : db.getAll(hundreds.get(i % hundreds.size()))) {
                        sink += found.length;
                    }
                });
                if (counted) {
                    get = Math.min(get, g);
                    crc = Math.min(crc, c);
                    copy = Math.min(copy, v);
                    gets100 = Math.min(gets100, g100);
                    getAll100 = Math.min(getAll100, a100);
                }
            }
            System.out.printf("| %d | %.0f | %.0f | %.0f | %.0f%% | %.0f | %.0f |%n", valueSize, get, crc, copy,
                    100 * crc / get, gets100, getAll100);
        }
    }

    private interface Op {
        void run(int i) throws Exception;
    }

    /** CPU nanoseconds of this thread per call of {@code op}, over {@code n} calls. */
    private static double perOp(int n, Op op) throws Exception {
        long start = CPU.getCurrentThreadCpuTime();
        for (int i = 0; i < n; i++) {
            op.run(i);
        }
        return (CPU.getCurrentThreadCpuTime() - start) / (double) n;
    }
}
