package io.kegdb.bench.cluster;

import com.alipay.sofa.jraft.JRaftServiceFactory;
import com.alipay.sofa.jraft.core.DefaultJRaftServiceFactory;
import io.kegdb.bench.ScratchDirectory;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import io.kegdb.raft.RaftGroupClient;
import io.kegdb.raft.ReadConsistency;
import io.kegdb.raft.security.TlsFiles;
import io.kegdb.raft.storage.KegRaftServiceFactory;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Three Raft nodes on loopback in this JVM and a thin client shared by N threads: puts of 100-byte values,
 * then linearizable (read index) gets of the written keys; throughput and p50/p99 latency, with the Raft log
 * in Bitcask ({@link KegRaftServiceFactory}), in RocksDB (SOFAJRaft's default) and, as yardsticks, in memory
 * ({@link MemoryLogStorage}) with only one fdatasync per append (the least a durable log does) and with
 * nothing written (what the cluster does when its log costs nothing), all in the same run. After a warm-up
 * cluster, three rounds in which they take turns in a rotating order (a cluster running later in a round
 * tends to run faster), then the median of each. Prints Markdown tables.
 *
 * <p>Usage: {@code ClusterBench [seconds per phase = 10] [threads = 32] [value bytes = 100] [dir = tmp]}.
 */
public final class ClusterBench {

    private static final String GROUP = "kegdb-bench";
    private static final int KEY_SPACE = 100_000;
    private static final int ROUNDS = 3;

    private ClusterBench() {
    }

    record Result(String log, String op, double perSecond, double p50, double p99, long errors, double cpuMicros) {
    }

    private enum Log {
        BITCASK("Bitcask (KegRaftServiceFactory)", KegRaftServiceFactory::new),
        ROCKSDB("RocksDB (RocksDBLogStorage)", DefaultJRaftServiceFactory::new),
        FSYNC_FLOOR("in memory + one fdatasync per append (durable floor, yardstick)",
                () -> new MemoryLogStorage.Factory(true)),
        FREE("in memory, not durable (yardstick)", () -> new MemoryLogStorage.Factory(false));

        final String label;
        private final Supplier<JRaftServiceFactory> factory;

        Log(String label, Supplier<JRaftServiceFactory> factory) {
            this.label = label;
            this.factory = factory;
        }

        JRaftServiceFactory factory() {
            return factory.get();
        }
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 32;
        int valueBytes = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        Path root = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("kegdb-cluster-bench");
        Files.createDirectories(root);

        // A throwaway cluster warms the JIT with full-length phases first.
        run("warm-up", Log.BITCASK.factory(), root.resolve("warm-up"), seconds, threads, valueBytes);
        List<Result> results = new ArrayList<>();
        Log[] logs = Log.values();
        for (int round = 1; round <= ROUNDS; round++) {
            for (int k = 0; k < logs.length; k++) {
                Log log = logs[(k + round - 1) % logs.length];
                System.err.printf("round %d: %s%n", round, log.label);
                results.addAll(run(log.label + ", round " + round, log.factory(),
                        root.resolve(log.name().toLowerCase(Locale.ROOT) + "-" + round), seconds, threads, valueBytes));
            }
        }

        System.out.printf(Locale.ROOT, "3 nodes on 127.0.0.1 in one JVM, %d client threads on one thin client, "
                + "%d-byte values, %d s per phase, log fsync on (except the free yardstick)%n%n",
                threads, valueBytes, seconds);
        System.out.println("| Raft log | operation | ops/s | p50 (µs) | p99 (µs) | errors | CPU µs/op |");
        System.out.println("|---|---|---:|---:|---:|---:|---:|");
        for (Result r : results) {
            System.out.printf(Locale.ROOT, "| %s | %s | %,.0f | %,.0f | %,.0f | %d | %.1f |%n", r.log(), r.op(),
                    r.perSecond(), r.p50(), r.p99(), r.errors(), r.cpuMicros());
        }
        System.out.println();
        System.out.println("| Raft log | median puts/s | median linearizable gets/s | puts / RocksDB's "
                + "| CPU µs per put | CPU µs per get |");
        System.out.println("|---|---:|---:|---:|---:|---:|");
        double rocksPuts = median(results, Log.ROCKSDB, "put");
        for (Log log : logs) {
            double puts = median(results, log, "put");
            System.out.printf(Locale.ROOT, "| %s | %,.0f | %,.0f | %.2f× | %.1f | %.1f |%n", log.label, puts,
                    median(results, log, "get (linearizable)"), puts / rocksPuts,
                    medianCpu(results, log.label, "put"), medianCpu(results, log.label, "get (linearizable)"));
        }
        ScratchDirectory.deleteTree(root);
    }

    static double median(List<Result> results, String labelPrefix, String op) {
        double[] values = results.stream().filter(r -> r.log().startsWith(labelPrefix + ",") && r.op().equals(op))
                .mapToDouble(Result::perSecond).sorted().toArray();
        return values.length == 0 ? Double.NaN : values[values.length / 2];
    }

    static double medianCpu(List<Result> results, String labelPrefix, String op) {
        double[] values = results.stream().filter(r -> r.log().startsWith(labelPrefix + ",") && r.op().equals(op))
                .mapToDouble(Result::cpuMicros).sorted().toArray();
        return values.length == 0 ? Double.NaN : values[values.length / 2];
    }

    private static double median(List<Result> results, Log log, String op) {
        return median(results, log.label, op);
    }

    private static List<Result> run(String label, JRaftServiceFactory factory, Path dir, int seconds, int threads,
                                    int valueBytes) throws Exception {
        return run(label, factory, null, null, dir, seconds, threads, valueBytes);
    }

    /**
     * One cluster's put and get phases; with {@code nodeTls} every node uses those files and the client
     * {@code clientTls}.
     */
    static List<Result> run(String label, JRaftServiceFactory factory, TlsFiles nodeTls, TlsFiles clientTls, Path dir,
                            int seconds, int threads, int valueBytes) throws Exception {
        try (LocalCluster cluster = LocalCluster.start(dir, GROUP,
                b -> b.electionTimeoutMs(1000).serviceFactory(factory).tls(nodeTls));
             KvStore client = RaftGroupClient.connect(GROUP, cluster.peers(), Duration.ofSeconds(30),
                     ReadConsistency.LINEARIZABLE, clientTls)) {
            byte[] value = new byte[valueBytes];
            ThreadLocalRandom.current().nextBytes(value);
            client.put(key(0), value, Durability.SYNC); // waits for a leader
            phase(client, threads, 2, true, value); // fills the connection pools and caches
            Result puts = phase(client, threads, seconds, true, value).as(label, "put");
            Result gets = phase(client, threads, seconds, false, value).as(label, "get (linearizable)");
            return List.of(puts, gets);
        }
    }

    private record Measured(double perSecond, double p50, double p99, long errors, double cpuMicros) {
        Result as(String label, String op) {
            return new Result(label, op, perSecond, p50, p99, errors, cpuMicros);
        }
    }

    /**
     * CPU time of this whole process (the three nodes and the client). It moves less than the rates when other
     * processes take the cores (contention still inflates it), so a change to the request path is compared on
     * both.
     */
    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static Measured phase(KvStore client, int threads, int seconds, boolean puts, byte[] value)
            throws InterruptedException {
        Latencies[] latencies = new Latencies[threads];
        AtomicLong errors = new AtomicLong();
        CountDownLatch done = new CountDownLatch(threads);
        long cpuStart = processCpuNanos();
        long start = System.nanoTime();
        long end = start + TimeUnit.SECONDS.toNanos(seconds);
        for (int t = 0; t < threads; t++) {
            Latencies mine = latencies[t] = new Latencies();
            Thread th = new Thread(() -> {
                ThreadLocalRandom random = ThreadLocalRandom.current();
                try {
                    while (System.nanoTime() < end) {
                        byte[] k = key(random.nextInt(KEY_SPACE));
                        long t0 = System.nanoTime();
                        try {
                            if (puts) {
                                client.put(k, value, Durability.SYNC);
                            } else {
                                client.get(k);
                            }
                            mine.add(System.nanoTime() - t0);
                        } catch (RuntimeException e) {
                            errors.incrementAndGet();
                        }
                    }
                } finally {
                    done.countDown();
                }
            }, "bench-client-" + t);
            th.start();
        }
        done.await();
        double elapsed = (System.nanoTime() - start) / 1e9;
        double cpuMicros = (processCpuNanos() - cpuStart) / 1e3;
        long[] all = Latencies.merged(latencies);
        return new Measured(all.length / elapsed, Latencies.percentileMicros(all, 50),
                Latencies.percentileMicros(all, 99), errors.get(), cpuMicros / Math.max(1, all.length));
    }

    private static byte[] key(int i) {
        return String.format("key%08d", i).getBytes(StandardCharsets.US_ASCII);
    }
}
