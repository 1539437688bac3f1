package io.kegdb.jdbc.console;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import sqlline.ConsoleSqlLine;
import sqlline.SqlLine;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link ConsoleSqlLine} relies on in the pinned sqlline version, run through sqlline itself: every line of
 * a {@code -f} script and of an interactive session reaches its {@code dispatch}, an aborted script gives it one
 * more {@code error} call to reword, and the console's application settings give the banner. A sqlline upgrade
 * that changes any of these fails here rather than in a user's console.
 */
class SqllineContractTest {

    @TempDir
    Path tmp;

    private record Session(SqlLine.Status status, String out, String err, boolean failed) {
    }

    @BeforeAll
    static void dumbTerminal() {
        System.setProperty("org.jline.terminal.dumb", "true");
    }

    private Session run(boolean script, boolean continueOnError, String input) throws IOException {
        Path db = tmp.resolve("db");
        List<String> args = new ArrayList<>(List.of("-d", "io.kegdb.jdbc.KegDriver", "-u", "jdbc:kegdb:" + db, "-n", "", "-p", "",
                "--isolation=TRANSACTION_READ_COMMITTED"));
        ByteArrayInputStream in = new ByteArrayInputStream(new byte[0]);
        if (script) {
            args.addAll(List.of("--silent=true", "--force=" + continueOnError, "-f",
                    Files.writeString(tmp.resolve("script.sql"), input).toString()));
        } else {
            in = new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8));
        }
        ConsoleSqlLine sqlline = new ConsoleSqlLine(new ConsoleApplication("9.9"), script, continueOnError);
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        sqlline.setOutputStream(out);
        sqlline.setErrorStream(err);
        SqlLine.Status status = sqlline.begin(args.toArray(String[]::new), in, false);
        return new Session(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8), sqlline.failed());
    }

    @Test
    void aScriptLineReachesDispatchStatementByStatementAndStopsAtTheFirstFailure() throws IOException {
        Session s = run(true, false, "INSERT INTO KV VALUES ('a', 'x'); INSERT INTO KV VALUES ('a', 'y'); INSERT INTO KV VALUES ('c', 'z');\n"
                + "SELECT K FROM KV;\n");
        assertTrue(s.failed(), s.out() + s.err());
        assertTrue(s.err().contains("state=23505"), s.err());
        assertTrue(s.err().contains("kegdb: the script stopped at the failing statement; --continue-on-error runs the rest"), s.err());
        assertFalse(s.err().contains("force"), "sqlline's own abort note is replaced: " + s.err());
        assertFalse(s.out().contains("| K "), "nothing after the failure ran: " + s.out());
        assertTrue(s.out().contains("1 row affected"), "a script's update count is on stdout: " + s.out());
    }

    @Test
    void continueOnErrorRunsTheRestOfTheLineAndTheScript() throws IOException {
        Session s = run(true, true, "INSERT INTO KV VALUES ('a', 'x'); INSERT INTO KV VALUES ('a', 'y'); INSERT INTO KV VALUES ('c', 'z');\n"
                + "SELECT K FROM KV ORDER BY K;\n");
        assertTrue(s.failed(), s.out() + s.err());
        assertTrue(s.out().contains("| a |") && s.out().contains("| c |"), s.out());
    }

    @Test
    void anInteractiveSessionShowsTheBannerAndItsLinesReachDispatch() throws IOException {
        Session s = run(false, false, "SHOW TABLES; describe kv;\nSELECT 'after' AS W; quit; SELECT 'never' AS W;\nSELECT 'gone' AS W;\n");
        String banner = new ConsoleApplication("9.9").getInfoMessage();
        assertTrue(banner.startsWith("KegDB 9.9 SQL console.") && banner.contains("!help") && banner.contains("!tables")
                && banner.contains("!quit"), banner);
        assertTrue(s.out().contains(banner) || s.err().contains(banner), "sqlline shows the application's banner: " + s.out() + s.err());
        assertTrue(s.out().contains("| PUBLIC      | KV "), "SHOW TABLES ran as !tables: " + s.out());
        assertTrue(s.out().contains("| V "), "DESCRIBE ran as !describe: " + s.out());
        // (the terminal echoes the input lines: results are the table rows)
        assertTrue(s.out().contains("| after |"), s.out());
        assertFalse(s.out().contains("| never |") || s.out().contains("| gone |"), "quit ends the line and the session: " + s.out());
        assertFalse(s.failed(), s.err());
    }
}
