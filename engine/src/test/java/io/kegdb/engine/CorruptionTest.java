package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static io.kegdb.engine.BitcaskTest.b;
import static io.kegdb.engine.BitcaskTest.s;
import static org.junit.jupiter.api.Assertions.*;

/** Torn tails, flipped bytes in data and hint files: never a wrong value; repair or a precise error. */
class CorruptionTest {

    @TempDir
    Path dir;

    private static BitcaskOptions opts(boolean repair) {
        return BitcaskOptions.builder().segmentSize(4096).mergeInterval(Duration.ZERO).repair(repair).build();
    }

    private static String value(int i) {
        return "value-" + i + "-" + "z".repeat(i % 37);
    }

    private void fill(int n) throws IOException {
        try (Bitcask db = Bitcask.open(dir, opts(false))) {
            for (int i = 0; i < n; i++) {
                db.put(b("key" + i), b(value(i)), Durability.NO_SYNC);
            }
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

    /** Opens, and checks that every key present has its right value; returns how many are present. */
    private int openAndCount(int n, boolean repair) throws IOException {
        try (Bitcask db = Bitcask.open(dir, opts(repair))) {
            int present = 0;
            for (int i = 0; i < n; i++) {
                byte[] v = db.get(b("key" + i));
                if (v != null) {
                    assertEquals(value(i), s(v), "wrong value for key" + i);
                    present++;
                }
            }
            assertEquals(present, db.stats().keys());
            return present;
        }
    }

    @Test
    void tornTailIsTruncatedAtEveryCut() throws IOException {
        fill(300);
        Path last = files("*.data").get(files("*.data").size() - 1);
        Files.deleteIfExists(last.resolveSibling(last.getFileName().toString().replace(".data", ".hint")));
        byte[] original = Files.readAllBytes(last);
        Random rnd = new Random(3);
        int before = -1;
        for (int trial = 0; trial < 40; trial++) {
            int cut = SegmentHeader.SIZE + rnd.nextInt(original.length - SegmentHeader.SIZE);
            Files.write(last, java.util.Arrays.copyOf(original, cut));
            int present = openAndCount(300, false);
            assertTrue(present < 300, "records after the cut must be gone");
            assertTrue(Files.size(last) <= cut, "torn tail truncated");
            Files.write(last, original);
            before = Math.max(before, present);
        }
        assertEquals(300, openAndCount(300, false));
    }

    @Test
    void garbageAfterTheTailIsCutOff() throws IOException {
        fill(50);
        Path last = files("*.data").get(files("*.data").size() - 1);
        long size = Files.size(last);
        try (FileChannel ch = FileChannel.open(last, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(java.nio.ByteBuffer.wrap(new byte[] {3, 0, 0, 0, 1, 0, 3, 0, 0, 0, 9}));
        }
        assertEquals(50, openAndCount(50, false));
        assertEquals(size, Files.size(last));
    }

    @Test
    void flippedByteInSealedSegmentFailsOpenNamingFileAndOffsetUnlessRepaired() throws IOException {
        fill(400);
        List<Path> data = files("*.data");
        assertTrue(data.size() > 3);
        Path sealed = data.get(1);
        for (Path hint : files("*.hint")) {
            Files.delete(hint);
        }
        int offset = 200;
        flip(sealed, offset);
        IOException e = assertThrows(IOException.class, () -> Bitcask.open(dir, opts(false)));
        assertTrue(e.getMessage().contains(sealed.getFileName().toString()), e.getMessage());
        assertTrue(e.getMessage().matches(".*offset \\d+.*"), e.getMessage());
        int present = openAndCount(400, true);
        assertTrue(present < 400 && present > 390, "repair skips only the damaged record(s): " + present);
    }

    @Test
    void openingWithRepairWritesNoHintThatWouldHideTheRestOfADamagedSegment() throws IOException {
        fill(400);
        for (Path hint : files("*.hint")) {
            Files.delete(hint);
        }
        Path sealed = files("*.data").get(1);
        flip(sealed, 200);
        int present = openAndCount(400, true);
        assertTrue(present > 390, "repair keeps the records after the damage: " + present);
        // A hint of the records before the damage would make the next plain open drop the rest silently.
        assertFalse(Files.exists(sealed.resolveSibling(sealed.getFileName().toString().replace(".data", ".hint"))));
        IOException e = assertThrows(IOException.class, () -> Bitcask.open(dir, opts(false)));
        assertTrue(e.getMessage().contains(sealed.getFileName().toString()), e.getMessage());
        assertEquals(present, openAndCount(400, true));
    }

    @Test
    void flippedByteInHintIsIgnoredAndDataScanned() throws IOException {
        fill(400);
        try (Bitcask db = Bitcask.open(dir, opts(false))) {
            db.flush();
        }
        awaitHints();
        List<Path> hints = files("*.hint");
        assertFalse(hints.isEmpty(), "sealed segments get hint files");
        Random rnd = new Random(5);
        for (Path hint : hints) {
            flip(hint, rnd.nextInt((int) Files.size(hint)));
        }
        assertEquals(400, openAndCount(400, false));
    }

    @Test
    void readOfADamagedRecordFailsInsteadOfReturningWrongBytes() throws IOException {
        fill(400);
        Path sealed = files("*.data").get(0);
        try (Bitcask db = Bitcask.open(dir, opts(false))) {
            flip(sealed, 100);
            int failures = 0;
            for (int i = 0; i < 400; i++) {
                try {
                    byte[] v = db.get(b("key" + i));
                    assertEquals(value(i), s(v));
                } catch (UncheckedIOException e) {
                    assertTrue(e.getMessage().contains(sealed.getFileName().toString()), e.getMessage());
                    assertTrue(e.getMessage().contains("offset"), e.getMessage());
                    failures++;
                }
            }
            assertEquals(1, failures);
        }
    }

    @Test
    void damageInTheMiddleOfTheNewestSegmentIsNotMistakenForATornTail() throws IOException {
        fill(20);
        Path last = files("*.data").get(files("*.data").size() - 1);
        // As after a crash: a clean close leaves a hint for the newest segment, a crash does not.
        Files.deleteIfExists(last.resolveSibling(last.getFileName().toString().replace(".data", ".hint")));
        flip(last, SegmentHeader.SIZE + 5);
        IOException e = assertThrows(IOException.class, () -> Bitcask.open(dir, opts(false)));
        assertTrue(e.getMessage().contains("followed by valid records"), e.getMessage());
        assertTrue(openAndCount(20, true) >= 19);
    }

    @Test
    void aBatchCutOffBeforeItsCommitRecordIsATornTailNotDamage() throws IOException {
        fill(20);
        Path last = files("*.data").get(files("*.data").size() - 1);
        Files.deleteIfExists(last.resolveSibling(last.getFileName().toString().replace(".data", ".hint")));
        long size = Files.size(last);
        java.nio.ByteBuffer members = java.nio.ByteBuffer.allocate(200);
        RecordFormat.encode(members, RecordFormat.BATCH_PUT, b("batch-a"), b("1"));
        RecordFormat.encode(members, RecordFormat.BATCH_PUT, b("batch-b"), b("2"));
        RecordFormat.encode(members, RecordFormat.BATCH_PUT, b("batch-c"), b("3"));
        members.flip();
        members.limit(members.limit() - 2); // the last member is torn too
        try (FileChannel ch = FileChannel.open(last, StandardOpenOption.WRITE, StandardOpenOption.APPEND)) {
            ch.write(members);
        }
        try (Bitcask db = Bitcask.open(dir, opts(false))) {
            assertNull(db.get(b("batch-a")));
            assertNull(db.get(b("batch-b")));
            assertEquals(20, db.stats().keys());
        }
        assertTrue(Files.size(last) <= size + 1);
    }

    private void awaitHints() throws IOException {
        // Hints are written in the background after a segment seals; close waits for them.
        try (Bitcask db = Bitcask.open(dir, opts(false))) {
            assertNotNull(db.stats());
        }
    }

    private static void flip(Path file, long offset) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            raf.seek(offset);
            int b = raf.read();
            raf.seek(offset);
            raf.write(b ^ 0x5A);
        }
    }
}
