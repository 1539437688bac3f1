package io.kegdb.tests.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sqlline.SqlLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A scripted sqlline session on a KegDB directory: DDL, DML, a rolled-back transaction, errors, metadata commands. */
class SqllineSessionTest {

    @TempDir
    Path tmp;

    @Test
    void scriptedSession() throws Exception {
        System.setProperty("org.jline.terminal.dumb", "true");
        Path dir = tmp.resolve("db");
        Path script = Files.writeString(tmp.resolve("session.sql"), String.join("\n",
                "CREATE TABLE FRUIT (NAME VARCHAR PRIMARY KEY, QTY BIGINT);",
                "INSERT INTO FRUIT VALUES ('apple', 3);",
                "INSERT INTO FRUIT VALUES ('pear', 5);",
                "INSERT INTO FRUIT VALUES ('pear', 6);",
                "!autocommit off",
                "UPDATE FRUIT SET QTY = 100 WHERE NAME = 'apple';",
                "!rollback",
                "INSERT INTO FRUIT VALUES ('plum', 7);",
                "!commit",
                "!autocommit on",
                "SELECT NAME, QTY FROM FRUIT ORDER BY NAME;",
                "!tables",
                "!primarykeys FRUIT",
                "!quit",
                ""));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        SqlLine sqlline = new SqlLine();
        sqlline.setOutputStream(out);
        sqlline.setErrorStream(err);
        SqlLine.Status status = sqlline.begin(new String[] {
            "-u", "jdbc:kegdb:" + dir, "-n", "", "-p", "", "--outputFormat=csv", "--force=true",
            "--isolation=TRANSACTION_READ_COMMITTED", "-f", script.toString()},
                new ByteArrayInputStream(new byte[0]), false);
        String stdout = out.toString(StandardCharsets.UTF_8);
        String stderr = err.toString(StandardCharsets.UTF_8);
        String all = stdout + stderr;

        assertTrue(all.contains("'apple','3'"), all);
        assertTrue(all.contains("'pear','5'"), all);
        assertTrue(all.contains("'plum','7'"), all);
        assertFalse(all.contains("'100'"), "the rolled-back update is not visible: " + all);
        assertTrue(all.contains("state=23505"), "duplicate key reported with its SQLState: " + all);
        assertTrue(all.contains("FRUIT"), all);
        assertFalse(all.contains("0A000"), all);
        assertEquals(SqlLine.Status.OTHER, status, "the duplicate key makes the script's status an error");

        try (Connection c = DriverManager.getConnection("jdbc:kegdb:" + dir);
             Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT NAME, QTY FROM FRUIT ORDER BY NAME")) {
            StringBuilder rows = new StringBuilder();
            while (rs.next()) {
                rows.append(rs.getString(1)).append('=').append(rs.getLong(2)).append(' ');
            }
            assertEquals("apple=3 pear=5 plum=7 ", rows.toString());
        }
    }
}
