package io.kegdb.jdbc.blackbox;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLSyntaxErrorException;
import java.sql.Statement;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The driver through {@link DriverManager} only: URLs, sharing, transactions, statements, result sets, errors. */
class JdbcDriverTest {
    private static final AtomicInteger NAMES = new AtomicInteger();

    @TempDir
    Path tmp;

    private static String memUrl() {
        return "jdbc:kegdb:mem:driver-test-" + NAMES.incrementAndGet();
    }

    private static List<String> column(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static int update(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.executeUpdate(sql);
        }
    }

    @Test
    void driverIsFoundWithoutClassForName() throws SQLException {
        assertEquals("io.kegdb.jdbc.KegDriver", DriverManager.getDriver("jdbc:kegdb:mem:x").getClass().getName());
        assertThrows(SQLException.class, () -> DriverManager.getDriver("jdbc:nosuch:x"));
        assertFalse(DriverManager.getDriver("jdbc:kegdb:mem:x").acceptsURL("jdbc:h2:mem:x"));
    }

    @Test
    void memoryStoreIsSharedAndGoneWithItsLastConnection() throws SQLException {
        String url = memUrl();
        try (Connection a = DriverManager.getConnection(url); Connection b = DriverManager.getConnection(url)) {
            assertEquals(1, update(a, "INSERT INTO KV VALUES ('k1', 'v1')"));
            assertEquals(List.of("v1"), column(b, "SELECT V FROM KV WHERE K = 'k1'"));
        }
        try (Connection c = DriverManager.getConnection(url)) {
            assertEquals(List.of(), column(c, "SELECT V FROM KV"));
        }
    }

    @Test
    void directoryIsCreatedAndDataSurvivesReopen() throws Exception {
        Path dir = tmp.resolve("nested/new/db");
        String url = "jdbc:kegdb:" + dir;
        try (Connection c = DriverManager.getConnection(url)) {
            update(c, "CREATE TABLE ITEMS (ID BIGINT PRIMARY KEY, NAME VARCHAR)");
            update(c, "INSERT INTO ITEMS VALUES (1, 'one')");
            update(c, "INSERT INTO ITEMS VALUES (2, 'two')");
        }
        assertTrue(Files.isDirectory(dir));
        try (Connection c = DriverManager.getConnection(url)) {
            assertEquals(List.of("one", "two"), column(c, "SELECT NAME, ID FROM ITEMS ORDER BY ID"));
        }
    }

    @Test
    void connectionsToOneDirectoryShareOneStore() throws Exception {
        String url = "jdbc:kegdb:" + tmp.resolve("shared");
        String sameDirOtherSpelling = "jdbc:kegdb:" + tmp.resolve("shared/../shared");
        try (Connection a = DriverManager.getConnection(url);
             Connection b = DriverManager.getConnection(sameDirOtherSpelling)) {
            update(a, "INSERT INTO KV VALUES ('x', '1')");
            assertEquals(List.of("1"), column(b, "SELECT V FROM KV WHERE K = 'x'"));
        }
    }

