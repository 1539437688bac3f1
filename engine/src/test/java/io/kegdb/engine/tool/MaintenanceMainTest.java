package io.kegdb.engine.tool;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.*;

/** The maintenance commands, run in-process: exit codes, results on stdout, progress on stderr. */
class MaintenanceMainTest {

    @TempDir
    Path tmp;

    record Run(int exit, String out, String err) {
    }

    private static Run run(ProgressDisplay.Mode mode, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = new MaintenanceMain(new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), mode).run(args);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private static Run run(String... args) {
        return run(ProgressDisplay.Mode.PLAIN, args);
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A closed store of many small segments with garbage to merge. */
    private Path store() throws IOException {
        Path dir = tmp.resolve("db");
        try (Bitcask db = Bitcask.open(dir, BitcaskOptions.builder().segmentSize(4096).mergeInterval(Duration.ZERO).build())) {
            for (int i = 0; i < 2000; i++) {
                db.put(b("key" + i % 200), b("value-" + i + "-" + "x".repeat(i % 50)), Durability.NO_SYNC);
            }
            for (int i = 0; i < 200; i += 3) {
                db.delete(b("key" + i), Durability.NO_SYNC);
            }
        }
        return dir;
    }

    @Test
    void usageErrorsExitWithTwo() {
        assertEquals(2, run().exit());
        Run unknown = run("fsck", "x");
        assertEquals(2, unknown.exit());
        assertTrue(unknown.err().contains("unknown command 'fsck'") && unknown.err().contains("Usage:"), unknown.err());
        assertEquals(2, run("check").exit());
        assertEquals(2, run("backup", "only-one").exit());
        assertEquals(2, run("check", "a", "b").exit());
        Run help = run("--help");
        assertEquals(0, help.exit());
        assertTrue(help.out().contains("repair DIR"), help.out());
    }

    @Test
    void checkOfAHealthyStoreIsOkWithPlainProgressLines() throws IOException {
        Path dir = store();
        Run r = run("check", dir.toString());
        assertEquals(0, r.exit(), r.out() + r.err());
        assertTrue(r.out().contains("check: OK"), r.out());
        assertTrue(r.out().contains("note: LOCK is free"), r.out());
        assertTrue(r.out().matches("(?s).*\\d+ segments, \\d+ records, 133 keys, .*"), r.out());
        List<String> lines = r.err().lines().toList();
        assertTrue(lines.size() >= 2 && lines.size() <= 12, r.err());
        assertTrue(lines.get(lines.size() - 1).startsWith("check db: 100%"), r.err());
        assertFalse(r.err().contains("\r"), "no carriage returns when stderr is not a terminal");
    }

    @Test
    void terminalProgressRedrawsOneLine() throws IOException {
        Path dir = store();
        Run r = run(ProgressDisplay.Mode.TERMINAL, "check", dir.toString());
        assertEquals(0, r.exit());
        assertTrue(r.err().startsWith("\rcheck db ["), r.err());
        assertTrue(r.err().contains("100%") && r.err().endsWith("\n"), r.err());
        assertEquals(1, r.err().split("\n").length, "one line, redrawn");
    }

    @Test
    void checkFindsDamageAndRepairFixesIt() throws IOException {
        Path dir = store();
        Path sealed;
        try (Stream<Path> files = Files.list(dir)) {
            sealed = files.filter(f -> f.toString().endsWith(".data")).sorted().toList().get(2);
        }
        try (RandomAccessFile raf = new RandomAccessFile(sealed.toFile(), "rw")) {
            raf.seek(300);
            int v = raf.read();
            raf.seek(300);
            raf.write(v ^ 0xFF);
        }
        Files.writeString(dir.resolve("000000999.data.tmp"), "left over");
        Run check = run("check", dir.toString());
        assertEquals(1, check.exit(), check.out());
        assertTrue(check.out().contains("problem: " + sealed + ": damaged data at offset "), check.out());
        assertTrue(check.out().contains("000000999.data.tmp: temporary file"), check.out());
        assertTrue(check.out().contains("problem(s) found; ./kegdb repair fixes them"), check.out());

        Run repair = run("repair", dir.toString());
        assertEquals(0, repair.exit(), repair.out());
        assertTrue(repair.out().contains("changed: " + sealed + ": rewrote the segment without 1 damaged region(s)"),
                repair.out());
        assertTrue(repair.out().contains("changed: " + dir.resolve("000000999.data.tmp") + ": deleted"), repair.out());
        assertTrue(repair.out().contains("repair: OK, the store is consistent"), repair.out());

        Run again = run("check", dir.toString());
        assertEquals(0, again.exit(), again.out());
        Run nothing = run("repair", dir.toString());
        assertEquals(0, nothing.exit());
        assertTrue(nothing.out().contains("repair: nothing to change"), nothing.out());
    }

    @Test
    void mergeAndBackupReportWhatTheyDid() throws IOException {
        Path dir = store();
        Run merge = run("merge", dir.toString());
        assertEquals(0, merge.exit(), merge.err());
        assertTrue(merge.out().matches("(?s)merge: \\d+ segments \\(.*\\) -> \\d+ segments \\(.*\\), .* reclaimed, 133 keys\\n"),
                merge.out());
        assertTrue(merge.err().contains("merge db: 100%"), merge.err());
        Path target = tmp.resolve("copy");
        Run backup = run("backup", dir.toString(), target.toString());
        assertEquals(0, backup.exit(), backup.err());
        assertTrue(backup.out().startsWith("backup: 133 keys in "), backup.out());
        try (Bitcask copy = Bitcask.open(target)) {
            assertEquals(133, copy.stats().keys());
            assertTrue(copy.verify().ok());
        }
        Run again = run("backup", dir.toString(), target.toString());
        assertEquals(1, again.exit());
        assertTrue(again.err().contains("already holds a store"), again.err());
    }

    @Test
    @SuppressWarnings("try") // the store is held open, unused, so that the tools find its LOCK held
    void aStoreOpenElsewhereIsRefused() throws IOException {
        Path dir = store();
        try (Bitcask open = Bitcask.open(dir)) {
            Run check = run("check", dir.toString());
            assertEquals(1, check.exit());
            // refused before reading anything: the tool runs as its own process, so the holder is another one
            assertTrue(check.err().startsWith("kegdb check: ") && check.err().contains("its LOCK is held")
                    && check.err().contains("stop that process first"), check.err());
            assertEquals("", check.out());
            Run merge = run("merge", dir.toString());
            assertEquals(1, merge.exit());
            assertTrue(merge.err().startsWith("kegdb merge: ") && merge.err().contains("LOCK"), merge.err());
        }
        Run missing = run("check", tmp.resolve("nope").toString());
        assertEquals(1, missing.exit());
        assertTrue(missing.err().contains("no such store directory"), missing.err());
    }
}
