package io.kegdb.raft.tool;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.kegdb.engine.meter.Meter;
import io.kegdb.engine.meter.PrometheusText;
import io.kegdb.raft.security.HttpsServerContext;
import io.kegdb.raft.security.TlsFiles;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A node's HTTP endpoints on the JDK's server, bound to exactly the address given: {@code GET /metrics}
 * (the node's meters as Prometheus text, each labelled with {@code group} and {@code node}) and
 * {@code GET /health} (200 with {@code ok: ...} when {@link NodeHealth} says so, else 503 with the reason),
 * both from the node's {@link NodeMonitor}. Anything else is 404, and other methods 405. With the node's TLS
 * files it is HTTPS only, with the node's certificate ({@link HttpsServerContext}) and no client certificate
 * asked for; without them plain HTTP: bind it to an address only monitoring reaches.
 */
final class NodeHttpServer implements AutoCloseable {

    /** The JDK server's switch for TCP_NODELAY on its connections. */
    private static final String NODELAY = "sun.net.httpserver.nodelay";
    private static final Logger LOG = LoggerFactory.getLogger(NodeHttpServer.class);

    private final HttpServer server;
    private final ExecutorService threads;
    private final List<Meter> meters;
    private final Map<String, String> labels;
    private final NodeHealth health;

    /**
     * Serves what {@code monitor} shows on {@code address}: over HTTPS with {@code tls} (the node's files),
     * over plain HTTP when it is null.
     */
    static NodeHttpServer serve(NodeMonitor monitor, TlsFiles tls, InetSocketAddress address) throws IOException {
        // The JDK's server writes a response's headers and its body apart; without TCP_NODELAY the body waits
        // for the client's delayed ACK of the headers (40 ms on Linux) on every request of a kept-alive
        // connection, which is how Prometheus scrapes. Read once, when the first server of the JVM is made.
        if (System.getProperty(NODELAY) == null) {
            System.setProperty(NODELAY, "true");
        }
        HttpServer server;
        if (tls == null) {
            server = HttpServer.create(address, 16);
        } else {
            HttpsServer https = HttpsServer.create(address, 16);
            https.setHttpsConfigurator(new HttpsConfigurator(HttpsServerContext.of(tls)));
            server = https;
        }
        return new NodeHttpServer(server, monitor);
    }

    private NodeHttpServer(HttpServer server, NodeMonitor monitor) {
        this.meters = monitor.meters();
        this.labels = monitor.labels();
        this.health = monitor.health();
        this.server = server;
        this.threads = Executors.newFixedThreadPool(2, r -> {
            Thread t = new Thread(r, "kegdb-http");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(threads);
        server.createContext("/", this::handle);
        server.start();
    }

    /** {@code https} or {@code http}. */
    String scheme() {
        return server instanceof HttpsServer ? "https" : "http";
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
    }
}
