package io.kegdb.bench.cluster;

import io.kegdb.bench.ScratchDirectory;
import io.kegdb.raft.security.TlsFiles;
import io.kegdb.raft.storage.KegRaftServiceFactory;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What TLS costs a cluster: {@link ClusterBench}'s puts and linearizable gets on three nodes in this JVM (Raft
 * log in Bitcask), once in plain text and once with TLS on every connection (node certificates of a CA made
 * here, the client with a client certificate), alternating over three rounds after a warm-up, then the
 * medians and their ratio. Prints Markdown tables.
 *
 * <p>Usage: {@code TlsClusterBench [seconds per phase = 10] [threads = 32] [value bytes = 100] [dir = tmp]}.
 */
public final class TlsClusterBench {

    private static final int ROUNDS = 3;
    private static final String PLAIN = "plain text";
    private static final String TLS = "TLS (node and client certificates)";

    private TlsClusterBench() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int threads = args.length > 1 ? Integer.parseInt(args[1]) : 32;
        int valueBytes = args.length > 2 ? Integer.parseInt(args[2]) : 100;
        Path root = args.length > 3 ? Path.of(args[3]) : Files.createTempDirectory("kegdb-tls-bench");
        BenchCertificates certs = BenchCertificates.write(root.resolve("certs"));
        TlsFiles node = certs.node();
        TlsFiles client = certs.client();

        ClusterBench.run("warm-up", new KegRaftServiceFactory(), node, client, root.resolve("warm-up"), seconds,
                threads, valueBytes);
        List<ClusterBench.Result> results = new ArrayList<>();
        for (int round = 1; round <= ROUNDS; round++) {
            boolean tlsFirst = round % 2 == 0; // a cluster running later in a round tends to run faster
            for (int k = 0; k < 2; k++) {
                boolean tls = tlsFirst == (k == 0);
                String label = (tls ? TLS : PLAIN) + ", round " + round;
                System.err.println(label);
                results.addAll(ClusterBench.run(label, new KegRaftServiceFactory(), tls ? node : null,
                        tls ? client : null, root.resolve((tls ? "tls-" : "plain-") + round), seconds, threads,
                        valueBytes));
            }
        }
        System.out.printf(Locale.ROOT, "3 nodes on 127.0.0.1 in one JVM, Raft log in Bitcask with fsync, %d client"
                + " threads on one thin client, %d-byte values, %d s per phase%n%n", threads, valueBytes, seconds);
        System.out.println("| connections | operation | ops/s | p50 (µs) | p99 (µs) | errors |");
        System.out.println("|---|---|---:|---:|---:|---:|");
        for (ClusterBench.Result r : results) {
            System.out.printf(Locale.ROOT, "| %s | %s | %,.0f | %,.0f | %,.0f | %d |%n", r.log(), r.op(),
                    r.perSecond(), r.p50(), r.p99(), r.errors());
        }
        System.out.println();
        System.out.println("| operation | median plain text | median TLS | TLS / plain |");
        System.out.println("|---|---:|---:|---:|");
        for (String op : new String[]{"put", "get (linearizable)"}) {
            double plain = ClusterBench.median(results, PLAIN, op);
            double tls = ClusterBench.median(results, TLS, op);
            System.out.printf(Locale.ROOT, "| %s | %,.0f | %,.0f | %.2f× |%n", op, plain, tls, tls / plain);
        }
        ScratchDirectory.deleteTree(root);
    }
}
