package io.kegdb.engine;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The two losses power cuts showed, each on the image that shows it, and old segments after the format change. */
class PowerCutRecoveryTest {

    private static final BitcaskOptions OPTIONS = BitcaskOptions.builder().segmentSize(64 << 10)
            .mergeInterval(Duration.ZERO).build();

    @TempDir
    Path tmp;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Unsynced records spread over pages; the power cut keeps the later pages but not the first: a hole
     * followed by valid records. Read as before the durable mark (a version 1 header), that refuses to open
     * without repair; with the mark it is a torn tail, cut at the hole, and every synced write is there.
     */
    @Test
    void aHoleFollowedByValidRecordsAboveTheDurableMarkIsATornTail() throws IOException {
        Path store = tmp.resolve("store");
        PowerLossFiles files = new PowerLossFiles().watch(store);
        PowerLossFiles.Snapshot cut;
        try (Bitcask db = Bitcask.open(store, OPTIONS, files)) {
            db.put(b("a"), b("synced-1"), Durability.SYNC);
            db.put(b("b"), b("synced-2"), Durability.SYNC);
            for (int i = 0; i < 100; i++) {
                db.put(b("n" + i), new byte[100], Durability.NO_SYNC);
            }
            cut = files.snapshot();
        }
        Path image = cut.writeImage(tmp.resolve("image"), new Random(1), PowerLossFiles.Fate.HOLE)
                .get(store.toAbsolutePath());
        Path segment = SegmentFiles.list(image).get(0);
        byte[] withMark = Files.readAllBytes(segment);

        rewriteHeader(segment, new SegmentHeader(1, 0, 1, 0)); // today's format: no mark
        IOException refused = assertThrows(IOException.class, () -> Bitcask.open(image, OPTIONS).close());
        assertTrue(refused.getMessage().contains("followed by valid records"), refused.getMessage());

        Files.write(segment, withMark);
        CheckReport check = Bitcask.check(image);
        assertTrue(check.problems().stream().anyMatch(p -> p.contains("torn tail"))
                && check.problems().stream().noneMatch(p -> p.contains("damaged data")), check.toString());
        Path repaired = tmp.resolve("repaired");
        Files.createDirectories(repaired);
        Files.copy(segment, repaired.resolve(segment.getFileName()));
        Bitcask.repair(repaired);
        try (Bitcask db = Bitcask.open(repaired, OPTIONS)) {
            assertNull(db.get(b("n99")), "repair too cuts at the hole: no later record without the earlier ones");
            assertEquals(2, db.stats().keys());
        }

        try (Bitcask db = Bitcask.open(image, OPTIONS)) {
            assertArrayEquals(b("synced-1"), db.get(b("a")));
            assertArrayEquals(b("synced-2"), db.get(b("b")));
            // The hole took the first unsynced records, so every later one goes too: a prefix, never a gap.
            assertNull(db.get(b("n0")));
            assertNull(db.get(b("n99")));
            assertEquals(2, db.stats().keys());
        }
    }

    /**
     * SYNC put(k, v1) returns; NO_SYNC put(k, v2); merge; power cut keeping only what was fsynced. The merge
     * deleted v1's segment, so k must come back as v2: the merge made v2 durable before deleting.
     */
    @Test
    void mergeNeverDeletesARecordWhoseOverwriteIsNotDurable() throws IOException {
        Path store = tmp.resolve("store");
        PowerLossFiles files = new PowerLossFiles().watch(store);
        PowerLossFiles.Snapshot cut;
        try (Bitcask db = Bitcask.open(store, OPTIONS, files)) {
            db.put(b("k"), b("v1"), Durability.SYNC);
            for (int i = 0; i < 100; i++) {
                db.put(b("filler"), new byte[1000], Durability.SYNC); // rolls past k's segment, all dead but one
            }
            db.put(b("k"), b("v2"), Durability.NO_SYNC);
            assertTrue(db.table().all().size() > 1, "k's segment is sealed");
            db.merge();
            cut = files.snapshot();
        }
        Path image = cut.writeImage(tmp.resolve("image"), new Random(1), PowerLossFiles.Fate.LOSE_ALL)
                .get(store.toAbsolutePath());
        try (Bitcask db = Bitcask.open(image, OPTIONS)) {
            assertArrayEquals(b("v2"), db.get(b("k")));
        }
    }

    /** A store written before the durable mark opens; new writes go to a new segment, the old one stays as it is. */
    @Test
    void segmentsOfTheFirstFormatOpenAndAreNotAppendedTo() throws IOException {
        Path store = tmp.resolve("store");
        try (Bitcask db = Bitcask.open(store, OPTIONS)) {
            db.put(b("old"), b("1"), Durability.SYNC);
        }
        Files.deleteIfExists(store.resolve(Segment.fileName(1, HintFile.SUFFIX)));
        Path first = SegmentFiles.list(store).get(0);
        rewriteHeader(first, new SegmentHeader(1, 0, 1, 0));
        long size = Files.size(first);
        try (Bitcask db = Bitcask.open(store, OPTIONS)) {
            assertArrayEquals(b("1"), db.get(b("old")));
            db.put(b("new"), b("2"), Durability.SYNC);
        }
        assertEquals(size, Files.size(first));
        List<Path> segments = SegmentFiles.list(store);
        assertEquals(2, segments.size());
        assertEquals(2, SegmentHeader.decode(SegmentFiles.headerBytes(segments.get(1)), segments.get(1)).version());
        try (Bitcask db = Bitcask.open(store, OPTIONS)) {
            assertArrayEquals(b("1"), db.get(b("old")));
            assertArrayEquals(b("2"), db.get(b("new")));
            assertTrue(db.verify().ok(), db.verify().toString());
        }
    }

    /**
     * A newest segment cut short below its durable mark (a truncated copy): open cuts the torn record, and
     * the write path lowers the mark before appending, so records appended later never count as fsynced.
     */
    @Test
    void aSegmentCutBelowItsMarkGetsTheMarkLoweredBeforeAppends() throws IOException {
        Path store = tmp.resolve("store");
        try (Bitcask db = Bitcask.open(store, OPTIONS)) {
            for (int i = 0; i < 20; i++) {
                db.put(b("k" + i), new byte[100], Durability.SYNC);
            }
        }
        Files.deleteIfExists(store.resolve(Segment.fileName(1, HintFile.SUFFIX)));
        Path segment = SegmentFiles.list(store).get(0);
        assertEquals(Files.size(segment), SegmentHeader.decode(SegmentFiles.headerBytes(segment), segment).mark());
        long cut = Files.size(segment) - 50; // inside the last record
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            ch.truncate(cut);
        }
        try (Bitcask db = Bitcask.open(store, OPTIONS)) {
            assertEquals(19, db.stats().keys());
            db.put(b("later"), new byte[100], Durability.NO_SYNC);
            int mark = SegmentHeader.decode(SegmentFiles.headerBytes(segment), segment).mark();
            assertTrue(mark <= db.table().get(1).length() - RecordFormat.size(5, 100),
                    "the mark " + mark + " is at most the data before the new record");
        }
    }

    private static void rewriteHeader(Path segment, SegmentHeader header) throws IOException {
        try (FileChannel ch = FileChannel.open(segment, StandardOpenOption.WRITE)) {
            ByteBuffer h = header.encode();
            while (h.hasRemaining()) {
                ch.write(h, h.position());
            }
        }
    }
}
