package io.kegdb.bench.cluster;

import io.kegdb.bench.ScratchDirectory;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * How long a node's {@code GET /metrics} takes to answer when its group holds many tables: a one-node group run
 * as {@code kegdb node ... --http} in a child JVM (this one's class path), N tables created and written through
 * the thin JDBC client, then timed requests after untimed ones, as a scraper sends them (one at a time, a new
 * HTTP/1.1 request each). Prints the median, 95th percentile and slowest answer, and the answer's size.
 *
 * <p>Usage: {@code NodeMetricsBench [tables = 100] [requests = 200] [dir = tmp]}.
 */
public final class NodeMetricsBench {

    private static final String GROUP = "kegdb-metrics-bench";
    private static final int UNTIMED = 20;

    private NodeMetricsBench() {
    }

    public static void main(String[] args) throws Exception {
        int tables = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        int requests = args.length > 1 ? Integer.parseInt(args[1]) : 200;
        Path root = args.length > 2 ? Path.of(args[2]) : Files.createTempDirectory("kegdb-metrics-bench");
        String self = "127.0.0.1:" + freePort();
        int httpPort = freePort();
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process node = new ProcessBuilder(java.toString(), "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp",
                System.getProperty("java.class.path"),
                "io.kegdb.raft.tool.NodeMain", "--dir", root.resolve("node").toString(), "--group", GROUP,
                "--self", self, "--peers", self, "--http", "127.0.0.1:" + httpPort)
                .redirectErrorStream(true).redirectOutput(root.resolve("node.log").toFile()).start();
        try {
            // HTTP/1.1 as Prometheus asks (the client's default would first offer an upgrade to HTTP/2 on each request).
            HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                    .connectTimeout(Duration.ofSeconds(5)).build();
            URI health = URI.create("http://127.0.0.1:" + httpPort + "/health");
            URI metrics = URI.create("http://127.0.0.1:" + httpPort + "/metrics");
            awaitHealthy(http, health, node);
            try (Connection c = DriverManager.getConnection("jdbc:kegdb:raft://" + self + "/" + GROUP);
                 Statement s = c.createStatement()) {
                for (int t = 0; t < tables; t++) {
                    s.executeUpdate("CREATE TABLE T" + t + " (K BIGINT PRIMARY KEY, V VARCHAR)");
                    s.executeUpdate("INSERT INTO T" + t + " VALUES (1, 'one'), (2, 'two')");
                }
            }
            String body = "";
            for (int i = 0; i < UNTIMED; i++) {
                body = get(http, metrics);
            }
            double[] millis = new double[requests];
            for (int i = 0; i < requests; i++) {
                long start = System.nanoTime();
                body = get(http, metrics);
                millis[i] = (System.nanoTime() - start) / 1e6;
            }
            Arrays.sort(millis);
            System.out.printf(Locale.ROOT, "GET /metrics of a one-node group with %d tables, %d requests after %d"
                            + " untimed: median %.1f ms, p95 %.1f ms, slowest %.1f ms; %d lines, %d bytes%n",
                    tables, requests, UNTIMED, millis[requests / 2], millis[(int) Math.ceil(requests * 0.95) - 1],
                    millis[requests - 1], body.lines().count(), body.length());
        } finally {
            node.destroy(); // SIGTERM: the node leaves cleanly
            if (!node.waitFor(30, TimeUnit.SECONDS)) {
                node.destroyForcibly();
            }
            ScratchDirectory.deleteTree(root);
        }
    }

    private static String get(HttpClient http, URI uri) throws IOException, InterruptedException {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        if (r.statusCode() != 200) {
            throw new IllegalStateException(uri + " answered " + r.statusCode() + ": " + r.body());
        }
        return r.body();
    }

    /** Waits up to a minute for the node to answer /health with 200 (it has elected itself and applied its log). */
    private static void awaitHealthy(HttpClient http, URI health, Process node) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!node.isAlive()) {
                throw new IllegalStateException("the node exited with " + node.exitValue());
            }
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(health).timeout(Duration.ofSeconds(5))
                        .GET().build(), HttpResponse.BodyHandlers.ofString());
                if (r.statusCode() == 200) {
                    return;
                }
                last = r.statusCode() + " " + r.body();
            } catch (IOException notYet) {
                last = notYet.toString();
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the node did not become healthy: " + last);
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
