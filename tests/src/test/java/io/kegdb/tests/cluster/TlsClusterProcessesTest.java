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

import static io.kegdb.tests.cluster.ClusterSql.connectWhenUp;
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

    @TempDir
    Path dir;

    private NodeCluster cluster;

    @AfterEach
    void stopAll() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
    }

    private void cert(String... args) throws Exception {
        NodeCluster.cert(dir.resolve("cert.log"), args);
    }

    @Test
    void tlsClusterServesCertifiedClientsOnly() throws Exception {
        Path certs = dir.resolve("certs");
        cert("ca", "--dir", certs.toString());
        for (int i = 0; i < 3; i++) {
            cert("node", "--dir", certs.toString(), "--name", "node" + i);
        }
        cert("client", "--dir", certs.toString(), "--name", "alice");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(certs.resolve("alice.key"))));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(certs.resolve("node0.key"))));

        cluster = NodeCluster.onLoopback(dir, "tls", 3).nodeOptions(i -> List.of(
                "--tls-ca", certs.resolve("ca.crt").toString(),
                "--tls-cert", certs.resolve("node" + i + ".crt").toString(),
                "--tls-key", certs.resolve("node" + i + ".key").toString()));
        cluster.startAll();
        String base = cluster.url("");
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
