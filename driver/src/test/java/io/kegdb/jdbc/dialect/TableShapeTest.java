package io.kegdb.jdbc.dialect;

import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static io.kegdb.jdbc.dialect.Databases.exec;
import static io.kegdb.jdbc.dialect.Databases.failure;
import static io.kegdb.jdbc.dialect.Databases.rows;
import static io.kegdb.jdbc.dialect.Databases.update;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The CREATE TABLE and DROP TABLE forms schema generators send (Hibernate's among them). */
class TableShapeTest {

    @Test
    void keyNamedByPrimaryKeyClauseMayComeSecond() throws SQLException {
        try (Connection c = Databases.kegdb()) {
            // Hibernate orders columns by name; its table generator's table has the same shape.
            exec(c, "create table DOCS (CONTENT varbinary(255), NAME varchar(255) not null, primary key (NAME))",
                    "create table hibernate_sequences (next_val bigint, sequence_name varchar(255) not null,"
                    + " primary key (sequence_name))");
            assertEquals(1, update(c, "insert into DOCS (CONTENT, NAME) values (?, ?)", new byte[] {1, 2}, "a"));
            assertEquals(1, update(c, "insert into hibernate_sequences (sequence_name, next_val) values (?, ?)",
                    "default", 1L));
            assertEquals(1, update(c, "update hibernate_sequences set next_val = ? where next_val = ?"
                    + " and sequence_name = ?", 2L, 1L, "default"));
            assertEquals(List.of(List.of(2L)), rows(c, "select next_val from hibernate_sequences"
                    + " where sequence_name = ?", "default"));
            assertArrayEquals(new byte[] {1, 2}, (byte[]) rows(c, "select CONTENT from DOCS where NAME = 'a'")
                    .get(0).get(0));
            // The key is the table's key: a second row with the same NAME is a duplicate.
            assertEquals("23505", failure(c, "insert into DOCS (CONTENT, NAME) values (X'00', 'a')"));
            // The lengths are enforced.
            assertEquals("22001", failure(c, "insert into DOCS (CONTENT, NAME) values (X'00', ?)", "x".repeat(256)));
        }
    }

    @Test
    void tableIsStoredKeyFirstWhateverTheDeclaredOrder() throws SQLException {
        try (Connection c = Databases.kegdb()) {
            exec(c, "create table t (v varchar(10), k bigint, primary key (k))",
                    "insert into t values (1, 'one')");
            assertEquals(List.of(List.of(1L, "one")), rows(c, "select * from t"));
            DatabaseMetaData md = c.getMetaData();
            List<String> columns = new ArrayList<>();
            try (ResultSet rs = md.getColumns(null, "PUBLIC", "T", null)) {
                while (rs.next()) {
                    columns.add(rs.getInt("ORDINAL_POSITION") + ":" + rs.getString("COLUMN_NAME"));
                }
            }
            assertEquals(List.of("1:K", "2:V"), columns);
        }
    }

    @Test
    void primaryKeyClauseMustNameAColumn() throws SQLException {
        try (Connection c = Databases.kegdb()) {
            assertEquals("42S22", failure(c, "create table t (a bigint, b bigint, primary key (c))"));
            assertEquals("42000", failure(c, "create table t (a bigint, b bigint not null, primary key (a))"));
        }
    }

    @Test
    void dropTableTakesCascadeOrRestrict() throws SQLException {
        try (Connection c = Databases.kegdb()) {
            exec(c, "create table a (k bigint primary key, v bigint)", "create table b (k bigint primary key, v bigint)");
            exec(c, "drop table a cascade", "drop table if exists b restrict", "drop table if exists b cascade");
            exec(c, "drop table if exists nope cascade constraints".replace(" constraints", ""));
            assertEquals("42S02", failure(c, "drop table a restrict"));
            assertEquals("42000", failure(c, "drop table a cascade restrict"));
            assertNull(failure(c, "create table a (k bigint primary key, v bigint)"));
        }
    }
}
