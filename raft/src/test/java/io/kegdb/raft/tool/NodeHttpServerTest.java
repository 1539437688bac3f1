package io.kegdb.raft.tool;

import io.kegdb.engine.Durability;
import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftNodeOptions;
import io.kegdb.raft.TestCluster;
import io.kegdb.raft.security.CertificateFiles;
import io.kegdb.raft.security.TlsFiles;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.management.JMException;
import javax.management.MBeanAttributeInfo;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.SSLSession;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.KeyStore;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.kegdb.raft.TestBytes.b;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A node's /health and /metrics while its group loses and regains its majority, over HTTPS with the node's TLS
 * files, and its meters as a JMX MBean.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class NodeHttpServerTest {

    @TempDir
    Path dir;

    private TestCluster cluster;
    private NodeMonitor monitor;
    private NodeHttpServer server;
    private HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @AfterEach
    void tearDown() {
        if (server != null) {
            server.close();
        }
        if (monitor != null) {
            monitor.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    private RaftNodeOptions options(int i, TlsFiles tls) {
        return RaftNodeOptions.builder().dir(dir.resolve("node-" + i)).group(TestCluster.GROUP)
                .self(cluster.addresses.get(i)).peers(cluster.peers()).tls(tls).build();
    }

    /** Watches node {@code i} of the cluster and serves it on a free port of 127.0.0.1. */
    private void serve(int i, TlsFiles tls) throws Exception {
        monitor = NodeMonitor.start(cluster.nodes.get(i), options(i, tls));
        server = NodeHttpServer.serve(monitor, tls, new InetSocketAddress("127.0.0.1", 0));
    }

    private HttpResponse<String> get(String path) throws Exception {
        return get(http, server.scheme(), path);
    }

    private HttpResponse<String> get(HttpClient client, String scheme, String path) throws Exception {
        URI uri = URI.create(scheme + "://127.0.0.1:" + server.address().getPort() + path);
        return client.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(10)).GET().build(),
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
        serve(0, null);
        assertEquals("http", server.scheme());

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

    @Test
    void httpsWithTheNodesCertificateAndNoPlainText() throws Exception {
        Path certs = dir.resolve("certs");
        CertificateFiles.writeCa(certs);
        CertificateFiles.writeNode(certs, "node0", List.of("127.0.0.1"));
        TlsFiles tls = new TlsFiles(certs.resolve("ca.crt"), certs.resolve("node0.crt"), certs.resolve("node0.key"));
        cluster = new TestCluster(dir, 3);
        cluster.tls = i -> tls;
        cluster.start(0);
        serve(0, tls);
        assertEquals("https", server.scheme());

        http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).sslContext(trusting(certs.resolve("ca.crt")))
                .build();
        HttpResponse<String> health = get("/health");
        assertEquals(503, health.statusCode(), health.body()); // alone in its group: no leader
        SSLSession session = health.sslSession().orElseThrow();
        assertEquals(CertificateFiles.readCertificate(certs.resolve("node0.crt")), session.getPeerCertificates()[0]);
        assertNull(session.getLocalCertificates(), "no client certificate is asked for");
        assertTrue(metrics().containsKey("kegdb_raft_term"));

        HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        IOException refused = assertThrows(IOException.class, () -> get(plain, "http", "/health"));
        assertFalse(refused instanceof HttpTimeoutException, "closed at once, not left waiting: " + refused);
        IOException untrusted = assertThrows(IOException.class, () -> get(plain, "https", "/health"));
        assertTrue(causes(untrusted, SSLHandshakeException.class), "a client without the cluster's CA: " + untrusted);

        // A rotated certificate reaches new connections without a restart.
        Path fresh = dir.resolve("fresh");
        Files.createDirectories(fresh);
        Files.copy(certs.resolve("ca.crt"), fresh.resolve("ca.crt"));
        Files.copy(certs.resolve("ca.key"), fresh.resolve("ca.key"));
        CertificateFiles.writeNode(fresh, "node0", List.of("127.0.0.1"));
        Files.move(fresh.resolve("node0.key"), certs.resolve("node0.key"), StandardCopyOption.REPLACE_EXISTING);
        Files.move(fresh.resolve("node0.crt"), certs.resolve("node0.crt"), StandardCopyOption.REPLACE_EXISTING);
        HttpClient another = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5))
                .sslContext(trusting(certs.resolve("ca.crt"))).build();
        assertEquals(CertificateFiles.readCertificate(certs.resolve("node0.crt")),
                get(another, "https", "/health").sslSession().orElseThrow().getPeerCertificates()[0]);
    }

    /** A client's TLS that trusts only the CA certificate in {@code ca}. */
    private static SSLContext trusting(Path ca) throws Exception {
        KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
        trust.load(null, null);
        trust.setCertificateEntry("ca", CertificateFiles.readCertificate(ca));
        TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext ssl = SSLContext.getInstance("TLS");
        ssl.init(null, tmf.getTrustManagers(), null);
        return ssl;
    }

    private static boolean causes(Throwable t, Class<? extends Throwable> type) {
        for (Throwable c = t; c != null; c = c.getCause()) {
            if (type.isInstance(c)) {
                return true;
            }
        }
        return false;
    }

    @Test
    void metersAreAnMBeanWhileTheNodeIsWatched() throws Exception {
        cluster = new TestCluster(dir, 3);
        RaftNode node = cluster.start(0);
        cluster.start(1);
        cluster.awaitLeader();
        String self = cluster.addresses.get(0);
        monitor = NodeMonitor.start(node, options(0, null));
        MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
        ObjectName name = new ObjectName("io.kegdb:type=RaftNode,group=\"" + TestCluster.GROUP + "\",peer=\""
                + self + "\"");
        assertEquals(name, monitor.mbeanName());
        assertTrue(jmx.isRegistered(name));

        node.put(b("k"), b("v"), Durability.SYNC);
        TestCluster.await(() -> attribute(jmx, name, "raft.applied.index") >= 2, "the write applied on node 0");
        assertTrue(attribute(jmx, name, "raft.term") >= 1);
        assertEquals(1, attribute(jmx, name, "raft.leader.known"));
        assertTrue(attribute(jmx, name, "raft.log.bytes") > 0);
        double roles = 0;
        int peers = 0;
        for (MBeanAttributeInfo a : jmx.getMBeanInfo(name).getAttributes()) {
            if (a.getName().startsWith("raft.role[role=")) {
                roles += attribute(jmx, name, a.getName());
            } else if (a.getName().startsWith("raft.peer.lag.entries[peer=")) {
                peers++;
            }
        }
        assertEquals(1, roles, "exactly one role");
        assertEquals(3, peers, "a lag per peer");
        TestCluster.await(() -> attribute(jmx, name, "raft.peer.reachable[peer=" + self + "]") == 1,
                "the poll reached node 0 itself");

        // A second watcher of the node (JMX refuses its MBean's name) watches it without an MBean, and
        // closing it leaves the first one's alone.
        try (NodeMonitor second = NodeMonitor.start(node, options(0, null))) {
            assertNull(second.mbeanName(), "one MBean per node");
            assertEquals(monitor.meters().size(), second.meters().size());
            double term = second.meters().stream().filter(m -> m.name().equals("kegdb.raft.term")).findFirst()
                    .orElseThrow().read();
            assertTrue(term >= 1, "its meters read the node: term " + term);
        }
        assertTrue(jmx.isRegistered(name), "the first watcher's MBean stays");
        monitor.close();
        monitor = null;
        assertFalse(jmx.isRegistered(name), "gone when the node is no longer watched");
    }

    private static double attribute(MBeanServer jmx, ObjectName name, String attribute) {
        try {
            return (Double) jmx.getAttribute(name, attribute);
        } catch (JMException e) {
            throw new AssertionError(attribute + " of " + name, e);
        }
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
