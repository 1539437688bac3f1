package io.kegdb.tests.cluster;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cluster of {@code ./kegdb node} processes for the multi-process tests, on the loopback interface
 * ({@link #onLoopback}) or each node in its own network namespace ({@link #inNamespaces}, see
 * {@link NetworkNamespaces}), where a node can also be cut off and the group split. Nodes are started,
 * killed ({@code SIGKILL}), paused ({@code SIGSTOP}/{@code SIGCONT}) and restarted by index; node {@code i}
 * keeps its data in {@code DIR/node-i} and its output in {@code DIR/node-i.log}. {@link #close} stops every
 * process and removes the namespaces.
 */
public final class NodeCluster implements AutoCloseable {

    /** The repository root, where the {@code kegdb} launcher is. */
    public static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
    private static final int RAFT_PORT = 7000;
    private static final int HTTP_PORT = 7001;
    /** In a node's {@code GET /metrics}: the role gauge that is 1, and the term. */
    private static final Pattern ROLE = Pattern.compile("^kegdb_raft_role\\{[^}]*role=\"(\\w+)\"[^}]*} 1(?:\\.0)?$",
            Pattern.MULTILINE);
    private static final Pattern TERM = Pattern.compile("^kegdb_raft_term(?:\\{[^}]*})? ([0-9.eE+]+)$", Pattern.MULTILINE);

    private final Path dir;
    private final String group;
    private final List<String> nodes;
    private final NetworkNamespaces net; // null on loopback
    private final List<Process> processes = new ArrayList<>();
    private IntFunction<List<String>> nodeOptions = i -> List.of();
    private HttpClient http;

    private NodeCluster(Path dir, String group, List<String> nodes, NetworkNamespaces net) {
        this.dir = dir;
        this.group = group;
        this.nodes = List.copyOf(nodes);
        this.net = net;
        for (int i = 0; i < nodes.size(); i++) {
            processes.add(null);
        }
    }

    /** {@code size} nodes on 127.0.0.1, each on a free port; none started yet. */
    public static NodeCluster onLoopback(Path dir, String group, int size) throws IOException {
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            nodes.add("127.0.0.1:" + LoopbackPorts.free());
        }
        return new NodeCluster(dir, group, nodes, null);
    }

    /**
     * {@code size} nodes, each in its own network namespace, serving {@code GET /metrics} too ({@link #role});
     * none started yet. Skips the test (a JUnit assumption naming the reason) where namespaces cannot be made.
     */
    public static NodeCluster inNamespaces(Path dir, String group, int size) throws IOException {
        Optional<String> unusable = NetworkNamespaces.unusable();
        Assumptions.assumeTrue(unusable.isEmpty(), unusable::get);
        NetworkNamespaces net = NetworkNamespaces.create(size);
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < size; i++) {
            nodes.add(net.address(i) + ":" + RAFT_PORT);
        }
        return new NodeCluster(dir, group, nodes, net);
    }

    /** Extra {@code ./kegdb node} options for node {@code i} (TLS files), for the nodes started from now on. */
    public NodeCluster nodeOptions(IntFunction<List<String>> options) {
        this.nodeOptions = options;
        return this;
    }

    /**
     * TLS for every node started from now on: a CA and a certificate per node made by {@code ./kegdb cert} in
     * {@code certs} ({@code ca.crt}, {@code node<i>.crt} and {@code .key}, naming 127.0.0.1; loopback only),
     * and with {@code adminPasswordFile} (or null) the first admin's password, so the cluster has users.
     */
    public NodeCluster withTls(Path certs, Path adminPasswordFile) throws Exception {
        if (net != null) {
            throw new IllegalStateException("the certificates name 127.0.0.1 only");
        }
        Path log = dir.resolve("cert.log");
        cert(log, "ca", "--dir", certs.toString());
        for (int i = 0; i < nodes.size(); i++) {
            cert(log, "node", "--dir", certs.toString(), "--name", "node" + i);
        }
        return nodeOptions(i -> {
            List<String> options = new ArrayList<>(List.of("--tls-ca", certs.resolve("ca.crt").toString(),
                    "--tls-cert", certs.resolve("node" + i + ".crt").toString(),
                    "--tls-key", certs.resolve("node" + i + ".key").toString()));
            if (adminPasswordFile != null) {
                options.addAll(List.of("--admin-password-file", adminPasswordFile.toString()));
            }
            return options;
        });
    }

    /** {@code ./kegdb cert ARGS...}, its output appended to {@code log}; fails unless it exits 0. */
    public static void cert(Path log, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("cert"));
        all.addAll(List.of(args));
        Process p = launcher(all, log).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "kegdb cert " + String.join(" ", args));
        assertEquals(0, p.exitValue(), java.nio.file.Files.readString(log));
    }

    public List<String> nodes() {
        return nodes;
    }

    public int size() {
        return nodes.size();
    }

    public int indexOf(String node) {
        int i = nodes.indexOf(node);
        if (i < 0) {
            throw new IllegalArgumentException(node + " is not one of " + nodes);
        }
        return i;
    }

    /** {@code jdbc:kegdb:raft://NODES/GROUP}, then {@code ?query} unless it is empty. */
    public String url(String query) {
        return "jdbc:kegdb:raft://" + String.join(",", nodes) + "/" + group + (query.isEmpty() ? "" : "?" + query);
    }

    /** A thin-client URL for one node alone. */
    public String url(int i, String query) {
        return "jdbc:kegdb:raft://" + nodes.get(i) + "/" + group + (query.isEmpty() ? "" : "?" + query);
    }

    /** Node {@code i}'s directory (its Raft log is under it). */
    public Path nodeDir(int i) {
        return dir.resolve("node-" + i);
    }

    public void startAll() throws IOException {
        for (int i = 0; i < nodes.size(); i++) {
            start(i);
        }
    }

    /** Starts (or restarts, on its data) node {@code i}. */
    public void start(int i) throws IOException {
        List<String> args = new ArrayList<>(List.of("node", "--dir", nodeDir(i).toString(), "--group", group,
                "--self", nodes.get(i), "--peers", String.join(",", nodes)));
        if (net != null) {
            args.addAll(List.of("--http", net.address(i) + ":" + HTTP_PORT));
        }
        args.addAll(nodeOptions.apply(i));
        List<String> command = launcherCommand(args);
        ProcessBuilder pb = logged(net == null ? command : net.inside(i, command), dir.resolve("node-" + i + ".log"));
        processes.set(i, pb.start());
    }

    /** {@code kill -9} of node {@code i}, waiting for it to be gone. */
    public void kill(int i) throws InterruptedException {
        Process p = processes.get(i);
        if (p != null) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    /** {@code SIGSTOP}: the node's JVM stops where it is, connections open ({@code ./kegdb node} execs the JVM). */
    public void pause(int i) throws Exception {
        signal(processes.get(i), "STOP");
    }

    /** {@code SIGCONT} after {@link #pause}. */
    public void resume(int i) throws Exception {
        signal(processes.get(i), "CONT");
    }

    /** Node {@code i} is cut off the network (namespaces only). */
    public void cutOff(int i) throws IOException {
        namespaces().cutOff(i);
    }

    public void reconnect(int i) throws IOException {
        namespaces().reconnect(i);
    }

    /** The nodes of {@code side} and the others can no longer reach each other; clients reach all (namespaces only). */
    public void split(Collection<Integer> side) throws IOException {
        namespaces().split(side);
    }

    public void heal() throws IOException {
        namespaces().heal();
    }

    /**
     * Node {@code i}'s role and term as its {@code GET /metrics} says, asked directly (namespaces only); empty
     * when it does not answer within {@code timeout}.
     */
    public Optional<Role> role(int i, Duration timeout) {
        namespaces();
        synchronized (this) {
            if (http == null) {
                http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                        .connectTimeout(Duration.ofSeconds(1)).build();
            }
        }
        HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + nodes.get(i).replace(":" + RAFT_PORT,
                ":" + HTTP_PORT) + "/metrics")).timeout(timeout).GET().build();
        try {
            String metrics = http.send(request, HttpResponse.BodyHandlers.ofString()).body();
            Matcher role = ROLE.matcher(metrics);
            Matcher term = TERM.matcher(metrics);
            if (!role.find() || !term.find()) {
                throw new AssertionError("no role or term in the metrics of " + nodes.get(i) + ":\n" + metrics);
            }
            return Optional.of(new Role(role.group(1).toUpperCase(Locale.ROOT), (long) Double.parseDouble(term.group(1))));
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /** A node's role (LEADER, FOLLOWER, ...) in a term. */
    public record Role(String role, long term) {
        public boolean leads() {
            return role.equals("LEADER");
        }
    }

    /** Stops every node ({@code kill -9}, after {@code SIGCONT} for a paused one), leaving the data. */
    public void stopAll() throws Exception {
        for (Process p : processes) {
            if (p != null && p.isAlive()) {
                signal(p, "CONT");
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Stops every node and removes the namespaces and the bridge. */
    @Override
    public void close() throws Exception {
        try {
            stopAll();
        } finally {
            if (net != null) {
                net.close();
            }
        }
    }

    private NetworkNamespaces namespaces() {
        if (net == null) {
            throw new IllegalStateException("network faults need a cluster in namespaces");
        }
        return net;
    }

    /** {@code bash ROOT/kegdb ARGS...}. */
    private static List<String> launcherCommand(List<String> args) {
        List<String> command = new ArrayList<>(List.of("bash", ROOT.resolve("kegdb").toString()));
        command.addAll(args);
        return command;
    }

    /** The launcher run with {@code args} ({@code cert ...}), its output appended to {@code log}. */
    public static ProcessBuilder launcher(List<String> args, Path log) {
        return logged(launcherCommand(args), log);
    }

    private static ProcessBuilder logged(List<String> command, Path log) {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().put("KEGDB_SKIP_BUILD", "1"); // the reactor built the driver jar before this module
        pb.environment().put("KEGDB_JAVA_OPTS", "-Xmx256m");
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        return pb;
    }

    private static void signal(Process p, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(p.pid())).inheritIO().start();
        if (!kill.waitFor(10, TimeUnit.SECONDS)) {
            kill.destroyForcibly();
        }
        assertEquals(0, kill.exitValue(), "kill -" + signal + " " + p.pid());
    }
}
