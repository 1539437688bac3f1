package io.kegdb.tests.cluster;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three TLS {@code ./kegdb node} processes started with {@code --admin-password-file}: the admin creates alice
 * (ALL on a table) and bob (SELECT only) over JDBC; alice writes and reads; bob reads, and each of his writes
 * and his DDL is refused with 42501 and writes nothing; every failed login is 28000 with one message; no file
 * of any node holds a password in plain text; SYS.USERS shows no hash; a dropped user's open connection is
 * refused; {@code ./kegdb sql --user --password-file} logs in.
 */
@Timeout(value = 480, unit = TimeUnit.SECONDS)
class UsersClusterProcessesTest {

    private static final String GROUP = "users";
    private static final String ADMIN_PASSWORD = "process-admin-secret";
    private static final String SHARED_PASSWORD = "alice-bob-same-secret";
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

    private void run(Path log, String... args) throws Exception {
        Process p = launcher(List.of(args), log).start();
        assertTrue(p.waitFor(180, TimeUnit.SECONDS));
        assertEquals(0, p.exitValue(), Files.readString(log));
    }

    @Test
    void usersLogInAndNodesCheckTheirPrivileges() throws Exception {
        Path certs = dir.resolve("certs");
        Path certLog = dir.resolve("cert.log");
        run(certLog, "cert", "ca", "--dir", certs.toString());
        List<String> nodes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            run(certLog, "cert", "node", "--dir", certs.toString(), "--name", "node" + i);
            nodes.add("127.0.0.1:" + LoopbackPorts.free());
        }
        run(certLog, "cert", "client", "--dir", certs.toString(), "--name", "app");
        Path adminFile = dir.resolve("admin.pw");
        Files.writeString(adminFile, ADMIN_PASSWORD + "\n");
        for (int i = 0; i < 3; i++) {
            processes.add(launcher(List.of("node", "--dir", dir.resolve("node-" + i).toString(), "--group", GROUP,
                    "--self", nodes.get(i), "--peers", String.join(",", nodes),
                    "--tls-ca", certs.resolve("ca.crt").toString(),
                    "--tls-cert", certs.resolve("node" + i + ".crt").toString(),
                    "--tls-key", certs.resolve("node" + i + ".key").toString(),
                    "--admin-password-file", adminFile.toString()), dir.resolve("node-" + i + ".log")).start());
        }
        String base = "raft://" + String.join(",", nodes) + "/" + GROUP;
        String url = "jdbc:kegdb:" + base + "?ssl=true&sslrootcert=" + certs.resolve("ca.crt") + "&sslcert="
                + certs.resolve("app.crt") + "&sslkey=" + certs.resolve("app.key");

        try (Connection admin = connectWhenUp(url, "admin", ADMIN_PASSWORD, 240); Statement s = admin.createStatement()) {
            s.execute("CREATE TABLE T (K VARCHAR PRIMARY KEY, V VARCHAR)");
            s.execute("INSERT INTO T VALUES ('a', '1')");
            s.execute("CREATE USER alice PASSWORD '" + SHARED_PASSWORD + "'");
            s.execute("GRANT ALL ON T TO alice");
            s.execute("CREATE USER bob PASSWORD '" + SHARED_PASSWORD + "'");
            s.execute("GRANT SELECT ON T TO bob");
            s.execute("CREATE USER carol PASSWORD 'carol-secret'");
            s.execute("GRANT SELECT ON ALL TABLES TO carol");
        }

        try (Connection alice = connect(url, "alice", SHARED_PASSWORD); Statement s = alice.createStatement()) {
            s.execute("INSERT INTO T VALUES ('b', '2')");
            s.execute("UPDATE T SET V = '22' WHERE K = 'b'");
            s.execute("INSERT INTO T VALUES ('c', '3')");
            s.execute("DELETE FROM T WHERE K = 'c'");
            assertEquals(List.of("a=1", "b=22"), rows(s));
        }

        int refused = 0;
        try (Connection bob = connect(url, "bob", SHARED_PASSWORD); Statement s = bob.createStatement()) {
            assertEquals(List.of("a=1", "b=22"), rows(s));
            for (String sql : List.of("INSERT INTO T VALUES ('x', 'bob')", "UPDATE T SET V = 'bob' WHERE K = 'a'",
                    "DELETE FROM T WHERE K = 'a'", "CREATE TABLE BOB (K VARCHAR PRIMARY KEY, V VARCHAR)",
                    "DROP TABLE T", "CREATE USER eve PASSWORD 'eve'", "SELECT * FROM SYS.USERS")) {
                SQLException e = assertThrows(SQLException.class, () -> {
                    if (s.execute(sql)) {
                        try (ResultSet rs = s.getResultSet()) {
                            while (rs.next()) {
                                rs.getObject(1);
                            }
                        }
                    }
                }, sql);
                assertEquals("42501", e.getSQLState(), sql + ": " + e.getMessage());
                refused++;
            }
        }
        assertEquals(7, refused, "bob's refused statements");

