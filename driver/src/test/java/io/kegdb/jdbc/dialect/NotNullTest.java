package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.Types;
import java.util.List;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** A NULL key is a not-null violation: SQLState 23502, an integrity-constraint exception, as H2 reports it. */
class NotNullTest {

    private static final String TABLE = "CREATE TABLE t (k BIGINT PRIMARY KEY, v VARCHAR(10))";

    /** Each way of writing a NULL key: fast path, Calcite's INSERT and UPSERT, an UPDATE of the key, a missing key. */
    private static final String[] STATEMENTS = {
        "INSERT INTO t VALUES (CAST(NULL AS BIGINT), 'a')",
        "INSERT INTO t (k, v) SELECT CAST(NULL AS BIGINT), 'a' FROM t",
        "INSERT INTO t (v) VALUES ('a')",
        "UPDATE t SET k = NULL WHERE k = 1",
    };

    @Test
    void nullKeyIs23502LikeH2() throws SQLException {
        try (Connection keg = Databases.kegdb(); Connection h2 = Databases.h2()) {
            for (Connection c : List.of(keg, h2)) {
                exec(c, TABLE, "INSERT INTO t VALUES (1, 'one')");
            }
            for (String sql : STATEMENTS) {
                SQLException h2Error = assertThrows(SQLException.class, () -> exec(h2, sql), sql);
                SQLException kegError = assertThrows(SQLIntegrityConstraintViolationException.class,
                        () -> exec(keg, sql), sql);
                assertEquals(h2Error.getSQLState(), kegError.getSQLState(), sql);
                assertEquals("23502", kegError.getSQLState(), sql);
            }
            assertEquals(List.of(List.of(1L, "one")), rows(keg, "SELECT * FROM t"));
        }
    }

    @Test
    void nullKeyParameterOnTheFastPathIs23502() throws SQLException {
        try (Connection keg = Databases.kegdb()) {
            exec(keg, TABLE);
            for (String sql : List.of("INSERT INTO t VALUES (?, 'a')", "UPSERT INTO t (k, v) VALUES (?, 'a')")) {
                try (PreparedStatement ps = keg.prepareStatement(sql)) {
                    ps.setNull(1, Types.BIGINT);
                    SQLException e = assertThrows(SQLIntegrityConstraintViolationException.class, ps::executeUpdate);
                    assertEquals("23502", e.getSQLState());
                }
            }
        }
    }
}
