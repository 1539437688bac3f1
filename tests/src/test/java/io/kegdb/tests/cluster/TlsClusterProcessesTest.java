package io.kegdb.tests.cluster;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three {@code ./kegdb node} processes with TLS, their certificates made by {@code ./kegdb cert}: a JDBC
 * client with {@code ssl=true} and a client certificate writes and reads; a plain-text client and a client
 * without a certificate fail at once with 08001 and 28000 naming the cause, and write nothing; the nodes'
 * logs say what they refused.
 */
@Timeout(value = 420, unit = TimeUnit.SECONDS)
class TlsClusterProcessesTest {

    private static final String GROUP = "tls";
    private static final Path ROOT = Path.of(System.getProperty("user.dir")).resolve("..").normalize();

    @TempDir
    Path dir;

    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void stopAll() throws InterruptedException {
        for (Process p : processes) {
            if (p.isAlive()) {
                p.destroy();
                if (!p.waitFor(20, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
        }
    }

    private ProcessBuilder launcher(List<String> args, Path log) {
        List<String> cmd = new ArrayList<>(List.of("bash", ROOT.resolve("kegdb").toString()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("KEGDB_SKIP_BUILD", "1"); // the reactor built the driver jar before this module
        pb.environment().put("KEGDB_JAVA_OPTS", "-Xmx256m");
        pb.redirectErrorStream(true);
        pb.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
        return pb;
    }

    private void cert(String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of("cert"));
        all.addAll(List.of(args));
        Process p = launcher(all, dir.resolve("cert.log")).start();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), Files.readString(dir.resolve("cert.log")));
    }

    @Test
    void tlsClusterServesCertifiedClientsOnly() throws Exception {
        Path certs = dir.resolve("certs");
        cert("ca", "--dir", certs.toString());
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            cert("node", "--dir", certs.toString(), "--name", "node" + i);
            nodes.add("127.0.0.1:" + LoopbackPorts.free());
        }
        cert("client", "--dir", certs.toString(), "--name", "alice");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(certs.resolve("alice.key"))));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(certs.resolve("node0.key"))));

        for (int i = 0; i < 3; i++) {
            processes.add(launcher(List.of("node", "--dir", dir.resolve("node-" + i).toString(), "--group", GROUP,
                    "--self", nodes.get(i), "--peers", String.join(",", nodes),
                    "--tls-ca", certs.resolve("ca.crt").toString(),
                    "--tls-cert", certs.resolve("node" + i + ".crt").toString(),
                    "--tls-key", certs.resolve("node" + i + ".key").toString()), dir.resolve("node-" + i + ".log"))
                    .start());
        }
        String base = "jdbc:kegdb:raft://" + String.join(",", nodes) + "/" + GROUP;
        String secured = base + "?ssl=true&sslrootcert=" + certs.resolve("ca.crt") + "&sslcert="
                + certs.resolve("alice.crt") + "&sslkey=" + certs.resolve("alice.key");
        try (Connection c = connectWhenUp(secured, 240); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO KV VALUES ('a', '1')");
            s.executeUpdate("UPSERT INTO KV VALUES ('b', '2')");
            assertEquals(List.of("a=1", "b=2"), rows(s));
        }

        SQLException plain = assertThrows(SQLException.class, () -> DriverManager.getConnection(base));
        assertEquals("08001", plain.getSQLState(), plain.toString());
        assertTrue(plain.getMessage().contains("requires TLS"), plain.getMessage());

        SQLException anonymous = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(base + "?ssl=true&sslrootcert=" + certs.resolve("ca.crt")));
        assertEquals("28000", anonymous.getSQLState(), anonymous.toString());

        Path other = dir.resolve("other");
        cert("ca", "--dir", other.toString());
        SQLException untrusted = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(base + "?ssl=true&sslrootcert=" + other.resolve("ca.crt")));
        assertEquals("08001", untrusted.getSQLState(), untrusted.toString());
        assertTrue(untrusted.getMessage().contains("untrusted CA"), untrusted.getMessage());

        try (Connection c = DriverManager.getConnection(secured); Statement s = c.createStatement()) {
            assertEquals(List.of("a=1", "b=2"), rows(s), "the refused clients wrote nothing");
        }
        String logs = logs();
        assertTrue(logs.contains("requires TLS on every connection"), "each node says it is secured");
        assertTrue(logs.contains("refused a plain-text connection"), "a node logged the plain-text client");
        assertFalse(logs.contains("runs WITHOUT TLS"));
    }

    /** Three JVMs making TLS connections to one another start slowly on a loaded machine: wait for them. */
    private static Connection connectWhenUp(String url, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            try {
                return DriverManager.getConnection(url);
            } catch (SQLException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(500);
            }
        }
    }

    private static List<String> rows(Statement s) throws SQLException {
        List<String> rows = new ArrayList<>();
        try (ResultSet rs = s.executeQuery("SELECT K, V FROM KV ORDER BY K")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + "=" + rs.getString(2));
            }
        }
        return rows;
    }

    private String logs() throws IOException {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            b.append(Files.readString(dir.resolve("node-" + i + ".log")));
        }
        return b.toString();
    }
}
