package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A failing fsync (as a failing disk reports it) is never acknowledged: the SYNC write that needed it
 * fails, and so does every later write of the store, from any thread, because after a failed fsync the
 * kernel may report the next one as a success over lost pages. Reads go on; a reopen starts afresh.
 */
class FsyncFailureTest {

    @TempDir
    Path dir;

    private static final BitcaskOptions OPTIONS =
            BitcaskOptions.builder().segmentSize(1 << 20).mergeInterval(Duration.ZERO).build();

    @Test
    void aFailedFsyncIsNeverAcknowledgedAndStopsLaterWrites() throws Exception {
        Bitcask db = openWithAcknowledgedKeys();
        IOException eio = new IOException("injected EIO");
        db.active().failSyncsWith(eio, false);

        UncheckedIOException failed = assertThrows(UncheckedIOException.class,
                () -> db.put(key(10), key(10), Durability.SYNC));
        assertSame(eio, failed.getCause(), failed.toString());
        assertTrue(failed.getMessage().contains("fsync failed"), failed.getMessage());

        // Every later write is refused, even one that needs no fsync, and a flush or backup fails.
        UncheckedIOException refused = assertThrows(UncheckedIOException.class,
                () -> db.put(key(11), key(11), Durability.NO_SYNC));
        assertTrue(refused.getMessage().contains("refuses writes until it is reopened"), refused.getMessage());
        assertNull(db.get(key(11)));
        assertThrows(UncheckedIOException.class, () -> db.delete(key(0), Durability.NO_SYNC));
        assertThrows(UncheckedIOException.class,
                () -> db.write(new WriteBatch().put(key(12), key(12)).put(key(13), key(13)), Durability.NO_SYNC));
        assertThrows(UncheckedIOException.class, db::flush);
        assertThrows(IOException.class, () -> db.backup(dir.resolveSibling(dir.getFileName() + "-backup")));

        assertAcknowledgedKeys(db);
        db.close(); // releases the directory without writing anything more
        try (Bitcask reopened = Bitcask.open(dir, OPTIONS)) {
            assertAcknowledgedKeys(reopened);
            assertNull(reopened.get(key(11)));
            reopened.put(key(20), key(20), Durability.SYNC);
            assertTrue(reopened.verify().ok());
        }
    }

    @Test
    void noWriteIsAcknowledgedAfterAFailedFsyncEvenIfTheNextOneSucceeds() throws Exception {
        Bitcask db = Bitcask.open(dir, OPTIONS);
        db.put(key(0), key(0), Durability.SYNC);
        // Only the first fsync fails; the next would report success over pages the kernel may have dropped.
        db.active().failSyncsWith(new IOException("injected EIO"), true);
        AtomicInteger acknowledged = new AtomicInteger();
        AtomicInteger failed = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> writers = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int base = 1000 * (t + 1);
                writers.add(pool.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        try {
                            db.put(key(base + i), key(base + i), Durability.SYNC);
                            acknowledged.incrementAndGet();
                        } catch (UncheckedIOException expected) {
                            failed.incrementAndGet();
                        }
                    }
                }));
            }
            for (Future<?> w : writers) {
                w.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        assertEquals(0, acknowledged.get(), "a SYNC put was acknowledged after an fsync failed");
        assertEquals(200, failed.get());
        db.close();
        try (Bitcask reopened = Bitcask.open(dir, OPTIONS)) {
            assertArrayEquals(key(0), reopened.get(key(0)));
            assertTrue(reopened.verify().ok());
        }
    }

    /** The store with keys 0..9 written by acknowledged SYNC puts. */
    private Bitcask openWithAcknowledgedKeys() throws IOException {
        Bitcask db = Bitcask.open(dir, OPTIONS);
        for (int i = 0; i < 10; i++) {
            db.put(key(i), key(i), Durability.SYNC);
        }
        return db;
    }

    /** {@code db} refuses writes but keeps its acknowledged keys; closed and reopened, it has them. */
    private Bitcask refusesWritesThenReopens(Bitcask db) throws IOException {
        UncheckedIOException refused = assertThrows(UncheckedIOException.class,
                () -> db.put(key(11), key(11), Durability.NO_SYNC));
        assertTrue(refused.getMessage().contains("refuses writes until it is reopened"), refused.getMessage());
        assertAcknowledgedKeys(db);
        db.close();
        Bitcask reopened = Bitcask.open(dir, OPTIONS);
        assertAcknowledgedKeys(reopened);
        return reopened;
    }

    private static void assertAcknowledgedKeys(Bitcask db) {
        for (int i = 0; i < 10; i++) {
            assertArrayEquals(key(i), db.get(key(i)), "acknowledged key " + i);
        }
    }

    private static byte[] key(int i) {
        return ("key-" + i).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aLargeBatchWhoseFsyncRanOnAnotherThreadFailsLikeAnyOther() throws Exception {
        Bitcask db = openWithAcknowledgedKeys();
        IOException eio = new IOException("injected EIO in a sync run ahead");
        // Only that one fsync fails: the writer's own retry would succeed, and must not be trusted.
        db.active().failSyncsWith(eio, true);
        WriteBatch batch = new WriteBatch();
        for (int i = 100; i < 400; i++) {
            batch.put(key(i), new byte[20]);
        }
        UncheckedIOException failed = assertThrows(UncheckedIOException.class, () -> db.write(batch, Durability.SYNC));
        assertTrue(failed.getMessage().contains("fsync failed"), failed.getMessage());
        Throwable cause = failed.getCause();
        while (cause != null && cause != eio) {
            cause = cause.getCause();
        }
        assertSame(eio, cause, "the injected failure is the reported cause: " + failed);
        try (Bitcask reopened = refusesWritesThenReopens(db)) {
            assertTrue(reopened.verify().ok());
        }
    }

    @Test
    void aWriteCutShortStopsLaterWritesAndIsGoneAfterReopen() throws Exception {
        Bitcask db = openWithAcknowledgedKeys();
        IOException eio = new IOException("injected EIO during write");
        db.active().failNextStagedWriteWith(eio);
        WriteBatch batch = new WriteBatch();
        for (int i = 100; i < 200; i++) {
            batch.put(key(i), new byte[100]);
        }
        UncheckedIOException failed = assertThrows(UncheckedIOException.class, () -> db.write(batch, Durability.SYNC));
        assertSame(eio, failed.getCause(), failed.toString());
        assertNull(db.get(key(100)), "nothing of the failed batch is visible");

        try (Bitcask reopened = refusesWritesThenReopens(db)) {
            for (int i = 100; i < 200; i++) {
                assertNull(reopened.get(key(i)), "half a batch is a torn tail, cut off");
            }
            reopened.put(key(20), key(20), Durability.SYNC);
            assertTrue(reopened.verify().ok());
        }
        try (Bitcask again = Bitcask.open(dir, OPTIONS)) {
            assertArrayEquals(key(20), again.get(key(20)));
        }
    }
}