    @Test
    void aSharedStoreKeepsTheOptionsItWasOpenedWith() throws Exception {
        String url = "jdbc:kegdb:" + tmp.resolve("opts");
        try (Connection first = DriverManager.getConnection(url + "?segmentSize=1m");
             Connection same = DriverManager.getConnection(url + "?segmentSize=1024k&durability=nosync");
             Connection unspecified = DriverManager.getConnection(url)) {
            SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url + "?segmentSize=2m"));
            assertTrue(e.getMessage().contains("segmentSize"), e.getMessage());
            assertTrue(first.isValid(1) && same.isValid(1) && unspecified.isValid(1));
        }
        try (Connection c = DriverManager.getConnection(url)) {
            update(c, "INSERT INTO KV VALUES ('o', '1')");
        }
        try (Connection ro = DriverManager.getConnection(url + "?readOnly=true")) {
            SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url));
            assertTrue(e.getMessage().contains("read-only"), e.getMessage());
            assertEquals(List.of("1"), column(ro, "SELECT V FROM KV WHERE K = 'o'"));
        }
    }

    @Test
    void uncreatableDirectoryIsNamed() throws Exception {
        Path file = Files.writeString(tmp.resolve("plain-file"), "not a directory");
        Path bad = file.resolve("db");
        SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection("jdbc:kegdb:" + bad));
        assertTrue(e.getMessage().contains(bad.toString()), e.getMessage());
    }

    @Test
    void readOnlyDoesNotCreateADatabase() {
        Path missing = tmp.resolve("missing");
        SQLException e = assertThrows(SQLException.class,
                () -> DriverManager.getConnection("jdbc:kegdb:" + missing + "?readOnly=true"));
        assertTrue(e.getMessage().contains(missing.toString()), e.getMessage());
        assertFalse(Files.exists(missing));
    }

    @Test
    void unknownOptionsAndBadValuesAreNamed() {
        SQLException unknown = assertThrows(SQLException.class,
                () -> DriverManager.getConnection(memUrl() + "?fsync=always"));
        assertTrue(unknown.getMessage().contains("fsync"), unknown.getMessage());
        Properties p = new Properties();
        p.setProperty("durability", "sometimes");
        SQLException bad = assertThrows(SQLException.class, () -> DriverManager.getConnection(memUrl(), p));
        assertTrue(bad.getMessage().contains("durability") && bad.getMessage().contains("sometimes"), bad.getMessage());
    }

    @Test
    void autocommitIsTheDefaultAndTransactionsAreIsolatedUntilCommit() throws SQLException {
        String url = memUrl();
        try (Connection writer = DriverManager.getConnection(url); Connection reader = DriverManager.getConnection(url)) {
            assertTrue(writer.getAutoCommit());
            assertEquals(Connection.TRANSACTION_READ_COMMITTED, writer.getTransactionIsolation());
            assertTrue(writer.getMetaData().supportsTransactions());

            writer.setAutoCommit(false);
            update(writer, "INSERT INTO KV VALUES ('t1', 'a')");
            assertEquals(List.of("a"), column(writer, "SELECT V FROM KV WHERE K = 't1'"), "read your own writes");
            assertEquals(List.of(), column(reader, "SELECT V FROM KV WHERE K = 't1'"), "uncommitted is invisible");
            writer.rollback();
            assertEquals(List.of(), column(writer, "SELECT V FROM KV WHERE K = 't1'"));

            update(writer, "INSERT INTO KV VALUES ('t2', 'b')");
            update(writer, "INSERT INTO KV VALUES ('t3', 'c')");
            writer.commit();
            assertEquals(List.of("b", "c"), column(reader, "SELECT V, K FROM KV WHERE K IN ('t2', 't3') ORDER BY K"));

            update(writer, "UPDATE KV SET V = 'z' WHERE K = 't2'");
            writer.setAutoCommit(true); // commits the open transaction
            assertEquals(List.of("z"), column(reader, "SELECT V FROM KV WHERE K = 't2'"));
        }
    }

    @Test
    void closeWithoutCommitDiscards() throws SQLException {
        String url = memUrl();
        try (Connection keep = DriverManager.getConnection(url)) {
            try (Connection c = DriverManager.getConnection(url)) {
                c.setAutoCommit(false);
                update(c, "INSERT INTO KV VALUES ('gone', 'x')");
            }
            assertEquals(List.of(), column(keep, "SELECT V FROM KV WHERE K = 'gone'"));
        }
    }

    @Test
    void commitAndRollbackInAutocommitModeAreErrorsButNotConnectionErrors() throws SQLException {
        try (Connection c = DriverManager.getConnection(memUrl())) {
            SQLException e = assertThrows(SQLException.class, c::commit);
            assertEquals("25000", e.getSQLState());
            assertThrows(SQLException.class, c::rollback);
            assertTrue(c.isValid(1));
        }
    }

    @Test
    void nosyncDurabilityCommits() throws SQLException {
        String url = "jdbc:kegdb:" + tmp.resolve("nosync") + "?durability=nosync";
        try (Connection c = DriverManager.getConnection(url)) {
            c.setAutoCommit(false);
            update(c, "INSERT INTO KV VALUES ('n', '1')");
            c.commit();
        }
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:" + tmp.resolve("nosync"))) {
            assertEquals(List.of("1"), column(c, "SELECT V FROM KV WHERE K = 'n'"));
        }
    }

    @Test
    void readOnlyConnectionsRejectWrites() throws Exception {
        Path dir = tmp.resolve("ro");
        try (Connection c = DriverManager.getConnection("jdbc:kegdb:" + dir)) {
            update(c, "INSERT INTO KV VALUES ('r', '1')");
        }
        try (Connection ro = DriverManager.getConnection("jdbc:kegdb:" + dir + "?readOnly=true")) {
            assertTrue(ro.isReadOnly());
            assertTrue(ro.getMetaData().isReadOnly());
            assertEquals(List.of("1"), column(ro, "SELECT V FROM KV"));
            SQLException e = assertThrows(SQLException.class, () -> update(ro, "INSERT INTO KV VALUES ('w', '2')"));
            assertEquals("25006", e.getSQLState());
            ro.setReadOnly(false); // a hint; the URL's readOnly=true stays in force
            assertTrue(ro.isReadOnly());
        }
        try (Connection c = DriverManager.getConnection(memUrl())) {
            c.setReadOnly(true);
            assertEquals("25006", assertThrows(SQLException.class,
                    () -> update(c, "INSERT INTO KV VALUES ('w', '2')")).getSQLState());
            c.setReadOnly(false);
            assertEquals(1, update(c, "INSERT INTO KV VALUES ('w', '2')"));
        }
    }

    @Test
    void errorsCarryStandardSqlStates() throws SQLException {
        try (Connection c = DriverManager.getConnection(memUrl())) {
            update(c, "INSERT INTO KV VALUES ('dup', '1')");
            SQLException dup = assertThrows(SQLException.class, () -> update(c, "INSERT INTO KV VALUES ('dup', '2')"));
            assertInstanceOf(SQLIntegrityConstraintViolationException.class, dup);
            assertEquals("23505", dup.getSQLState());

            SQLException syntax = assertThrows(SQLException.class, () -> update(c, "INSERT INTO KV VALUS ('a', 'b')"));
            assertInstanceOf(SQLSyntaxErrorException.class, syntax);
            assertTrue(syntax.getSQLState().startsWith("42"), syntax.getSQLState());
            assertEquals("42S02", assertThrows(SQLException.class, () -> column(c, "SELECT * FROM NO_SUCH_TABLE"))
                    .getSQLState());
            assertEquals("42S22", assertThrows(SQLException.class, () -> column(c, "SELECT NO_SUCH_COLUMN FROM KV"))
                    .getSQLState());

            Statement closedStatement = c.createStatement();
            closedStatement.close();
            SQLException stmt = assertThrows(SQLException.class, () -> closedStatement.executeQuery("SELECT K FROM KV"));
            assertFalse(stmt.getSQLState().startsWith("08"), "a closed statement is not a broken connection");
            assertFalse("0A000".equals(stmt.getSQLState()));
        }
        Connection closed = DriverManager.getConnection(memUrl());
        closed.close();
        assertEquals("08003", assertThrows(SQLException.class, closed::createStatement).getSQLState());
        assertFalse(closed.isValid(1));
    }

    @Test
    void executeQueryRefusesAnUpdateWithoutRunningIt() throws SQLException {
        try (Connection c = DriverManager.getConnection(memUrl()); Statement s = c.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeQuery("INSERT INTO KV VALUES ('q', '1')"));
            assertFalse(e.getSQLState().startsWith("08"));
            assertEquals(List.of(), column(c, "SELECT V FROM KV WHERE K = 'q'"));
            assertThrows(SQLException.class, () -> s.executeUpdate("SELECT * FROM KV"));
            assertTrue(s.execute("SELECT * FROM KV"));
            assertNotNull(s.getResultSet());
            assertEquals(-1, s.getUpdateCount());
            assertFalse(s.execute("INSERT INTO KV VALUES ('q', '1')"));
            assertEquals(1, s.getUpdateCount());
            assertNull(s.getResultSet());
            assertFalse(s.getMoreResults());
        }
    }

    @Test
    void preparedStatementsBindEveryTypeTheTablesNeed() throws SQLException {
        try (Connection c = DriverManager.getConnection(memUrl())) {
            update(c, "CREATE TABLE BLOBS (ID BIGINT PRIMARY KEY, DATA VARBINARY)");
            update(c, "CREATE TABLE NAMES (NAME VARCHAR PRIMARY KEY, N BIGINT)");
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO BLOBS VALUES (?, ?)")) {
                assertEquals(2, ins.getParameterMetaData().getParameterCount());
                ins.setLong(1, 1);
                ins.setBytes(2, new byte[] {0, 1, 2, (byte) 255});
                assertEquals(1, ins.executeUpdate());
                ins.setObject(1, 2L);
                ins.setNull(2, Types.VARBINARY);
                assertEquals(1, ins.executeUpdate());
                ins.clearParameters();
                ins.setLong(1, 3);
                SQLException missing = assertThrows(SQLException.class, ins::executeUpdate);
                assertEquals("07001", missing.getSQLState());
                assertThrows(SQLException.class, () -> ins.setLong(3, 1));
            }
            try (PreparedStatement sel = c.prepareStatement("SELECT ID, DATA FROM BLOBS WHERE ID = ?")) {
                sel.setLong(1, 1);
                try (ResultSet rs = sel.executeQuery()) {
                    assertTrue(rs.next());
                    assertEquals(1L, rs.getLong("ID"));
                    assertArrayEquals(new byte[] {0, 1, 2, (byte) 255}, rs.getBytes(2));
                    assertInstanceOf(byte[].class, rs.getObject(2));
                    assertInstanceOf(Long.class, rs.getObject(1));
                    assertFalse(rs.next());
                }
                sel.setLong(1, 2);
                try (ResultSet rs = sel.executeQuery()) {
                    assertTrue(rs.next());
                    assertNull(rs.getBytes("DATA"));
                    assertTrue(rs.wasNull());
                    assertEquals(2, rs.getInt(1));
                    assertFalse(rs.wasNull());
                }
            }
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO NAMES VALUES (?, ?)")) {
                ins.setString(1, "ann");
                ins.setObject(2, 7);
                ins.executeUpdate();
                ins.setObject(1, "bob", Types.VARCHAR);
                ins.setLong(2, 8);
                ins.executeUpdate();
                ins.setString(1, "cid");
                ins.setNull(2, Types.BIGINT);
                ins.executeUpdate();
            }
            try (PreparedStatement sel = c.prepareStatement("SELECT NAME, N FROM NAMES ORDER BY NAME");
                 ResultSet rs = sel.executeQuery()) {
                ResultSetMetaData md = rs.getMetaData();
                assertEquals(2, md.getColumnCount());
                assertEquals("NAME", md.getColumnLabel(1));
                assertEquals(Types.VARCHAR, md.getColumnType(1));
                assertEquals(Types.BIGINT, md.getColumnType(2));
                assertEquals(Long.class.getName(), md.getColumnClassName(2));
                assertEquals(1, rs.findColumn("name"));
                assertEquals(2, rs.findColumn("N"));
                assertThrows(SQLException.class, () -> rs.findColumn("NOPE"));
                List<String> seen = new ArrayList<>();
                while (rs.next()) {
                    long n = rs.getLong(2);
                    boolean nullN = rs.wasNull();
                    seen.add(rs.getString(1) + "=" + (nullN ? "null" : n));
                }
                assertEquals(List.of("ann=7", "bob=8", "cid=null"), seen);
            }
        }
    }

    @Test
    void batchesReportPerRowCountsAndStopAtTheFirstFailure() throws SQLException {
        try (Connection c = DriverManager.getConnection(memUrl())) {
            c.setAutoCommit(false);
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO KV VALUES (?, ?)")) {
                for (int i = 0; i < 5; i++) {
                    ins.setString(1, "b" + i);
                    ins.setString(2, "v" + i);
                    ins.addBatch();
                }
                assertArrayEquals(new int[] {1, 1, 1, 1, 1}, ins.executeBatch());
                c.commit();

                ins.setString(1, "b9");
                ins.setString(2, "x");
                ins.addBatch();
                ins.setString(1, "b0"); // duplicate
                ins.setString(2, "x");
                ins.addBatch();
                BatchUpdateException e = assertThrows(BatchUpdateException.class, ins::executeBatch);
                assertEquals("23505", e.getSQLState());
                assertArrayEquals(new int[] {1}, e.getUpdateCounts());
                c.rollback();
            }
            try (Statement s = c.createStatement()) {
                s.addBatch("UPDATE KV SET V = 'u' WHERE K = 'b1'");
                s.addBatch("DELETE FROM KV WHERE K LIKE 'b%'");
                assertArrayEquals(new int[] {1, 5}, s.executeBatch());
                c.commit();
            }
            assertEquals(List.of(), column(c, "SELECT K FROM KV"));
            try (Statement s = c.createStatement(); ResultSet keys = s.getGeneratedKeys()) {
                assertFalse(keys.next());
            }
        }
    }

    @Test
    void maxRowsFetchSizeAndQueryTimeoutAreAccepted() throws SQLException {
        try (Connection c = DriverManager.getConnection(memUrl())) {
            try (PreparedStatement ins = c.prepareStatement("INSERT INTO KV VALUES (?, ?)")) {
                for (int i = 0; i < 20; i++) {
                    ins.setString(1, String.format("m%02d", i));
                    ins.setString(2, "v");
                    ins.addBatch();
                }
                ins.executeBatch();
            }
            try (Statement s = c.createStatement()) {
                s.setMaxRows(5);
                s.setFetchSize(100);
                s.setQueryTimeout(30);
                assertEquals(30, s.getQueryTimeout());
                int rows = 0;
                try (ResultSet rs = s.executeQuery("SELECT K FROM KV ORDER BY K")) {
                    while (rs.next()) {
                        rows++;
                    }
                }
                assertEquals(5, rows);
            }
        }
    }

    @Test
    void poolFacingConnectionMethods() throws Exception {
        try (Connection c = DriverManager.getConnection(memUrl())) {
            assertTrue(c.isValid(0));
            assertThrows(SQLException.class, () -> c.isValid(-1));
            c.setNetworkTimeout(Runnable::run, 1234);
            assertEquals(1234, c.getNetworkTimeout());
            c.setClientInfo("ApplicationName", "tests");
            assertEquals("tests", c.getClientInfo("ApplicationName"));
            assertEquals("tests", c.getClientInfo().getProperty("ApplicationName"));
            String schema = c.getSchema();
            assertNotNull(schema);
            c.setSchema(schema);
            assertEquals(schema, c.getSchema());
            c.setCatalog("ignored");
            assertNull(c.getCatalog());
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            assertEquals(Connection.TRANSACTION_REPEATABLE_READ, c.getTransactionIsolation());
            assertNull(c.getWarnings(), "a level provided is no downgrade");
            c.setTransactionIsolation(Connection.TRANSACTION_READ_UNCOMMITTED);
            assertEquals(Connection.TRANSACTION_READ_COMMITTED, c.getTransactionIsolation(), "upgraded");
            assertNotNull(c.getWarnings(), "the upgrade is reported");
            c.clearWarnings();
            assertNull(c.getWarnings());
            Statement s = c.createStatement(ResultSet.TYPE_SCROLL_INSENSITIVE, ResultSet.CONCUR_READ_ONLY);
            assertEquals(ResultSet.TYPE_FORWARD_ONLY, s.getResultSetType());
            assertNotNull(c.getWarnings(), "the downgrade is reported");
            SQLException savepoint = assertThrows(SQLException.class, c::setSavepoint);
            assertNull(savepoint.getSQLState(), "routine 'not supported' never carries 0A000");
        }
        Connection aborted = DriverManager.getConnection(memUrl());
        ExecutorService executor = Executors.newSingleThreadExecutor();
        try {
            aborted.abort(executor);
            assertTrue(aborted.isClosed());
            assertFalse(aborted.isValid(1));
        } finally {
            executor.shutdown();
        }
    }
}
