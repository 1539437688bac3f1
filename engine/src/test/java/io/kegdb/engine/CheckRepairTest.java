package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.TreeMap;

import static io.kegdb.engine.BitcaskTest.b;
import static io.kegdb.engine.BitcaskTest.s;
import static io.kegdb.engine.BitcaskTest.small;
import static org.junit.jupiter.api.Assertions.*;

/** Bitcask.check and Bitcask.repair on closed stores, one kind of damage at a time. */
class CheckRepairTest {

    @TempDir
    Path dir;

    /** A closed store with merged and plain segments; returns its contents. */
    private TreeMap<String, String> build() throws IOException {
        TreeMap<String, String> model = new TreeMap<>();
        try (Bitcask db = Bitcask.open(dir, small())) {
            for (int i = 0; i < 1500; i++) {
                String k = "k" + i % 150;
                String v = "v" + i + "-" + "x".repeat(i % 40);
                db.put(b(k), b(v));
                model.put(k, v);
            }
            db.merge();
            for (int i = 0; i < 300; i++) {
                String k = "k" + i % 150;
                db.put(b(k), b("w" + i));
                model.put(k, "w" + i);
            }
        }
        return model;
    }

    private TreeMap<String, String> contents() throws IOException {
        TreeMap<String, String> out = new TreeMap<>();
        try (Bitcask db = Bitcask.open(dir, small())) {
            assertTrue(db.verify().ok(), db.verify().toString());
            for (byte[] k : db.listKeys()) {
                out.put(s(k), s(db.get(k)));
            }
        }
        return out;
    }

    private Path merged() throws IOException {
        for (Path f : SegmentFiles.list(dir)) {
            if (SegmentHeader.decode(SegmentFiles.headerBytes(f), f).merged()) {
                return f;
            }
        }
        throw new AssertionError("no merged segment");
    }

    @Test
    void aHealthyStoreChecksOkAndRepairChangesNothing() throws IOException {
        TreeMap<String, String> model = build();
        CheckReport r = Bitcask.check(dir);
        assertTrue(r.ok(), r.toString());
        assertEquals(150, r.keysChecked());
        assertTrue(r.notes().contains("LOCK is free: no process has the store open"), r.toString());
        CheckReport fixed = Bitcask.repair(dir);
        assertTrue(fixed.ok() && fixed.changes().isEmpty(), fixed.toString());
        assertEquals(model, contents());
    }

    @Test
    @SuppressWarnings("try") // the store is held open, unused, while check and repair are asked
    void anOpenStoreIsNotCheckedAndNotRepaired() throws IOException {
        build();
        try (Bitcask db = Bitcask.open(dir, small())) {
            CheckReport r = Bitcask.check(dir);
            assertFalse(r.ok());
            assertTrue(r.problems().get(0).contains("already open in this process"), r.toString());
            IOException e = assertThrows(IOException.class, () -> Bitcask.repair(dir));
            assertTrue(e.getMessage().contains("LOCK"), e.getMessage());
        }
    }

    @Test
    void oneDamagedByteInAMergedHeaderIsRestoredExactly() throws IOException {
        TreeMap<String, String> model = build();
        Path m = merged();
        VerifyTest.flip(m, 19); // the low byte of the replay order
        CheckReport r = Bitcask.check(dir);
        assertFalse(r.ok());
        assertTrue(r.problems().get(0).startsWith(m + ": segment header checksum mismatch at offset 0"), r.toString());
        assertThrows(IOException.class, () -> Bitcask.open(dir, small()).close());
        CheckReport fixed = Bitcask.repair(dir);
        assertTrue(fixed.ok(), fixed.toString());
        assertTrue(fixed.changes().get(0).contains("restored from the damaged bytes"), fixed.toString());
        assertEquals(model, contents());
    }

    @Test
    void aZeroedPlainHeaderIsRebuilt() throws IOException {
        TreeMap<String, String> model = build();
        Path plain = SegmentFiles.list(dir).get(SegmentFiles.list(dir).size() - 2);
        try (FileChannel ch = FileChannel.open(plain, StandardOpenOption.WRITE)) {
            ch.write(java.nio.ByteBuffer.allocate(SegmentHeader.SIZE), 0);
        }
        CheckReport fixed = Bitcask.repair(dir);
        assertTrue(fixed.ok(), fixed.toString());
        assertTrue(fixed.changes().get(0).contains("rebuilt as a plain segment"), fixed.toString());
        assertEquals(model, contents());
    }

    @Test
    void tornTailLeftoversAndStaleHintsAreReportedAndFixed() throws IOException {
        TreeMap<String, String> model = build();
        List<Path> data = SegmentFiles.list(dir);
        Path newest = data.get(data.size() - 1);
        try (FileChannel ch = FileChannel.open(newest, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {1, 2, 3, 4, 1, 0, 9, 0, 0}));
        }
        Files.writeString(dir.resolve("000000777.hint"), "orphan");
        Files.writeString(dir.resolve("000000778.data.tmp"), "unfinished");
        Path hint = dir.resolve(Segment.fileName(SegmentFiles.id(data.get(0)), HintFile.SUFFIX));
        byte[] h = Files.readAllBytes(hint);
        h[h.length / 2] ^= 1;
        Files.write(hint, h);

        CheckReport r = Bitcask.check(dir);
        String all = String.join("\n", r.problems());
        assertEquals(5, r.problemCount(), r.toString());
        assertTrue(all.contains(newest.getFileName().toString().replace(".data", ".hint")
                + ": fails its checksum, framing or length check"), "the newest hint no longer fits its segment: " + all);
        assertTrue(all.contains(newest + ": torn tail at offset " + (Files.size(newest) - 9) + " (9 bytes"), all);
        assertTrue(all.contains("000000777.hint: hint file without its data segment"), all);
        assertTrue(all.contains("000000778.data.tmp: temporary file"), all);
        assertTrue(all.contains(hint + ": fails its checksum"), all);

        CheckReport fixed = Bitcask.repair(dir);
        assertTrue(fixed.ok(), fixed.toString());
        assertEquals(5, fixed.changes().size(), fixed.toString());
        assertTrue(fixed.changes().contains(newest + ": truncated the torn tail at offset " + (Files.size(newest))
                + " (9 bytes)"), fixed.toString());
        assertEquals(model, contents());
    }

    @Test
    void aDamagedSealedSegmentIsRewrittenKeepingEveryIntactRecord() throws IOException {
        build();
        Path sealed = SegmentFiles.list(dir).get(SegmentFiles.list(dir).size() - 3);
        StoreHistory history = StoreHistory.read(dir);
        VerifyTest.flip(sealed, 100);
        StoreHistory.Damage damage = new StoreHistory.Damage();
        damage.add(sealed.getFileName().toString(), 100, 101);
        CheckReport r = Bitcask.check(dir);
        assertEquals(2, r.problemCount(), r.toString());
        assertTrue(r.problems().get(0).contains(".hint: indexes a damaged segment (first damaged record at offset "),
                r.toString());
        assertTrue(r.problems().get(1).matches(java.util.regex.Pattern.quote(sealed.toString())
                + ": damaged data at offset \\d+\\.\\.\\d+ \\(\\d+ bytes; .*"), r.toString());
        CheckReport fixed = Bitcask.repair(dir);
        assertTrue(fixed.ok(), fixed.toString());
        TreeMap<String, String> after = contents();
        for (String key : history.byKey.keySet()) {
            assertEquals(history.survivor(key, damage), after.get(key), key);
        }
    }
}
