package io.kegdb.tests.launcher;

import io.kegdb.engine.Bitcask;
import io.kegdb.tests.launcher.Launcher.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static io.kegdb.tests.launcher.Launcher.kegdb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ./kegdb sql DIR -e ...}: stopping at errors, update counts, one-line errors, console habits. */
class ConsoleScriptTest {

    @TempDir
    Path tmp;

    @Test
    void scriptStopsAtTheFirstFailingStatementAndExitsOne() throws Exception {
        Path dir = tmp.resolve("db");
        Run r = kegdb("sql", dir.toString(), "-e", "CREATE TABLE T (K VARCHAR PRIMARY KEY, V BIGINT);"
                + " INSERT INTO T VALUES ('a', 1); INSERT INTO T VALUES ('a', 2); INSERT INTO T VALUES ('c', 3);");
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("1 row affected"), "DML reports its update count: " + r.out());
        assertTrue(r.err().contains("state=23505"), r.err());
        assertTrue(r.err().contains("--continue-on-error"), "says how to go on: " + r.err());
        Run rows = kegdb("sql", dir.toString(), "-e", "SELECT K FROM T ORDER BY K;");
        assertEquals(0, rows.exit(), rows.err());
        assertTrue(rows.out().contains("| a |"), rows.out());
        assertFalse(rows.out().contains("| c |"), "the statement after the failure did not run: " + rows.out());
    }

    @Test
    void continueOnErrorRunsTheRestAndStillExitsOne() throws Exception {
        Path dir = tmp.resolve("db");
        Run r = kegdb("sql", dir.toString(), "--continue-on-error", "-e", "INSERT INTO KV VALUES ('a', 'x');"
                + " INSERT INTO KV VALUES ('a', 'y'); UPDATE KV SET V = 'z'; SELECT K, V FROM KV;");
        assertEquals(1, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("| a | z |"), r.out());
        assertTrue(r.out().indexOf("1 row affected") < r.out().indexOf("| a | z |"), r.out());
    }

    @Test
    void syntaxErrorIsOneLineWithPositionAndToken() throws Exception {
        Run r = kegdb("sql", tmp.resolve("db").toString(), "-e", "SELECT * FROM KV WHERE;");
        assertEquals(1, r.exit());
        String all = (r.out() + r.err()).strip();
        assertEquals(1, all.lines().filter(l -> !l.contains("--continue-on-error")).count(), all);
        assertTrue(all.contains("Encountered \"<EOF>\" at line 1, column 22"), all);
        assertFalse(all.contains("Was expecting"), all);
    }

    @Test
    void consoleHabitsShowTablesDescribeAndQuit() throws Exception {
        Path dir = tmp.resolve("db");
        Run r = kegdb("sql", dir.toString(), "-e",
                "CREATE TABLE PETS (NAME VARCHAR PRIMARY KEY, LEGS BIGINT); SHOW TABLES; describe pets; quit; SELECT 1;");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("| PUBLIC      | PETS "), r.out());
        assertTrue(r.out().contains("| LEGS "), "DESCRIBE lists the columns: " + r.out());
        assertFalse(r.out().contains("EXPR$0"), "nothing runs after quit: " + r.out());
    }

    @Test
    @SuppressWarnings("try") // the store is held open, unused, so that the launcher finds it locked
    void aStoreOpenElsewhereIsOneLineAndExitOne() throws Exception {
        Path dir = tmp.resolve("db");
        try (Bitcask held = Bitcask.open(dir)) { // this JVM is "another process" to the launcher's
            Run r = kegdb("sql", dir.toString(), "-e", "SELECT 1;");
            assertEquals(1, r.exit(), r.out() + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith("kegdb sql: cannot open " + dir), r.err());
            assertTrue(r.err().contains("in use by another process"), r.err());
        }
    }
}
