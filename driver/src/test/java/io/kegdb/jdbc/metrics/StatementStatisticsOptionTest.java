package io.kegdb.jdbc.metrics;

import io.kegdb.sql.SqlState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The connection option {@code statementStatistics}: off, a connection's statements leave SYS.STATEMENTS alone. */
@Timeout(60)
class StatementStatisticsOptionTest {

    private static List<String> texts(Connection c) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT TEXT, CALLS FROM SYS.STATEMENTS WHERE TEXT NOT LIKE '%SYS.%'"
                     + " ORDER BY TEXT")) {
            while (rs.next()) {
                out.add(rs.getString(1) + " x" + rs.getLong(2));
            }
        }
        return out;
    }

    private static void pointSelects(Connection c, int n) throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT V FROM KV WHERE K = ?")) {
            for (int i = 0; i < n; i++) {
                p.setString(1, "k" + i);
                try (ResultSet rs = p.executeQuery()) {
                    assertTrue(rs.next());
                }
            }
        }
    }

    @Test
    void offCountsNothingOnCounts() throws Exception {
        String url = "jdbc:kegdb:mem:statement-statistics-option";
        try (Connection on = DriverManager.getConnection(url);
             Connection off = DriverManager.getConnection(url + "?statementStatistics=false")) {
            try (PreparedStatement p = off.prepareStatement("INSERT INTO KV VALUES (?, ?)")) {
                for (int i = 0; i < 10; i++) {
                    p.setString(1, "k" + i);
                    p.setString(2, "v" + i);
                    p.executeUpdate();
                }
            }
            pointSelects(off, 10);
            assertEquals(List.of(), texts(on));
            pointSelects(on, 5);
            assertEquals(List.of("SELECT V FROM KV WHERE K = ? x5"), texts(on));
        }
    }

    @Test
    void aBadValueIsRefused() {
        SQLException e = assertThrows(SQLException.class,
                () -> DriverManager.getConnection("jdbc:kegdb:mem:statement-statistics-bad?statementStatistics=maybe"));
        assertEquals(SqlState.INVALID_ATTRIBUTE_VALUE, e.getSQLState());
        assertTrue(e.getMessage().contains("statementStatistics"), e.getMessage());
    }
}
