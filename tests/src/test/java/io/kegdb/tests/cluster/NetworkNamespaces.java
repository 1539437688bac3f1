package io.kegdb.tests.cluster;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A private network for node processes, made with {@code ip}: one Linux bridge in the root namespace holding
 * {@code 10.231.X.1/24}, and per node a network namespace joined to the bridge by a veth pair, with the address
 * {@code 10.231.X.(11+i)}. The test JVM stays in the root namespace and reaches every node through the bridge.
 * Faults: a node cut off (its veth down) and a split (blackhole routes inside each namespace to the other
 * side's addresses), both undone by {@link #reconnect} and {@link #heal}.
 * <p>
 * Every name carries the prefix {@value #PREFIX} and the owning JVM's process id, so that concurrent runs do
 * not touch each other's and a run removes what a dead run left behind ({@link #removeLeftovers}). Every
 * {@code ip} command is bounded by a timeout. Needs root and iproute2; {@link #unusable} says why not.
 */
final class NetworkNamespaces implements AutoCloseable {

    static final String PREFIX = "kgn";
    private static final Pattern OWNED = Pattern.compile(PREFIX + "(\\d+)[bv-]");
    private static final long COMMAND_SECONDS = 15;

    private final long owner = ProcessHandle.current().pid();
    private final int subnet;
    private final int size;
    private final List<String[]> blackholes = new ArrayList<>(); // {namespace, address}

    private NetworkNamespaces(int subnet, int size) {
        this.subnet = subnet;
        this.size = size;
    }

    /** Why namespaces cannot be made here (no {@code ip}, not root), or empty if they can. */
    static Optional<String> unusable() {
        String probe = PREFIX + ProcessHandle.current().pid() + "-probe";
        try {
            run(List.of("ip", "netns", "add", probe));
            run(List.of("ip", "netns", "del", probe));
            return Optional.empty();
        } catch (IOException e) {
            return Optional.of("network namespaces are not usable here (needs root and iproute2's ip): "
                    + e.getMessage());
        }
    }

    /** Makes the bridge and {@code size} namespaces, after removing what dead runs left. */
    static NetworkNamespaces create(int size) throws IOException {
        removeLeftovers();
        NetworkNamespaces net = new NetworkNamespaces(freeSubnet(), size);
        try {
            net.build();
            return net;
        } catch (IOException | RuntimeException e) {
            net.close();
            throw e;
        }
    }

    private void build() throws IOException {
        run(List.of("ip", "link", "add", bridge(), "type", "bridge"));
        run(List.of("ip", "addr", "add", "10.231." + subnet + ".1/24", "dev", bridge()));
        run(List.of("ip", "link", "set", bridge(), "up"));
        for (int i = 0; i < size; i++) {
            run(List.of("ip", "netns", "add", namespace(i)));
            run(List.of("ip", "link", "add", veth(i), "type", "veth", "peer", "name", "eth0", "netns", namespace(i)));
            run(List.of("ip", "link", "set", veth(i), "master", bridge(), "up"));
            run(List.of("ip", "-n", namespace(i), "addr", "add", address(i) + "/24", "dev", "eth0"));
            run(List.of("ip", "-n", namespace(i), "link", "set", "eth0", "up"));
            run(List.of("ip", "-n", namespace(i), "link", "set", "lo", "up"));
        }
    }

    /** Node {@code i}'s address. */
    String address(int i) {
        return "10.231." + subnet + "." + (11 + i);
    }

    /** {@code command} to be run inside node {@code i}'s namespace ({@code ip netns exec} execs it: same pid). */
    List<String> inside(int i, List<String> command) {
        List<String> all = new ArrayList<>(List.of("ip", "netns", "exec", namespace(i)));
        all.addAll(command);
        return all;
    }

    /** Node {@code i} can reach no one and no one it: its veth is down. */
    void cutOff(int i) throws IOException {
        run(List.of("ip", "link", "set", veth(i), "down"));
    }

    void reconnect(int i) throws IOException {
        run(List.of("ip", "link", "set", veth(i), "up"));
    }

    /** The nodes of {@code side} and the others no longer reach each other; the test JVM still reaches all. */
    void split(Collection<Integer> side) throws IOException {
        for (int i = 0; i < size; i++) {
            for (int j = 0; j < size; j++) {
                if (side.contains(i) != side.contains(j)) {
                    run(List.of("ip", "-n", namespace(i), "route", "add", "blackhole", address(j) + "/32"));
                    blackholes.add(new String[] {namespace(i), address(j)});
                }
            }
        }
    }

    /** Removes the split's routes. */
    void heal() throws IOException {
        while (!blackholes.isEmpty()) {
            String[] route = blackholes.get(blackholes.size() - 1);
            run(List.of("ip", "-n", route[0], "route", "del", "blackhole", route[1] + "/32"));
            blackholes.remove(blackholes.size() - 1);
        }
    }

    /** Removes the namespaces (their veth ends go with them) and the bridge; the processes must be gone. */
    @Override
    public void close() {
        for (int i = 0; i < size; i++) {
            runQuietly(List.of("ip", "netns", "del", namespace(i)));
            runQuietly(List.of("ip", "link", "del", veth(i)));
        }
        runQuietly(List.of("ip", "link", "del", bridge()));
    }

    /** Deletes namespaces and links of this prefix whose owning process is gone (a run killed before its cleanup). */
    static void removeLeftovers() throws IOException {
        for (String line : run(List.of("ip", "netns", "list")).split("\n")) {
            String name = line.split(" ")[0];
            if (leftover(name)) {
                runQuietly(List.of("ip", "netns", "del", name));
            }
        }
        for (String line : run(List.of("ip", "-o", "link", "show")).split("\n")) {
            String[] fields = line.split(":\\s+");
            if (fields.length > 1) {
                String name = fields[1].split("@")[0];
                if (leftover(name)) {
                    runQuietly(List.of("ip", "link", "del", name));
                }
            }
        }
    }

    private static boolean leftover(String name) {
        Matcher m = OWNED.matcher(name);
        return m.lookingAt() && ProcessHandle.of(Long.parseLong(m.group(1))).map(p -> !p.isAlive()).orElse(true);
    }

    /** A 10.231.X.0/24 no interface of this machine uses yet, starting from one derived from the process id. */
    private static int freeSubnet() throws IOException {
        String used = run(List.of("ip", "-o", "-4", "addr", "show"));
        int start = (int) (ProcessHandle.current().pid() % 200);
        for (int k = 0; k < 200; k++) {
            int candidate = 20 + (start + k) % 200;
            if (!used.contains(" 10.231." + candidate + ".")) {
                return candidate;
            }
        }
        throw new IOException("no free 10.231.X.0/24 subnet");
    }

    private String bridge() {
        return PREFIX + owner + "b";
    }

    private String veth(int i) {
        return PREFIX + owner + "v" + i;
    }

    private String namespace(int i) {
        return PREFIX + owner + "-" + i;
    }

    /** Runs {@code command}, bounded; its standard output, or an IOException with what it printed. */
    static String run(List<String> command) throws IOException {
        Process p;
        try {
            p = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException(String.join(" ", command) + ": " + e.getMessage(), e);
        }
        try {
            if (!p.waitFor(COMMAND_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException(String.join(" ", command) + " took over " + COMMAND_SECONDS + " s");
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException(String.join(" ", command) + " interrupted", e);
        }
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(String.join(" ", command) + " exited " + p.exitValue() + ": " + out.strip());
        }
        return out;
    }

    private static void runQuietly(List<String> command) {
        try {
            run(command);
        } catch (IOException e) {
            // already gone, or gone with its namespace
        }
    }
}
