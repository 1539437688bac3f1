package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.*;

/** Staged appends (written through the channel) must leave exactly the bytes mapped appends leave. */
class SegmentWriterTest {

    private static final long CAPACITY = 8L << 20;

    @TempDir
    Path dir;

    private record Rec(byte type, byte[] key, byte[] value) {
    }

    /** Records of mixed sizes, including one larger than the staging buffer. */
    private static List<Rec> records(Random random) {
        List<Rec> recs = new ArrayList<>();
        for (int i = 0; i < 3_000; i++) {
            int valueSize = i == 1_500 ? 600 << 10 : random.nextInt(400);
            byte[] key = ("key-" + i).getBytes();
            byte[] value = new byte[valueSize];
            random.nextBytes(value);
            recs.add(new Rec(i % 7 == 3 ? RecordFormat.BATCH_DELETE : RecordFormat.BATCH_PUT, key,
                    i % 7 == 3 ? null : value));
        }
        return recs;
    }

    private static byte[] written(Path dir, int id, List<Rec> recs, StagedWrite staging) throws IOException {
        SegmentWriter w = SegmentWriter.create(FileLayer.DISK, dir, id, CAPACITY);
        w.reserve(CAPACITY - SegmentHeader.SIZE);
        if (staging != null) {
            w.stageThrough(staging);
        }
        for (Rec r : recs) {
            w.append(r.type(), r.key(), r.value());
        }
        w.appendCommit(recs.size());
        w.publish();
        int end = w.position();
        assertEquals(end, w.segment().length(), "published");
        w.seal();
        byte[] file = Files.readAllBytes(w.segment().path());
        assertEquals(end, file.length);
        return Arrays.copyOfRange(file, SegmentHeader.SIZE, end);
    }

    @Test
    void stagedAppendsWriteTheSameBytesAsMappedOnes() throws IOException {
        List<Rec> recs = records(new Random(7));
        byte[] mapped = written(dir, 1, recs, null);
        byte[] staged = written(dir, 2, recs, new StagedWrite());
        assertArrayEquals(mapped, staged);
        SegmentScanner.Result r = SegmentScanner.scan(java.nio.ByteBuffer.wrap(concat(new byte[SegmentHeader.SIZE], staged)),
                SegmentHeader.SIZE + staged.length, false, (t, o, s) -> { });
        assertEquals(SegmentHeader.SIZE + staged.length, r.validEnd(), "the staged batch scans as committed");
    }

    @Test
    void stagedRecordsAreInvisibleUntilPublishedAndGoneAfterRewind() throws IOException {
        SegmentWriter w = SegmentWriter.create(FileLayer.DISK, dir, 1, CAPACITY);
        w.reserve(1 << 20);
        StagedWrite staging = new StagedWrite();
        int mark = w.position();
        w.stageThrough(staging);
        w.append(RecordFormat.BATCH_PUT, "a".getBytes(), "1".getBytes());
        assertEquals(mark, w.segment().length(), "nothing published yet");
        w.rewind(mark);
        assertFalse(staging.isOpen());
        assertEquals(mark, w.position());

        int offset = w.append(RecordFormat.PUT, "b".getBytes(), "2".getBytes());
        w.publish();
        assertEquals(mark, offset, "the rewound write's place is reused");
        assertArrayEquals("2".getBytes(), w.segment().readValue(offset, "b".getBytes()));
        w.seal();
    }

    @Test
    void syncedAndLargeWritesOfTheStoreSurviveReopen(@TempDir Path store) throws IOException {
        Random random = new Random(11);
        byte[] big = new byte[700 << 10];
        random.nextBytes(big);
        try (Bitcask db = Bitcask.open(store, BitcaskOptions.builder().segmentSize(4L << 20).build())) {
            WriteBatch batch = new WriteBatch();
            for (int i = 0; i < 5_000; i++) {
                batch.put(("k" + i).getBytes(), ("v" + i).repeat(20).getBytes());
            }
            batch.put("big".getBytes(), big);
            db.write(batch, Durability.SYNC); // about 1.2 MB: several staging flushes and a mapped copy
            db.put("small".getBytes(), "s".getBytes(), Durability.NO_SYNC); // mapped
            db.put("synced".getBytes(), "y".getBytes(), Durability.SYNC); // staged
            assertArrayEquals(big, db.get("big".getBytes()));
            assertArrayEquals("v4999".repeat(20).getBytes(), db.get("k4999".getBytes()));
        }
        try (Bitcask db = Bitcask.open(store, BitcaskOptions.builder().segmentSize(4L << 20).build())) {
            assertArrayEquals(big, db.get("big".getBytes()));
            for (int i = 0; i < 5_000; i += 499) {
                assertArrayEquals(("v" + i).repeat(20).getBytes(), db.get(("k" + i).getBytes()));
            }
            assertArrayEquals("s".getBytes(), db.get("small".getBytes()));
            assertArrayEquals("y".getBytes(), db.get("synced".getBytes()));
            CheckReport report = db.verify();
            assertTrue(report.ok(), report::toString);
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] c = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, c, a.length, b.length);
        return c;
    }
}
