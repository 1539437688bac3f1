package io.kegdb.tests.launcher;

import io.kegdb.tests.launcher.Launcher.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;

import static io.kegdb.tests.launcher.Launcher.kegdb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hot backups from the command line: {@code BACKUP TO} in a console script, and the advice of {@code ./kegdb backup}. */
class BackupLauncherTest {

    @TempDir
    Path tmp;

    @Test
    void backupToInAScriptWritesACopyThatChecksCleanAndOpens() throws Exception {
        Path dir = tmp.resolve("db");
        Path copy = tmp.resolve("copy");
        Run r = kegdb("sql", dir.toString(), "-e", "INSERT INTO KV VALUES ('saved', 'yes'); BACKUP TO '" + copy + "';");
        assertEquals(0, r.exit(), r.out() + r.err());
        Run check = kegdb("check", copy.toString());
        assertEquals(0, check.exit(), check.out() + check.err());
        Run rows = kegdb("sql", copy.toString(), "-e", "SELECT V FROM KV WHERE K = 'saved';");
        assertEquals(0, rows.exit(), rows.err());
        assertTrue(rows.out().contains("| yes |"), rows.out());
    }

    @Test
    void backupOfADatabaseInUseSaysToRunBackupToFromAConnection() throws Exception {
        Path dir = tmp.resolve("db");
        Path copy = tmp.resolve("copy");
        try (Connection live = DriverManager.getConnection("jdbc:kegdb:" + dir)) { // "another process" to the launcher
            live.createStatement().executeUpdate("INSERT INTO KV VALUES ('k', 'v')");
            Run backup = kegdb("backup", dir.toString(), copy.toString());
            assertEquals(1, backup.exit());
            String advice = "BACKUP TO '" + copy.toAbsolutePath() + "'";
            assertTrue(backup.err().contains(advice), backup.err());
            live.createStatement().execute(advice); // what the advice says, from the live connection
        }
        Run check = kegdb("check", copy.toString());
        assertEquals(0, check.exit(), check.out() + check.err());
    }
}
