package io.kegdb.jdbc.fuzz;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Statements the SQL fuzz found escaping as Errors (StackOverflowError, ExceptionInInitializerError), as
 * internal errors (HY000) where a standard SQLState applies, or leaving the catalog with a table no query can
 * reach. Each must now fail with its SQLState, change nothing and leave the connection usable.
 */
class SqlFuzzRegressionTest {

    @TempDir
    Path tmp;

    private Connection c;

    @BeforeEach
    void open() throws SQLException {
        c = DriverManager.getConnection("jdbc:kegdb:" + tmp.resolve("db") + "?durability=nosync");
        run("CREATE TABLE NUMS (K BIGINT PRIMARY KEY, V BIGINT)");
        run("CREATE TABLE SHORTS (K VARCHAR(8) PRIMARY KEY, V VARBINARY(16))");
        run("INSERT INTO KV VALUES ('a', 'x'), ('b', 'y')");
        run("INSERT INTO NUMS VALUES (1, 10)");
        run("INSERT INTO SHORTS VALUES ('s', X'01')");
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    private void run(String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            if (s.execute(sql)) {
                try (ResultSet rs = s.getResultSet()) {
                    while (rs.next()) {
                        rs.getObject(1);
                    }
                }
            }
        }
    }

    /** {@code sql} fails with {@code state}, twice (a cached plan must fail the same way), changing nothing. */
    private void assertFails(String state, String sql) throws SQLException {
        TableDigest before = TableDigest.of(c);
        for (int attempt = 0; attempt < 2; attempt++) {
            SQLException e = assertThrows(SQLException.class, () -> run(sql), () -> shorten(sql));
            assertEquals(state, e.getSQLState(), () -> shorten(sql) + " -> " + e);
        }
        assertEquals(before, TableDigest.of(c), "the failed statement changed the data");
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM KV")) {
            assertTrue(rs.next());
            assertEquals(2, rs.getLong(1));
        }
    }

    private static String shorten(String s) {
        return s.length() < 200 ? s : s.substring(0, 200) + "...";
    }

    @Test
    void tooDeeplyNestedStatementsFailWith54001() throws SQLException {
        assertFails("54001", "SELECT " + "(".repeat(5_000) + "1" + ")".repeat(5_000) + " FROM KV");
        assertFails("54001", "SELECT 1" + "+1".repeat(5_000) + " FROM KV");
        assertFails("54001", "SELECT * FROM KV WHERE K = 'a'" + " OR K = 'b'".repeat(5_000));
        assertFails("54001", "SELECT * FROM " + "(SELECT * FROM ".repeat(1_250) + "KV" + ")".repeat(1_250));
        assertFails("54001", "SELECT " + "ABS(".repeat(1_250) + "-1" + ")".repeat(1_250) + " FROM NUMS");
        assertFails("54001", "UPDATE NUMS SET V = " + "(".repeat(5_000) + "V" + " + 1)".repeat(5_000)
                + " WHERE K = 1");
    }

    @Test
    void failingConstantsReportTheirDataErrorEveryTime() throws SQLException {
        assertFails("22012", "SELECT 1/0 FROM (VALUES (1))");
        assertFails("22018", "INSERT INTO NUMS VALUES ('abc', 1)");
        assertFails("22018", "UPDATE KV SET V = 'z' WHERE TRUE = 'cba'");
        assertFails("22011", "SELECT SUBSTRING('abc' FROM -5 FOR -1) FROM (VALUES (1))");
    }

    @Test
    void routineDataErrorsHaveTheirOwnStates() throws SQLException {
        assertFails("22003", "SELECT * FROM KV LIMIT 99999999999999999999");
        assertFails("2201B", "SELECT * FROM KV WHERE K SIMILAR TO '('");
        assertFails("22025", "SELECT * FROM KV WHERE K LIKE 'a' ESCAPE 'xx'");
        // Found by the 100,000-statement run.
        assertFails("2201W", "SELECT K FROM NUMS WHERE K IN (SELECT K FROM NUMS WHERE K IN (29, 17, -4)) LIMIT 1e400");
        assertFails("2201X", "SELECT K FROM NUMS ORDER BY K OFFSET 1.5 ROWS");
        assertFails("22007", "INSERT INTO SHORTS SELECT K || 'c', NULL FROM KV WHERE V IS NULL"
                + " AND DATE '2020-01-01' = ((''))");
    }

    @Test
    void orderingByARowValueIsRefused() throws SQLException {
        // Found by the 100,000-statement run: Calcite generated code that does not compile.
        assertFails("42000", "SELECT ROW(1, 2), COUNT(*) AS N FROM NUMS GROUP BY V HAVING COUNT(*) > 1"
                + " ORDER BY 2 DESC, 1");
    }

    @Test
    void statementsCalciteMishandlesAreSyntaxErrors() throws SQLException {
        assertFails("42000", "UPDATE SHORTS SET V = V IS NULL WHERE K <> ''");
        assertFails("42000", "SELECT EXISTS K, V FROM KV");
        assertFails("42000", "SELECT K FROM KV ORDER BY ? DESC LIMIT 5");
    }

    @Test
    void tableNamesNoQueryCouldReachAreRefused() throws SQLException {
        assertFails("42000", "CREATE TABLE \"\" (K VARCHAR PRIMARY KEY, V VARCHAR)");
        assertFails("42000", "CREATE TABLE \"a\nb\" (K VARCHAR PRIMARY KEY, V VARCHAR)");
        assertFails("42000", "CREATE TABLE T (\"\" VARCHAR PRIMARY KEY, V VARCHAR)");
        run("CREATE TABLE \"odd \u00e9\uD83D\uDE00 name\" (K VARCHAR PRIMARY KEY, V VARCHAR)");
        run("INSERT INTO \"odd \u00e9\uD83D\uDE00 name\" VALUES ('k', 'v')");
        assertEquals(1, TableDigest.of(c).rowCounts().get("PUBLIC.odd \u00e9\uD83D\uDE00 name"));
    }

    @Test
    void literalsOfMegabytesWork() throws SQLException {
        String big = "x".repeat(4 << 20);
        run("UPSERT INTO KV VALUES ('big', '" + big + "')");
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT V FROM KV WHERE K = 'big'")) {
            assertTrue(rs.next());
            assertEquals(big, rs.getString(1));
        }
        run("DELETE FROM KV WHERE K = 'big'");
        assertFails("22001", "INSERT INTO KV VALUES ('" + "k".repeat(1 << 20) + "', 'v')");
    }

    @Test
    void aStatementThePlannerCannotFinishFailsWithoutAQueryTimeout() throws SQLException {
        // Found by the long fuzz run: Calcite's cost-based planner never finished this one.
        assertFails("54001", "SELECT a.K, a.V, b.V FROM NUMS a LEFT JOIN NUMS b ON a.K = b.K ORDER BY a.K"
                + " LIMIT 9223372036854775807");
        run("SELECT a.K, a.V, b.V FROM NUMS a LEFT JOIN NUMS b ON a.K = b.K ORDER BY a.K LIMIT 10");
    }

    @Test
    void aSelfJoinReadingOnlyTheLeftSideRuns() throws SQLException {
        // Found by the long fuzz run: Calcite's semi-join rule failed on it with an internal error.
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT a.K FROM NUMS a LEFT JOIN NUMS b ON a.K = b.K ORDER BY a.K LIMIT 10")) {
            assertTrue(rs.next());
            assertEquals(1, rs.getLong(1));
            assertFalse(rs.next());
        }
    }
}
