package io.kegdb.tests.cluster;

import io.kegdb.jdbc.security.PlainTextSecrets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.kegdb.tests.cluster.ClusterSql.connect;
import static io.kegdb.tests.cluster.ClusterSql.connectWhenUp;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three TLS {@code ./kegdb node} processes started with {@code --admin-password-file}: the admin creates alice
 * (ALL on a table) and bob (SELECT only) over JDBC; alice writes and reads; bob reads, and each of his writes
 * and his DDL is refused with 42501 and writes nothing; every failed login is 28000 with one message; no file
 * of any node holds a password in plain text; SYS.USERS shows no hash; a dropped user's open connection is
 * refused; {@code ./kegdb sql --user --password-file} logs in without a client certificate, and without the
 * file and a terminal fails at once.
 */
@Timeout(value = 480, unit = TimeUnit.SECONDS)
class UsersClusterProcessesTest {

    private static final String GROUP = "users";
    private static final String ADMIN_PASSWORD = "process-admin-secret";
    private static final String SHARED_PASSWORD = "alice-bob-same-secret";

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

    private void run(Path log, String... args) throws Exception {
        Process p = NodeCluster.launcher(List.of(args), log).start();
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
            processes.add(NodeCluster.launcher(List.of("node", "--dir", dir.resolve("node-" + i).toString(), "--group", GROUP,
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

        // the console logs in with a password file, without a client certificate (the CA checks the nodes)
        Path bobFile = dir.resolve("bob.pw");
        Files.writeString(bobFile, SHARED_PASSWORD + "\n");
        Path sqlLog = dir.resolve("sql.log");
        run(sqlLog, "sql", base, "--tls-ca", certs.resolve("ca.crt").toString(),
                "--user", "bob", "--password-file", bobFile.toString(), "-e", "SELECT V FROM T WHERE K = 'b';");
        assertTrue(Files.readString(sqlLog).contains("22"), Files.readString(sqlLog));
        // without a password file and without a terminal it says so at once (no prompt that would hang)
        Path promptLog = dir.resolve("prompt.log");
        Process prompt = NodeCluster.launcher(List.of("sql", base, "--tls-ca", certs.resolve("ca.crt").toString(),
                "--user", "bob", "-e", "SELECT V FROM T WHERE K = 'b';"), promptLog).start();
        assertTrue(prompt.waitFor(120, TimeUnit.SECONDS));
        assertEquals(2, prompt.exitValue(), Files.readString(promptLog));
        assertTrue(Files.readString(promptLog).contains("no password for user bob"), Files.readString(promptLog));

        // no password in plain text in any node's files (log, meta, snapshots, data) or logs
        List<Path> nodeFiles = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            nodeFiles.add(dir.resolve("node-" + i));
            nodeFiles.add(dir.resolve("node-" + i + ".log"));
        }
        int files = PlainTextSecrets.assertAbsent(List.of(ADMIN_PASSWORD, SHARED_PASSWORD, "carol-secret"),
                nodeFiles.toArray(Path[]::new));
        assertTrue(files > 10, files + " files looked at");
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

}
