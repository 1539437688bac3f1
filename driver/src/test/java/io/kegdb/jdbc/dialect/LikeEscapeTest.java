package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.rows;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code LIKE ... ESCAPE ''} (Hibernate's spelling of "no escape") means no escape character, as in H2. */
class LikeEscapeTest {

    private static final String[] TABLE = {
        "CREATE TABLE t (k VARCHAR(10) PRIMARY KEY, v VARCHAR(10))",
        "INSERT INTO t VALUES ('a\\b', 'x')", "INSERT INTO t VALUES ('a_b', 'y')", "INSERT INTO t VALUES ('ab', 'z')"};

    @Test
    void emptyEscapeIsNoEscapeLikeH2() throws SQLException {
        try (Connection keg = Databases.kegdb(); Connection h2 = Databases.h2()) {
            exec(keg, TABLE);
            exec(h2, TABLE);
            String[][] cases = {
                {"SELECT k FROM t WHERE k LIKE ? ESCAPE '' ORDER BY k", "a\\%"},
                {"SELECT k FROM t WHERE k LIKE ? ESCAPE '' ORDER BY k", "a_b"},
                {"SELECT k FROM t WHERE v NOT LIKE ? ESCAPE '' ORDER BY k", "%y%"},
                {"SELECT k FROM t WHERE k LIKE ? ESCAPE '' AND v LIKE ? ESCAPE '' ORDER BY k", "a%", "_"},
            };
            for (String[] q : cases) {
                Object[] params = java.util.Arrays.copyOfRange(q, 1, q.length, Object[].class);
                List<List<Object>> expected = rows(h2, q[0], params);
                assertEquals(expected, rows(keg, q[0], params), q[0]);
            }
            assertEquals(List.of(List.of("a\\b")), rows(keg, "SELECT k FROM t WHERE k LIKE 'a\\%' ESCAPE ''"));
        }
    }

    @Test
    void aRealEscapeStillWorks() throws SQLException {
        try (Connection keg = Databases.kegdb()) {
            exec(keg, TABLE);
            assertEquals(List.of(List.of("a_b")), rows(keg, "SELECT k FROM t WHERE k LIKE 'a!_b' ESCAPE '!'"));
            assertEquals(List.of(List.of("a_b")), rows(keg, "SELECT k FROM t WHERE k LIKE ? ESCAPE '!'", "a!_b"));
        }
    }
}
