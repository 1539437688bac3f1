package io.kegdb.sql;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.kegdb.sql.SqlTestSupport.row;
import static io.kegdb.sql.SqlTestSupport.rows;
import static io.kegdb.sql.SqlTestSupport.update;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Joins, IN and NOT IN on BOOLEAN columns (a merge join on a BOOLEAN key could not be compiled). */
class BooleanJoinKeyTest extends InMemorySessionTest {

    @BeforeEach
    void createTables() throws SqlError {
        update(s, "CREATE TABLE b1 (k BOOLEAN PRIMARY KEY, v INTEGER)");
        update(s, "INSERT INTO b1 VALUES (TRUE, 1)");
        update(s, "CREATE TABLE b2 (k INTEGER PRIMARY KEY, v BOOLEAN)");
        update(s, "INSERT INTO b2 VALUES (1, TRUE), (2, NULL), (3, FALSE)");
    }

    @Test
    void notInAndInOverBooleanKeysAndValues() throws SqlError {
        assertEquals(List.of(), rows(s, "SELECT k FROM b1 WHERE k NOT IN (SELECT k FROM b1)"));
        assertEquals(List.of(row(true)), rows(s, "SELECT k FROM b1 WHERE k NOT IN (SELECT NOT k FROM b1)"));
        assertEquals(List.of(row(true)), rows(s, "SELECT k FROM b1 WHERE k IN (SELECT k FROM b1)"));
        assertEquals(List.of(row(3)), rows(s, "SELECT k FROM b2 WHERE v NOT IN (SELECT k FROM b1)"));
        assertEquals(List.of(row(1)), rows(s, "SELECT k FROM b2 WHERE v IN (SELECT k FROM b1)"));
        assertEquals(List.of(row(1), row(3)), rows(s, "SELECT a.k FROM b2 a JOIN b2 b ON a.v = b.v ORDER BY a.k"));
        assertEquals(List.of(row(1, 1)), rows(s, "SELECT b2.k, b1.v FROM b2 JOIN b1 ON b2.v = b1.k"));
        assertEquals(1, update(s, "DELETE FROM b2 WHERE v NOT IN (SELECT k FROM b1)"));
    }
}
