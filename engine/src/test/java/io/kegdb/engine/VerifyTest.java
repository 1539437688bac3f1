package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.kegdb.engine.BitcaskTest.b;
import static io.kegdb.engine.BitcaskTest.small;
import static org.junit.jupiter.api.Assertions.*;

/** verify() passes at every stage of a store's life, and names the file, offset or key when it should not. */
class VerifyTest {

    @TempDir
    Path dir;

    /** Overwrites, deletes, batches (with a key twice), over many small segments. */
    static void churn(Bitcask db, long seed, int ops) {
        Random rnd = new Random(seed);
        for (int i = 0; i < ops; i++) {
            String key = "k" + rnd.nextInt(300);
            switch (rnd.nextInt(10)) {
                case 0 -> db.delete(b(key), Durability.NO_SYNC);
                case 1 -> db.write(new WriteBatch().put(b(key), b("batch" + i)).delete(b("k" + rnd.nextInt(300)))
                        .put(b(key), b("again" + i + "y".repeat(rnd.nextInt(40)))), Durability.NO_SYNC);
                default -> db.put(b(key), b("v" + i + "x".repeat(rnd.nextInt(120))), Durability.NO_SYNC);
            }
        }
    }

    private static void assertOk(Bitcask db) throws IOException {
        CheckReport r = db.verify();
        assertTrue(r.ok(), r.toString());
        assertEquals(db.stats().keys(), r.keysChecked());
        assertEquals(db.stats().segments(), r.segments());
        assertTrue(r.recordsScanned() >= r.keysChecked());
    }

    @Test
    void consistentThroughWritesMergesRestartsAndRecovery() throws IOException {
        try (Bitcask db = Bitcask.open(dir, small())) {
            assertOk(db);
            churn(db, 1, 3000);
            assertOk(db);
            db.merge();
            assertOk(db);
            churn(db, 2, 1000);
            db.merge();
            assertOk(db);
        }
        // Restart from hints.
        try (Bitcask db = Bitcask.open(dir, small())) {
            assertOk(db);
            churn(db, 3, 500);
            assertOk(db);
        }
        // Restart by scanning every segment.
        deleteAll("*.hint");
        try (Bitcask db = Bitcask.open(dir, small())) {
            assertOk(db);
            db.merge();
            assertOk(db);
            assertTrue(db.stats().merges() > 0);
        }
        try (Bitcask db = Bitcask.open(dir, small().toBuilder().readOnly(true).build())) {
            assertOk(db);
        }
    }

    @Test
    void reportsADamagedRecordWithFileAndOffset() throws IOException {
        try (Bitcask db = Bitcask.open(dir, small())) {
            churn(db, 4, 1000);
            Path sealed = files("*.data").get(1);
            flip(sealed, 200);
            CheckReport r = db.verify();
            assertFalse(r.ok());
            String all = String.join("\n", r.problems());
            assertTrue(all.contains(sealed.toString() + ": damaged data at offset "), all);
        }
    }

    @Test
    void reportsKeydirAndAccountingThatDisagreeWithTheSegments() throws IOException {
        try (Bitcask db = Bitcask.open(dir, small())) {
            db.put(b("alive"), b("1"));
            db.put(b("other"), b("2"));
            Segment active = db.table().get(Location.segment(db.keyDir().get(b("alive"))));
            db.keyDir().remove(b("alive"));
            active.addLive(-RecordFormat.size(5, 1));
            CheckReport r = db.verify();
            assertEquals(1, r.problemCount(), r.toString());
            assertTrue(r.problems().get(0).contains("key 'alive' is not in the keydir")
                    && r.problems().get(0).contains("come back on restart"), r.toString());
            active.addLive(7);
            r = db.verify();
            assertEquals(2, r.problemCount(), r.toString());
            assertTrue(r.problems().get(1).contains(active.path() + ": accounting says"), r.toString());
        }
    }

    private List<Path> files(String glob) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, glob)) {
            ds.forEach(out::add);
        }
        out.sort(null);
        return out;
    }

    private void deleteAll(String glob) throws IOException {
        for (Path p : files(glob)) {
            Files.delete(p);
        }
    }

    static void flip(Path file, long offset) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(offset);
            int v = raf.read();
            raf.seek(offset);
            raf.write(v ^ 0x5A);
        }
    }
}
