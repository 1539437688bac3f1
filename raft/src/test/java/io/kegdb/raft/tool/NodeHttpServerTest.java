package io.kegdb.raft.tool;

import io.kegdb.engine.Durability;
import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftNodeOptions;
import io.kegdb.raft.TestCluster;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.kegdb.raft.TestBytes.b;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A node's /health and /metrics while its group loses and regains its majority. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NodeHttpServerTest {

    @TempDir
    Path dir;

    private TestCluster cluster;
    private NodeHttpServer server;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void tearDown() {
        if (server != null) {
            server.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private HttpResponse<String> get(String path) throws Exception {
        URI uri = URI.create("http://127.0.0.1:" + server.address().getPort() + path);
        return http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private void awaitHealth(int status) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        HttpResponse<String> r = get("/health");
        while (r.statusCode() != status) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("health stayed " + r.statusCode() + " " + r.body() + "\n" + cluster.running());
            }
            Thread.sleep(50);
            r = get("/health");
        }
    }

    private Map<String, PrometheusTextParser.Family> metrics() throws Exception {
        HttpResponse<String> r = get("/metrics");
        assertEquals(200, r.statusCode());
        assertTrue(r.headers().firstValue("Content-Type").orElse("").startsWith("text/plain; version=0.0.4"));
        return PrometheusTextParser.parse(r.body());
    }

    @Test
    void healthFollowsTheMajorityAndMetricsParse() throws Exception {
        cluster = new TestCluster(dir, 3);
        RaftNode node = cluster.start(0);
        RaftNodeOptions options = RaftNodeOptions.builder().dir(dir.resolve("node-0")).group(TestCluster.GROUP)
                .self(cluster.addresses.get(0)).peers(cluster.peers()).build();
        server = NodeHttpServer.serve(node, options, new InetSocketAddress("127.0.0.1", 0));

        HttpResponse<String> alone = get("/health");
        assertEquals(503, alone.statusCode(), alone.body());
        assertTrue(alone.body().startsWith("no leader known"), alone.body());

        cluster.start(1);
        cluster.awaitLeader();
        awaitHealth(200);
        assertTrue(get("/health").body().startsWith("ok: "));

        node.put(b("k"), b("v"), Durability.SYNC);
        Map<String, String> self = Map.of("group", TestCluster.GROUP, "node", cluster.addresses.get(0));
        // The write returned once applied on the leader; this node may be a follower that applies it a moment later.
        Map<String, PrometheusTextParser.Family> m = metrics();
        long applying = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (m.get("kegdb_raft_applied_index").sample("kegdb_raft_applied_index", self).value() < 2
                && System.nanoTime() < applying) {
            Thread.sleep(20);
            m = metrics();
        }
        assertEquals("gauge", m.get("kegdb_raft_term").type());
        assertTrue(m.get("kegdb_raft_term").sample("kegdb_raft_term", self).value() >= 1);
        double applied = m.get("kegdb_raft_applied_index").sample("kegdb_raft_applied_index", self).value();
        assertTrue(applied >= 2, "the configuration entry and the write: " + applied);
        assertTrue(m.get("kegdb_raft_log_bytes").sample("kegdb_raft_log_bytes", self).value() > 0);
        double roles = 0;
        for (PrometheusTextParser.Sample s : m.get("kegdb_raft_role").samples()) {
            roles += s.value();
        }
        assertEquals(1, roles, "exactly one role");
        assertEquals(1, m.get("kegdb_raft_leader_known").samples().get(0).value());
        assertEquals(3, m.get("kegdb_raft_peer_lag_entries").samples().size());
        assertEquals(3, m.get("kegdb_raft_peer_reachable").samples().size());
        // The poller's next round sees the two running nodes answer and the third not.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && reachable(metrics()) != 2) {
            Thread.sleep(100);
        }
        Map<String, PrometheusTextParser.Family> polled = metrics();
        assertEquals(2, reachable(polled));
        PrometheusTextParser.Family lag = polled.get("kegdb_raft_peer_lag_entries");
        assertTrue(Double.isNaN(lag.sample("kegdb_raft_peer_lag_entries", Map.of("peer", cluster.addresses.get(2))).value()));
        double selfLag = lag.sample("kegdb_raft_peer_lag_entries", Map.of("peer", cluster.addresses.get(0))).value();
        assertTrue(selfLag >= 0, "a running peer's lag is a number: " + selfLag);

        cluster.stop(1);
        awaitHealth(503);
        cluster.start(1);
        awaitHealth(200);

        assertEquals(404, get("/nothing").statusCode());
        assertThrows(IllegalArgumentException.class, () -> NodeMain.address("no-port"));
    }

    private static double reachable(Map<String, PrometheusTextParser.Family> m) {
        double n = 0;
        for (PrometheusTextParser.Sample s : m.get("kegdb_raft_peer_reachable").samples()) {
            n += s.value();
        }
        return n;
    }

    @Test
    void theParserRefusesWhatTheFormatDoesNotAllow() {
        assertThrows(IllegalArgumentException.class, () -> PrometheusTextParser.parse("x 1\n"));
        assertThrows(IllegalArgumentException.class, () -> PrometheusTextParser.parse("# TYPE x gauge\nx{a=\"\\q\"} 1\n"));
        assertThrows(IllegalArgumentException.class, () -> PrometheusTextParser.parse("# TYPE x gauge\nx one\n"));
        assertThrows(IllegalArgumentException.class, () -> PrometheusTextParser.parse(
                "# TYPE h histogram\nh_bucket{le=\"1\"} 2\nh_bucket{le=\"+Inf\"} 1\nh_sum 1\nh_count 1\n"));
        assertEquals(1, PrometheusTextParser.parse("# TYPE x gauge\nx{a=\"b\\\"c\"} NaN\n").get("x").samples().size());
    }
}
