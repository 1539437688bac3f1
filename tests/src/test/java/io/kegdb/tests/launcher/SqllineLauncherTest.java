package io.kegdb.tests.launcher;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code ./kegdb} console launcher, run as a user would (bash), on the jars this build produced:
 * {@code -e} statements, a script on stdin, {@code --help}, and errors.
 */
class SqllineLauncherTest {

    @TempDir
    Path tmp;

    record Run(int exit, String out, String err) {
    }

    private static Run kegdb(Path stdin, String... args) throws IOException, InterruptedException {
        Path root = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
        List<String> cmd = new ArrayList<>(List.of("bash", root.resolve("kegdb").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("KEGDB_SKIP_BUILD", "1"); // the reactor built the driver jar before this module
        pb.environment().put("COLUMNS", "120");
        Path out = Files.createTempFile("kegdb-out", ".txt");
        Path err = Files.createTempFile("kegdb-err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.redirectInput(stdin == null ? ProcessBuilder.Redirect.from(Path.of("/dev/null").toFile())
                : ProcessBuilder.Redirect.from(stdin.toFile()));
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("./kegdb did not finish in 120 s");
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void statementsFromDashE() throws Exception {
        Path dir = tmp.resolve("db");
        Run r = kegdb(null, "sql", dir.toString(), "-e",
                "CREATE TABLE PETS (NAME VARCHAR PRIMARY KEY, LEGS BIGINT); INSERT INTO PETS VALUES ('cat', 4);"
                        + " SELECT NAME, LEGS FROM PETS;");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("| cat  | 4    |"), r.out());
        assertTrue(Files.isDirectory(dir));
    }

    @Test
    void scriptOnStdinAndItsFailure() throws Exception {
        Path dir = tmp.resolve("db");
        Path script = Files.writeString(tmp.resolve("s.sql"), String.join("\n",
                "INSERT INTO KV VALUES ('a', 'apple');",
                "INSERT INTO KV VALUES ('b', 'banana');",
                "SELECT K, V FROM KV ORDER BY K;",
                ""));
        Run ok = kegdb(script, "sql", dir.toString());
        assertEquals(0, ok.exit(), ok.err());
        assertTrue(ok.out().contains("banana"), ok.out());

        Run dup = kegdb(script, "sql", dir.toString());
        assertNotEquals(0, dup.exit(), "a failing statement fails the script");
        assertTrue(dup.err().contains("state=23505"), dup.err());
    }

    @Test
    void helpListsSubcommandsAndUnknownOnesFail() throws Exception {
        Run help = kegdb(null, "--help");
        assertEquals(0, help.exit());
        assertTrue(help.out().contains("sql [DIR]"), help.out());
        Run bad = kegdb(null, "frobnicate");
        assertEquals(2, bad.exit());
        assertTrue(bad.err().contains("unknown command 'frobnicate'"), bad.err());
    }
}
