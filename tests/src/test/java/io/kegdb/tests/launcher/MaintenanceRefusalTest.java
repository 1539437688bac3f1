package io.kegdb.tests.launcher;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;
import io.kegdb.tests.launcher.Launcher.Run;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static io.kegdb.tests.launcher.Launcher.kegdb;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code ./kegdb check|merge|backup} on stores in use, on directories that are not stores, and --help. */
class MaintenanceRefusalTest {

    @TempDir
    Path tmp;

    private Path smallStore() throws Exception {
        Path dir = tmp.resolve("db");
        try (Bitcask db = Bitcask.open(dir)) {
            db.put("k".getBytes(StandardCharsets.UTF_8), "v".getBytes(StandardCharsets.UTF_8), Durability.SYNC);
        }
        return dir;
    }

    @Test
    @SuppressWarnings("try") // the store is held open, unused, so that the maintenance tools find it locked
    void aStoreOpenInAnotherProcessIsInUseNotDamaged() throws Exception {
        Path dir = smallStore();
        try (Bitcask held = Bitcask.open(dir)) {
            Run check = kegdb("check", dir.toString());
            assertEquals(1, check.exit());
            assertTrue(check.err().contains("is open in another process"), check.err());
            assertFalse((check.out() + check.err()).contains("repair fixes"), check.out());
            Run backup = kegdb("backup", dir.toString(), tmp.resolve("copy").toString());
            assertEquals(1, backup.exit());
            assertTrue(backup.err().contains("BACKUP TO '" + tmp.resolve("copy").toAbsolutePath() + "'"), backup.err());
        }
    }

    @Test
    @SuppressWarnings("try") // the reader is held open, unused, while the tools run
    void aReadOnlyReaderDoesNotMakeTheLockFree() throws Exception {
        Path dir = smallStore();
        try (Bitcask reader = Bitcask.open(dir, BitcaskOptions.builder().readOnly(true).build())) {
            Run check = kegdb("check", dir.toString());
            assertEquals(0, check.exit(), check.out() + check.err());
            assertTrue(check.out().contains("read-only reader has the store open"), check.out());
            assertFalse(check.out().contains("LOCK is free"), check.out());
        }
    }

    @Test
    void directoriesThatAreNotStoresAreRefused() throws Exception {
        Path empty = Files.createDirectories(tmp.resolve("empty"));
        Path other = Files.createDirectories(tmp.resolve("photos"));
        Files.writeString(other.resolve("cat.jpg"), "not a segment");
        for (String command : new String[] {"check", "merge"}) {
            for (Path dir : new Path[] {empty, other}) {
                Run r = kegdb(command, dir.toString());
                assertEquals(1, r.exit(), command + " " + dir + ": " + r.out() + r.err());
                assertTrue(r.err().contains("is not a KegDB store"), r.err());
            }
        }
        assertFalse(Files.exists(empty.resolve("LOCK")), "merge did not turn the directory into a store");
        assertEquals(1, Files.list(other).count());
    }

    @Test
    void mergeThatReclaimsNothingSaysWhy() throws Exception {
        Path dir = smallStore();
        Run merge = kegdb("merge", dir.toString());
        assertEquals(0, merge.exit(), merge.err());
        assertTrue(merge.out().contains("nothing to reclaim: the store has only its active segment"), merge.out());
    }

    @Test
    void helpOfASubcommandPrintsUsage() throws Exception {
        Run help = kegdb("check", "--help");
        assertEquals(0, help.exit(), help.err());
        assertTrue(help.out().contains("Usage: kegdb check DIR"), help.out());
        assertFalse(help.err().contains("no such store directory"), help.err());
    }
}
