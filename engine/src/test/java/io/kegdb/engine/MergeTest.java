package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static io.kegdb.engine.BitcaskTest.b;
import static io.kegdb.engine.BitcaskTest.s;
import static org.junit.jupiter.api.Assertions.*;

class MergeTest {

    @TempDir
    Path dir;

    private static BitcaskOptions opts() {
        return BitcaskOptions.builder().segmentSize(4096).mergeInterval(Duration.ZERO).build();
    }

    private List<Path> files(String glob) throws IOException {
        List<Path> out = new ArrayList<>();
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, glob)) {
            ds.forEach(out::add);
        }
        out.sort(null);
        return out;
    }

    @Test
    void deletedKeysNeverComeBackAfterMergeAndRestart() throws IOException {
        try (Bitcask db = Bitcask.open(dir, opts())) {
            for (int i = 0; i < 500; i++) {
                db.put(b("k" + i), b("v" + i));
            }
            for (int i = 0; i < 500; i += 2) {
                db.delete(b("k" + i));
            }
            db.merge();
        }
        try (Bitcask db = Bitcask.open(dir, opts())) {
            for (int i = 0; i < 500; i++) {
                assertEquals(i % 2 == 0 ? null : "v" + i, s(db.get(b("k" + i))));
            }
            db.merge();
        }
        try (Bitcask db = Bitcask.open(dir, opts())) {
            assertEquals(250, db.stats().keys());
            assertNull(db.get(b("k0")));
        }
    }

    @Test
    void segmentsWithNothingLiveAreDroppedWholeOldestFirst() throws IOException {
        try (Bitcask db = Bitcask.open(dir, opts())) {
            for (int i = 0; i < 1000; i++) {
                db.put(b(String.format("%08d", i)), new byte[40], Durability.NO_SYNC);
            }
            int before = db.stats().segments();
            for (int i = 0; i < 600; i++) {
                db.delete(b(String.format("%08d", i)), Durability.NO_SYNC);
            }
            long deadBefore = db.stats().deadBytes();
            db.merge();
            BitcaskStats after = db.stats();
            assertTrue(after.segments() < before, before + " -> " + after.segments());
            assertTrue(after.deadBytes() < deadBefore);
            assertEquals(400, after.keys());
        }
    }

    @Test
    void readsAndWritesGoOnDuringMerge() throws Exception {
        ConcurrentHashMap<String, String> latest = new ConcurrentHashMap<>();
        try (Bitcask db = Bitcask.open(dir, opts())) {
            for (int i = 0; i < 3000; i++) {
                db.put(b("k" + (i % 500)), b("v" + i), Durability.NO_SYNC);
                latest.put("k" + (i % 500), "v" + i);
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = new Thread(() -> {
                Random rnd = new Random(1);
                try {
                    for (int i = 3000; !stop.get(); i++) {
                        String k = "k" + rnd.nextInt(500);
                        db.put(b(k), b("v" + i), Durability.NO_SYNC);
                        latest.put(k, "v" + i);
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            Thread reader = new Thread(() -> {
                Random rnd = new Random(2);
                try {
                    while (!stop.get()) {
                        byte[] v = db.get(b("k" + rnd.nextInt(500)));
                        assertNotNull(v);
                        assertTrue(s(v).startsWith("v"));
                        try (KvIterator it = db.scan(b("k1"), b("k2"))) {
                            while (it.hasNext()) {
                                assertTrue(s(it.next().key()).startsWith("k1"));
                            }
                        }
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            writer.start();
            reader.start();
            for (int m = 0; m < 10; m++) {
                db.merge();
            }
            stop.set(true);
            writer.join(30_000);
            reader.join(30_000);
            assertNull(failure.get(), () -> "concurrent access failed: " + failure.get());
            for (var e : latest.entrySet()) {
                assertEquals(e.getValue(), s(db.get(b(e.getKey()))));
            }
        }
        try (Bitcask db = Bitcask.open(dir, opts())) {
            for (var e : latest.entrySet()) {
                assertEquals(e.getValue(), s(db.get(b(e.getKey()))));
            }
        }
    }

    @Test
    void scheduledMergeRunsWhenGarbageCrossesTheThresholds() throws Exception {
        BitcaskOptions o = opts().toBuilder().mergeInterval(Duration.ofMillis(50)).mergeMinFiles(2)
                .mergeGarbageRatio(0.3).build();
        try (Bitcask db = Bitcask.open(dir, o)) {
            for (int i = 0; i < 2000; i++) {
                db.put(b("k" + (i % 50)), new byte[64], Durability.NO_SYNC);
            }
            long deadline = System.currentTimeMillis() + 20_000;
            while (db.stats().merges() == 0 && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertTrue(db.stats().merges() > 0, "no scheduled merge in 20 s");
            assertEquals(50, db.stats().keys());
        }
    }

    @Test
    void openReadsHintFilesInsteadOfData() throws IOException {
        try (Bitcask db = Bitcask.open(dir, opts())) {
            for (int i = 0; i < 300; i++) {
                db.put(b("key" + i), b("value" + i));
            }
        }
        try (Bitcask db = Bitcask.open(dir, opts())) {
            assertNotNull(db.stats()); // closing waits for the background hint writer
        }
        Path first = files("*.data").get(0);
        assertTrue(Files.exists(first.resolveSibling(first.getFileName().toString().replace(".data", ".hint"))));
        // Damage a value in the first segment: a scan would fail the open, the hint does not look at values.
        try (RandomAccessFile raf = new RandomAccessFile(first.toFile(), "rw")) {
            raf.seek(SegmentHeader.SIZE + RecordFormat.HEADER_SIZE + "key0".length());
            raf.write('X');
        }
        try (Bitcask db = Bitcask.open(dir, opts())) {
            assertEquals(300, db.stats().keys());
            assertThrows(UncheckedIOException.class, () -> db.get(b("key0")), "the damaged value is never returned");
            assertEquals("value1", s(db.get(b("key1"))));
        }
    }

    @Test
    void thousandsOfSegmentsKeepFewFilesOpen() throws IOException {
        BitcaskOptions o = opts().toBuilder().maxOpenFiles(8).build();
        TreeMap<String, String> model = new TreeMap<>();
        try (Bitcask db = Bitcask.open(dir, o)) {
            byte[] v = new byte[3000];
            for (int i = 0; i < 2000; i++) {
                db.put(b("k" + i), v, Durability.NO_SYNC);
                model.put("k" + i, "");
            }
            assertTrue(db.stats().segments() >= 1999);
        }
        long fdsBefore = openFds();
        try (Bitcask db = Bitcask.open(dir, o)) {
            for (int i = 0; i < 2000; i++) {
                assertEquals(3000, db.get(b("k" + i)).length);
            }
            long fdsDuring = openFds();
            if (fdsBefore >= 0) {
                assertTrue(fdsDuring - fdsBefore < 20, "open files grew by " + (fdsDuring - fdsBefore));
            }
        }
    }

    private static long openFds() throws IOException {
        Path fd = Path.of("/proc/self/fd");
        if (!Files.isDirectory(fd)) {
            return -1;
        }
        try (var s = Files.list(fd)) {
            return s.count();
        }
    }
}
