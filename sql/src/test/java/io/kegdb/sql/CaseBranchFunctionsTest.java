package io.kegdb.sql;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** TRIM, EXTRACT and FLOOR inside CASE branches when the same flag is used before the branch. */
class CaseBranchFunctionsTest extends InMemorySessionTest {

    @BeforeEach
    void tables() throws SqlError {
        update(s, "CREATE TABLE t1 (k VARCHAR PRIMARY KEY, v VARCHAR)");
        update(s, "INSERT INTO t1 VALUES ('x', 'trail '), (' y', ' lead'), ('z', 'trail ')");
        update(s, "CREATE TABLE d (k DATE PRIMARY KEY, v TIMESTAMP)");
        update(s, "INSERT INTO d VALUES (DATE '2020-05-06', TIMESTAMP '1999-01-02 03:04:05'), (DATE '1990-01-01', NULL)");
    }

    @Test
    void trimInABranchTrims() throws SqlError {
        assertEquals(List.of(row("lead"), row("is x"), row("trail")), rows(s, "WITH d0 AS (SELECT TRIM(k) AS c1,"
                + " v AS c2 FROM t1) SELECT CASE c1 WHEN 'x' THEN 'is x' ELSE TRIM(c2) END FROM d0"));
        assertEquals(List.of(row("lead"), row("trail "), row("trail")), rows(s, "WITH d0 AS (SELECT TRIM(k) AS c1,"
                + " v AS c2 FROM t1) SELECT CASE c1 WHEN 'x' THEN c2 ELSE TRIM(c2) END FROM d0"));
        assertEquals(List.of(row("y", "[lead]"), row("x", "[trail ]"), row("z", "[trail]")),
                rows(s, "SELECT TRIM(k), '[' || CASE WHEN k = 'x' THEN v ELSE TRIM(v) END || ']' FROM t1"));
        assertEquals(List.of(row("c"), row("c")), rows(s, "SELECT CASE WHEN TRIM(LEADING 'a' FROM 'aab') = 'b'"
                + " THEN TRIM(LEADING 'a' FROM 'aac') ELSE 'no' END FROM d"));
        assertEquals(List.of(row(2), row(1), row(3)), rows(s, "SELECT CASE WHEN TRIM(k) = 'x' THEN 1"
                + " WHEN TRIM(v) = 'lead' THEN 2 ELSE 3 END FROM t1"));
        assertEquals(List.of(row("lead"), row("is x"), row("trail")), rows(s, "SELECT CASE WHEN TRIM(k) = 'x'"
                + " THEN 'is x' ELSE CASE WHEN TRIM(v) = '' THEN 'empty' ELSE TRIM(v) END END FROM t1"));
    }

    @Test
    void extractAndFloorInABranch() throws SqlError {
        assertEquals(List.of(row((Object) null), row(1L)),
                rows(s, "SELECT CASE WHEN EXTRACT(YEAR FROM k) > 2000 THEN 1 ELSE EXTRACT(YEAR FROM v) END FROM d"));
        assertEquals(List.of(row((Object) null), row(java.time.LocalDateTime.of(1999, 1, 2, 0, 0))),
                rows(s, "SELECT CASE WHEN FLOOR(v TO DAY) > TIMESTAMP '2000-01-01 00:00:00' THEN v"
                        + " ELSE FLOOR(v TO DAY) END FROM d"));
    }
}
