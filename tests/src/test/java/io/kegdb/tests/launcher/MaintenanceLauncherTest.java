package io.kegdb.tests.launcher;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ./kegdb check|repair|merge|backup} run as a user would (bash), on the engine jar this build made. */
class MaintenanceLauncherTest {

    @TempDir
    Path tmp;

    record Run(int exit, String out, String err) {
    }

    private static Run kegdb(String... args) throws IOException, InterruptedException {
        Path root = Path.of(System.getProperty("user.dir")).resolve("..").normalize();
        List<String> cmd = new ArrayList<>(List.of("bash", root.resolve("kegdb").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().put("KEGDB_SKIP_BUILD", "1"); // the reactor built the engine jar before this module
        Path out = Files.createTempFile("kegdb-out", ".txt");
        Path err = Files.createTempFile("kegdb-err", ".txt");
        pb.redirectOutput(out.toFile()).redirectError(err.toFile()).redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        Process p = pb.start();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("./kegdb did not finish in 120 s");
        }
        return new Run(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8), Files.readString(err, StandardCharsets.UTF_8));
    }

    @Test
    void checkMergeRepairAndBackupFromTheLauncher() throws Exception {
        Path dir = tmp.resolve("db");
        try (Bitcask db = Bitcask.open(dir, BitcaskOptions.builder().segmentSize(4096).mergeInterval(Duration.ZERO).build())) {
            for (int i = 0; i < 1000; i++) {
                db.put(("k" + i % 100).getBytes(StandardCharsets.UTF_8), ("v" + i).getBytes(StandardCharsets.UTF_8),
                        Durability.NO_SYNC);
            }
        }
        Run check = kegdb("check", dir.toString());
        assertEquals(0, check.exit(), check.out() + check.err());
        assertTrue(check.out().contains("check: OK") && check.out().contains("100 keys"), check.out());
        assertTrue(check.err().contains("check db: 100%"), "plain progress lines when stderr is a file: " + check.err());

        Run merge = kegdb("merge", dir.toString());
        assertEquals(0, merge.exit(), merge.err());
        assertTrue(merge.out().startsWith("merge: "), merge.out());

        Files.writeString(dir.resolve("000000500.data.tmp"), "left by a crash");
        Run damaged = kegdb("check", dir.toString());
        assertEquals(1, damaged.exit(), damaged.out());
        Run repair = kegdb("repair", dir.toString());
        assertEquals(0, repair.exit(), repair.out() + repair.err());
        assertTrue(repair.out().contains("000000500.data.tmp: deleted"), repair.out());

        Run backup = kegdb("backup", dir.toString(), tmp.resolve("copy").toString());
        assertEquals(0, backup.exit(), backup.err());
        try (Bitcask copy = Bitcask.open(tmp.resolve("copy"))) {
            assertEquals(100, copy.stats().keys());
        }

        Run usage = kegdb("backup", dir.toString());
        assertEquals(2, usage.exit());
        assertTrue(usage.err().contains("Usage: kegdb check DIR"), usage.err());
    }
}
