package io.kegdb.jdbc.security;

import io.kegdb.engine.KvStore;
import io.kegdb.raft.ClusterUsers;
import io.kegdb.raft.RaftGroupClient;
import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftNodeOptions;
import io.kegdb.raft.ReadConsistency;
import io.kegdb.raft.security.CertificateFiles;
import io.kegdb.raft.security.TlsFiles;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLInvalidAuthorizationSpecException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Users on a 3-node TLS cluster in this JVM, through JDBC: the first admin from the nodes' admin password,
 * CREATE USER / GRANT / REVOKE / ALTER / DROP, per-table privileges checked by the nodes (42501, nothing
 * written), one 28000 message for every failed login, tickets of dropped users and changed passwords refused,
 * SYS.USERS without hashes, and no password in plain text in any node's files or in SYS.STATEMENTS.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class ClusterUsersTest {

    private static final String ADMIN_PASSWORD = "first-admin-secret";
    private static final String ALICE_PASSWORD = "alice-and-bob-share-this";
    private static final String GROUP = "users";

    private Path dir;

    private final List<RaftNode> nodes = new ArrayList<>();
    private String url;
    private String peers;
    private Path certs;

    @BeforeAll
    void startCluster(@TempDir Path tempDir) throws Exception {
        dir = tempDir;
        certs = dir.resolve("certs");
        CertificateFiles.writeCa(certs);
        for (int i = 0; i < 3; i++) {
            CertificateFiles.writeNode(certs, "node" + i, List.of("127.0.0.1"));
        }
        CertificateFiles.writeClient(certs, "app");
        List<String> addresses = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            try (ServerSocket s = new ServerSocket(0)) {
                addresses.add("127.0.0.1:" + s.getLocalPort());
            }
        }
        peers = String.join(",", addresses);
        for (int i = 0; i < 3; i++) {
            nodes.add(RaftNode.start(RaftNodeOptions.builder()
                    .dir(dir.resolve("node" + i)).group(GROUP).self(addresses.get(i)).peers(peers)
                    .requestTimeout(Duration.ofSeconds(20))
                    .tls(new TlsFiles(certs.resolve("ca.crt"), certs.resolve("node" + i + ".crt"),
                            certs.resolve("node" + i + ".key")))
                    .adminPassword(ADMIN_PASSWORD)
                    .build()));
        }
        url = "jdbc:kegdb:raft://" + peers + "/" + GROUP + "?ssl=true&sslrootcert=" + certs.resolve("ca.crt")
                + "&sslcert=" + certs.resolve("app.crt") + "&sslkey=" + certs.resolve("app.key");
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (Connection admin = connect("admin", ADMIN_PASSWORD)) {
                break; // the first admin exists
            } catch (SQLException e) {
                if (System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(200);
            }
        }
        try (Connection admin = connect("admin", ADMIN_PASSWORD); Statement s = admin.createStatement()) {
            s.execute("CREATE TABLE T (K VARCHAR PRIMARY KEY, V VARCHAR)");
            s.execute("CREATE TABLE SECRETS (K VARCHAR PRIMARY KEY, V VARCHAR)");
            s.execute("INSERT INTO T VALUES ('a', '1')");
            s.execute("INSERT INTO SECRETS VALUES ('s', 'hidden')");
            s.execute("CREATE USER alice PASSWORD '" + ALICE_PASSWORD + "'");
            s.execute("GRANT ALL ON T TO alice");
            s.execute("CREATE USER bob PASSWORD '" + ALICE_PASSWORD + "'");
            s.execute("GRANT SELECT ON T TO bob");
        }
    }

    @AfterAll
    void stopCluster() {
        for (RaftNode n : nodes) {
            n.close();
        }
    }

    private Connection connect(String user, String password) throws SQLException {
        return connect(url, user, password);
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

    private TreeMap<String, String> rows(String table) throws SQLException {
        TreeMap<String, String> rows = new TreeMap<>();
        try (Connection admin = connect("admin", ADMIN_PASSWORD); Statement s = admin.createStatement();
             ResultSet rs = s.executeQuery("SELECT K, V FROM " + table)) {
            while (rs.next()) {
                rows.put(rs.getString(1), rs.getString(2));
            }
        }
        return rows;
    }

    /** Runs {@code sql} and reads every row it returns (a result set reads the store as it is read). */
    private static void run(Statement s, String sql) throws SQLException {
        if (s.execute(sql)) {
            try (ResultSet rs = s.getResultSet()) {
                while (rs.next()) {
                    rs.getObject(1);
                }
            }
        }
    }

    private static SQLException refused(Statement s, String sql) {
        SQLException e = assertThrows(SQLException.class, () -> run(s, sql), sql);
        assertEquals("42501", e.getSQLState(), sql + ": " + e.getMessage());
        return e;
    }

    @Test
    void aliceWithAllOnTableWritesAndReadsItAndNothingElse() throws Exception {
        try (Connection alice = connect("alice", ALICE_PASSWORD); Statement s = alice.createStatement()) {
            s.execute("INSERT INTO T VALUES ('alice', 'x')");
            s.execute("UPDATE T SET V = 'y' WHERE K = 'alice'");
            try (ResultSet rs = s.executeQuery("SELECT V FROM T WHERE K = 'alice'")) {
                assertTrue(rs.next());
                assertEquals("y", rs.getString(1));
            }
            s.execute("DELETE FROM T WHERE K = 'alice'");
            SQLException e = refused(s, "SELECT * FROM SECRETS");
            assertTrue(e.getMessage().contains("SELECT") && e.getMessage().contains("PUBLIC.SECRETS"), e.getMessage());
        }
        assertEquals(List.of("a"), List.copyOf(rows("T").keySet()));
    }

    @Test
    void aClientWithoutCertificateLogsInWithItsPasswordAndWorksByItsGrants() throws Exception {
        String passwordOnly = "jdbc:kegdb:raft://" + peers + "/" + GROUP + "?ssl=true&sslrootcert=" + certs.resolve("ca.crt");
        try (Connection alice = connect(passwordOnly, "alice", ALICE_PASSWORD); Statement s = alice.createStatement()) {
            s.execute("INSERT INTO T VALUES ('no-cert', 'x')");
            s.execute("UPDATE T SET V = 'y' WHERE K = 'no-cert'");
            try (ResultSet rs = s.executeQuery("SELECT V FROM T WHERE K = 'no-cert'")) {
                assertTrue(rs.next());
                assertEquals("y", rs.getString(1));
            }
            s.execute("DELETE FROM T WHERE K = 'no-cert'");
            refused(s, "SELECT * FROM SECRETS");
            refused(s, "CREATE TABLE NOCERT (K VARCHAR PRIMARY KEY, V VARCHAR)");
        }
        try (Connection bob = connect(passwordOnly, "bob", ALICE_PASSWORD); Statement s = bob.createStatement()) {
            run(s, "SELECT * FROM T");
            refused(s, "INSERT INTO T VALUES ('bob-no-cert', 'x')");
        }
        for (String[] login : new String[][]{{"alice", null}, {null, null}, {"alice", "wrong"}}) {
            SQLException e = assertThrows(SQLException.class, () -> connect(passwordOnly, login[0], login[1]).close());
            assertInstanceOf(SQLInvalidAuthorizationSpecException.class, e, e.toString());
            assertEquals("28000", e.getSQLState(), e.getMessage());
        }
        assertEquals(List.of("a"), List.copyOf(rows("T").keySet()), "the refused statements wrote nothing");
    }

    @Test
    void bobWithSelectOnlyReadsAndEveryWriteIsRefusedWritingNothing() throws Exception {
        TreeMap<String, String> before = rows("T");
        int refusals = 0;
        try (Connection bob = connect("bob", ALICE_PASSWORD); Statement s = bob.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT V FROM T WHERE K = 'a'")) {
                assertTrue(rs.next());
                assertEquals("1", rs.getString(1));
            }
            String[] writes = {
                "INSERT INTO T VALUES ('bob', 'x')",
                "UPDATE T SET V = 'changed' WHERE K = 'a'",
                "DELETE FROM T WHERE K = 'a'",
                "UPSERT INTO T VALUES ('a', 'up')",
                "CREATE TABLE BOBS (K VARCHAR PRIMARY KEY, V VARCHAR)",
                "DROP TABLE T",
                "CREATE USER eve PASSWORD 'eve-password'",
                "GRANT ALL ON T TO bob",
                "DROP USER alice",
                "SELECT * FROM SYS.USERS",
            };
            for (String sql : writes) {
                SQLException e = refused(s, sql);
                assertFalse(e.getMessage().contains("eve-password"), e.getMessage());
                refusals++;
            }
            SQLException insert = refused(s, "INSERT INTO T VALUES ('bob2', 'x')");
            assertTrue(insert.getMessage().contains("INSERT") && insert.getMessage().contains("PUBLIC.T"),
                    insert.getMessage());
            refusals++;
        }
        assertEquals(11, refusals);
        assertEquals(before, rows("T"));
        try (Connection admin = connect("admin", ADMIN_PASSWORD); Statement s = admin.createStatement();
             ResultSet rs = s.executeQuery("SELECT NAME FROM SYS.USERS")) {
            List<String> names = new ArrayList<>();
            while (rs.next()) {
                names.add(rs.getString(1));
            }
            assertFalse(names.contains("EVE"), names.toString());
            assertThrows(SQLException.class, () -> s.executeQuery("SELECT * FROM BOBS"));
        }
    }

    @Test
    void everyFailedLoginIs28000WithOneMessage() {
        List<String> messages = new ArrayList<>();
        String[][] attempts = {{"alice", "wrong"}, {"mallory", ALICE_PASSWORD}, {"alice", null}, {null, null}};
        for (String[] attempt : attempts) {
            SQLException e = assertThrows(SQLException.class, () -> connect(attempt[0], attempt[1]).close(),
                    Arrays.toString(attempt));
            assertInstanceOf(SQLInvalidAuthorizationSpecException.class, e, e.toString());
            assertEquals("28000", e.getSQLState());
            messages.add(e.getMessage());
        }
        assertEquals(1, messages.stream().distinct().count(), messages.toString());
    }

    @Test
    void sysUsersShowsNamesFlagsAndGrantsButNoHash() throws Exception {
        try (Connection admin = connect("admin", ADMIN_PASSWORD); Statement s = admin.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM SYS.USERS ORDER BY NAME")) {
            assertEquals(3, rs.getMetaData().getColumnCount());
            TreeMap<String, String> users = new TreeMap<>();
            while (rs.next()) {
                users.put(rs.getString("NAME"), rs.getBoolean("ADMIN") + " " + rs.getString("GRANTS"));
            }
            assertEquals("true ", users.get("ADMIN"));
            assertEquals("false ALL ON PUBLIC.T", users.get("ALICE"));
            assertEquals("false SELECT ON PUBLIC.T", users.get("BOB"));
        }
    }

    @Test
    void passwordsAreStoredSaltedAndSlowlyHashedNeverInPlainText() throws Exception {
        RaftNode node = nodes.get(0);
        byte[] alice = node.get(userKey("ALICE"));
        byte[] bob = node.get(userKey("BOB"));
        assertNotNull(alice);
        assertNotNull(bob);
        assertEquals(1, alice[0], "format byte");
        // same password, different salt, so different hashes: the records' tails (salt, hash, grants) differ
        byte[] aliceSecret = Arrays.copyOfRange(alice, alice.length - 80, alice.length);
        byte[] bobSecret = Arrays.copyOfRange(bob, bob.length - 80, bob.length);
        assertFalse(Arrays.equals(aliceSecret, bobSecret));
        for (RaftNode n : nodes) {
            n.flush();
        }
        assertTrue(PlainTextSecrets.assertAbsent(List.of(ALICE_PASSWORD, ADMIN_PASSWORD), dir) > 10, "files looked at");
        try (Connection c = connect("admin", ADMIN_PASSWORD); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT * FROM SYS.STATEMENTS")) {
            int columns = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                for (int i = 1; i <= columns; i++) {
                    String v = rs.getString(i);
                    assertFalse(v != null && v.contains(ALICE_PASSWORD), "SYS.STATEMENTS shows " + v);
                }
            }
        }
    }

    @Test
    void ticketsOfDroppedUsersAndChangedPasswordsAreRefused() throws Exception {
        try (Connection admin = connect("admin", ADMIN_PASSWORD); Statement a = admin.createStatement()) {
            a.execute("CREATE USER carol PASSWORD 'carol-one'");
            a.execute("GRANT SELECT ON ALL TABLES TO carol");
            a.execute("CREATE USER dave PASSWORD 'dave-one'");
            a.execute("GRANT SELECT ON T TO dave");
            try (Connection carol = connect("carol", "carol-one"); Statement c = carol.createStatement();
                 Connection dave = connect("dave", "dave-one"); Statement d = dave.createStatement()) {
                c.executeQuery("SELECT * FROM SECRETS").close(); // ALL TABLES
                d.executeQuery("SELECT * FROM T").close();
                a.execute("DROP USER carol");
                a.execute("ALTER USER dave SET PASSWORD 'dave-two'");
                SQLException dropped = assertThrows(SQLException.class, () -> c.executeQuery("SELECT * FROM T"));
                assertEquals("28000", dropped.getSQLState(), dropped.getMessage());
                SQLException changed = assertThrows(SQLException.class, () -> d.executeQuery("SELECT * FROM T"));
                assertEquals("28000", changed.getSQLState(), changed.getMessage());
            }
            assertEquals("28000", assertThrows(SQLException.class, () -> connect("dave", "dave-one")).getSQLState());
            try (Connection dave = connect("dave", "dave-two"); Statement d = dave.createStatement()) {
                d.executeQuery("SELECT * FROM T").close();
                a.execute("REVOKE SELECT ON T FROM dave");
                assertEquals("42501", refused(d, "SELECT * FROM T").getSQLState());
            }
            a.execute("CREATE USER IF NOT EXISTS dave PASSWORD 'ignored'");
            assertEquals("42710", assertThrows(SQLException.class,
                    () -> a.execute("CREATE USER dave PASSWORD 'x'")).getSQLState());
            assertEquals("42704", assertThrows(SQLException.class,
                    () -> a.execute("DROP USER nobody")).getSQLState());
            a.execute("DROP USER dave");
        }
    }

    @Test
    void anEmbeddedStoreHasNoUsers() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:mem:users-test"); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.execute("CREATE USER x PASSWORD 'y'"));
            assertEquals("42000", e.getSQLState());
            assertTrue(e.getMessage().contains("file system's permissions"), e.getMessage());
        }
    }

    @Test
    void aKeyReadAlongWithARequestIsAuthorizedAsARead() throws Exception {
        TlsFiles app = new TlsFiles(certs.resolve("ca.crt"), certs.resolve("app.crt"), certs.resolve("app.key"));
        try (KvStore bob = RaftGroupClient.connect(GROUP, peers, Duration.ofSeconds(20), ReadConsistency.LINEARIZABLE,
                app)) {
            ((ClusterUsers) bob).login("BOB", ALICE_PASSWORD);
            byte[] catalogKey = {0, 0, 0, 0, 'V'};
            bob.get(catalogKey); // any logged-in user reads the catalog
            bob.watch(userKey("ALICE"));
            RuntimeException refused = assertThrows(RuntimeException.class, () -> bob.get(catalogKey),
                    "a user record read along with a catalog read");
            assertFalse(refused.getMessage().contains("ALICE_PASSWORD"), refused.getMessage());
        }
    }

    private static byte[] userKey(String name) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        byte[] key = Arrays.copyOf(new byte[] {0, 0, 0, 0, 'A', 'U'}, 6 + n.length);
        System.arraycopy(n, 0, key, 6, n.length);
        return key;
    }

}