        List<String> messages = new ArrayList<>();
        String[][] logins = {{"alice", "wrong-password"}, {"mallory", SHARED_PASSWORD}, {"bob", null}, {null, null}};
        for (String[] login : logins) {
            SQLException e = assertThrows(SQLException.class, () -> connect(url, login[0], login[1]).close());
            assertInstanceOf(SQLInvalidAuthorizationSpecException.class, e, e.toString());
            assertEquals("28000", e.getSQLState());
            messages.add(e.getMessage());
        }
        assertEquals(1, messages.stream().distinct().count(), messages.toString());

        try (Connection carol = connect(url, "carol", "carol-secret"); Statement c = carol.createStatement();
             Connection admin = connect(url, "admin", ADMIN_PASSWORD); Statement a = admin.createStatement()) {
            assertEquals(List.of("a=1", "b=22"), rows(c));
            a.execute("DROP USER carol");
            SQLException dropped = assertThrows(SQLException.class, () -> rows(c));
            assertEquals("28000", dropped.getSQLState(), dropped.getMessage());
            refused++;
            try (ResultSet rs = a.executeQuery("SELECT * FROM SYS.USERS ORDER BY NAME")) {
                assertEquals(3, rs.getMetaData().getColumnCount(), "NAME, ADMIN, GRANTS: no hash");
                List<String> users = new ArrayList<>();
                while (rs.next()) {
                    users.add(rs.getString("NAME") + " " + rs.getBoolean("ADMIN") + " " + rs.getString("GRANTS"));
                }
                assertEquals(List.of("ADMIN true ", "ALICE false ALL ON PUBLIC.T", "BOB false SELECT ON PUBLIC.T"), users);
            }
            assertEquals(List.of("a=1", "b=22"), rows(a), "no refused attempt wrote anything");
        }
        assertEquals(8, refused);

        // the console logs in with a password file
        Path bobFile = dir.resolve("bob.pw");
        Files.writeString(bobFile, SHARED_PASSWORD + "\n");
        Path sqlLog = dir.resolve("sql.log");
        run(sqlLog, "sql", base, "--tls-ca", certs.resolve("ca.crt").toString(),
                "--tls-cert", certs.resolve("app.crt").toString(), "--tls-key", certs.resolve("app.key").toString(),
                "--user", "bob", "--password-file", bobFile.toString(), "-e", "SELECT V FROM T WHERE K = 'b';");
        assertTrue(Files.readString(sqlLog).contains("22"), Files.readString(sqlLog));

        // no password in plain text in any node's files (log, meta, snapshots, data) or logs
        byte[][] secrets = {ADMIN_PASSWORD.getBytes(StandardCharsets.UTF_8),
            SHARED_PASSWORD.getBytes(StandardCharsets.UTF_8), "carol-secret".getBytes(StandardCharsets.UTF_8)};
        int files = 0;
        for (int i = 0; i < 3; i++) {
            try (Stream<Path> walk = Files.walk(dir.resolve("node-" + i))) {
                for (Path f : (Iterable<Path>) walk.filter(Files::isRegularFile)::iterator) {
                    byte[] content = Files.readAllBytes(f);
                    for (byte[] secret : secrets) {
                        assertFalse(contains(content, secret), f + " holds a password in plain text");
                    }
                    files++;
                }
            }
            String log = Files.readString(dir.resolve("node-" + i + ".log"));
            for (byte[] secret : secrets) {
                assertFalse(log.contains(new String(secret, StandardCharsets.UTF_8)), "node " + i + "'s log");
            }
        }
        assertTrue(files > 10, files + " files looked at");
    }

    private static Connection connect(String url, String user, String password) throws SQLException {
        Properties p = new Properties();
        if (user != null) {
            p.setProperty("user", user);
        }
        if (password != null) {
            p.setProperty("password", password);
        }
        return DriverManager.getConnection(url, p);
    }

    /** Three JVMs start slowly on a loaded machine, and the first admin exists once a leader is elected. */
    private static Connection connectWhenUp(String url, String user, String password, int seconds) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            try {
                return connect(url, user, password);
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
        try (ResultSet rs = s.executeQuery("SELECT K, V FROM T ORDER BY K")) {
            while (rs.next()) {
                rows.add(rs.getString(1) + "=" + rs.getString(2));
            }
        }
        return rows;
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
