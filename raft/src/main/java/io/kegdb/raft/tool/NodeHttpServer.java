package io.kegdb.raft.tool;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.alipay.sofa.jraft.entity.PeerId;
import io.kegdb.engine.meter.Meter;
import io.kegdb.engine.meter.PrometheusText;
import io.kegdb.raft.PeerList;
import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftNodeOptions;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A node's HTTP endpoints on the JDK's server, bound to exactly the address given: {@code GET /metrics}
 * (the node's meters as Prometheus text, each labelled with {@code group} and {@code node}) and
 * {@code GET /health} (200 with {@code ok: ...} when {@link NodeHealth} says so, else 503 with the reason).
 * Anything else is 404, and other methods 405. Plain HTTP: bind it to an address only monitoring reaches.
 */
final class NodeHttpServer implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeHttpServer.class);

    private final HttpServer server;
    private final ExecutorService threads;
    private final List<Meter> meters;
    private final Map<String, String> labels;
    private final NodeHealth health;
    private final MemberPoller poller;

    /** Every how many milliseconds the members are asked for their status (for the peers' lag). */
    static final long MEMBER_POLL_MS = 2000;

    /** Serves {@code node} (started with {@code options}) on {@code address}. */
    static NodeHttpServer serve(RaftNode node, RaftNodeOptions options, InetSocketAddress address) throws IOException {
        MemberPoller poller = new MemberPoller(node, MEMBER_POLL_MS);
        try {
            List<String> peers = new ArrayList<>();
            for (PeerId p : PeerList.parse(options.peers()).getPeers()) {
                peers.add(p.toString());
            }
            Map<String, String> labels = new LinkedHashMap<>();
            labels.put("group", options.group());
            labels.put("node", node.status().node());
            return new NodeHttpServer(address, NodeMeters.of(node, options.dir(), peers, poller), labels,
                    new NodeHealth(node::status), poller);
        } catch (IOException | RuntimeException e) {
            poller.close();
            throw e;
        }
    }

    private NodeHttpServer(InetSocketAddress address, List<Meter> meters, Map<String, String> labels,
                           NodeHealth health, MemberPoller poller) throws IOException {
        this.poller = poller;
        this.meters = meters;
        this.labels = labels;
        this.health = health;
        this.server = HttpServer.create(address, 16);
        this.threads = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "kegdb-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    /** The meters {@code /metrics} shows. */
    List<Meter> meters() {
        return meters;
    }

    /** The address it listens on (the port chosen when 0 was asked for). */
    InetSocketAddress address() {
        return server.getAddress();
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            if (!path.equals("/metrics") && !path.equals("/health")) {
                send(exchange, 404, "text/plain; charset=utf-8", "not found: try /metrics or /health\n");
                return;
            }
            if (!exchange.getRequestMethod().equals("GET") && !exchange.getRequestMethod().equals("HEAD")) {
                exchange.getResponseHeaders().add("Allow", "GET, HEAD");
                send(exchange, 405, "text/plain; charset=utf-8", "only GET\n");
                return;
            }
            if (path.equals("/metrics")) {
                StringBuilder text = new StringBuilder(8192);
                PrometheusText.write(meters, labels, text);
                send(exchange, 200, PrometheusText.CONTENT_TYPE, text.toString());
            } else {
                NodeHealth.Verdict v = health.check();
                send(exchange, v.healthy() ? 200 : 503, "text/plain; charset=utf-8", v.reason() + "\n");
            }
        } catch (RuntimeException e) {
            LOG.warn("answering {} failed", exchange.getRequestURI(), e);
        }
    }

    private static void send(HttpExchange exchange, int code, String type, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", type);
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(code, head ? -1 : bytes.length);
        if (!head) {
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(bytes);
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
        poller.close();
    }
}
