package io.kegdb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cuts power under each workload at every fsync (of a file or a directory) and at sampled moments between,
 * and for each cut writes disk images a power cut could leave ({@link PowerLossFiles}): one with only the
 * fsynced bytes and directory entries, the rest drawn at random (pages kept, lost or torn, sizes and
 * directory changes kept or not). Each image is opened from disk with the normal {@link Bitcask#open}, no
 * repair, and must hold exactly the state after some prefix of the acknowledged writes that includes every
 * write acknowledged as durable ({@link AcknowledgedHistory}); a backup that returned must hold exactly the
 * store as of its start. 64 KiB segments, so workloads roll, merge and write hints.
 *
 * <p>The images are reproducible from the printed seed; which moments are cuts also depends on how the
 * background threads (hint writing, disk space allocation) interleave. {@code -Pstress} (kegdb.stress=true)
 * draws many more images per cut and cuts at more moments between fsyncs; {@code -Dkegdb.powerloss.images=N}
 * overrides the images drawn at random per cut.
 */
class PowerLossExplorerTest {

    private static final boolean STRESS = Boolean.getBoolean("kegdb.stress");
    private static final int RANDOM_IMAGES = Integer.getInteger("kegdb.powerloss.images", STRESS ? 12 : 2);
    /** Chance that a change which is not an fsync is a cut too. */
    private static final double CUT_BETWEEN = STRESS ? 0.05 : 0.01;
    /** Workload length multiplier. */
    private static final int SCALE = STRESS ? 3 : 1;
    private static final BitcaskOptions OPTIONS = BitcaskOptions.builder().segmentSize(64 << 10)
            .mergeInterval(Duration.ZERO).build();

    private static final AtomicLong CUTS = new AtomicLong();
    private static final AtomicLong IMAGES = new AtomicLong();
    private static final AtomicLong DURABLE_CHECKED = new AtomicLong();
    private static final AtomicLong UNACKNOWLEDGED_KEPT = new AtomicLong();
    private static final AtomicLong BACKUPS_CHECKED = new AtomicLong();

    @TempDir
    Path tmp;

    @AfterAll
    static void printFigures() {
        System.out.printf("power-loss explorer: %d cuts, %d images, %d durable writes checked, %d lost; "
                        + "%d writes not yet durable kept as a prefix; %d backup images checked%n",
                CUTS.get(), IMAGES.get(), DURABLE_CHECKED.get(), 0, UNACKNOWLEDGED_KEPT.get(), BACKUPS_CHECKED.get());
    }

    // ---------------------------------------------------------------- workloads

    @Test
    void syncPutsAndDeletes() throws Exception {
        explore(11, (x, db) -> {
            for (int i = 0; i < 150 * SCALE; i++) {
                String key = x.key(60);
                if (x.rnd.nextInt(8) == 0) {
                    x.delete(db, key, Durability.SYNC);
                } else {
                    x.put(db, key, Durability.SYNC);
                }
            }
        });
    }

    @Test
    void noSyncPutsThenFlush() throws Exception {
        explore(12, (x, db) -> {
            for (int i = 0; i < 600 * SCALE; i++) {
                String key = x.key(200);
                if (x.rnd.nextInt(10) == 0) {
                    x.delete(db, key, Durability.NO_SYNC);
                } else {
                    x.put(db, key, Durability.NO_SYNC);
                }
                if (i % 40 == 39) {
                    x.flush(db);
                }
            }
        });
    }

    @Test
    void syncAndNoSyncBatchesWithDeletes() throws Exception {
        explore(13, (x, db) -> {
            for (int i = 0; i < 120 * SCALE; i++) {
                x.batch(db, 2 + x.rnd.nextInt(7), i % 3 == 0 ? Durability.SYNC : Durability.NO_SYNC);
                if (i % 25 == 24) {
                    x.flush(db);
                }
            }
        });
    }

    @Test
    void mergeAtEveryStep() throws Exception {
        explore(14, (x, db) -> {
            // The reported loss: a SYNC write, an unsynced overwrite, then a merge that drops the first.
            x.put(db, "k-first", Durability.SYNC);
            for (int round = 0; round < 4 * SCALE; round++) {
                for (int i = 0; i < 200; i++) {
                    String key = x.key(40);
                    int kind = x.rnd.nextInt(10);
                    if (kind == 0) {
                        x.delete(db, key, Durability.NO_SYNC);
                    } else {
                        x.put(db, key, kind < 4 ? Durability.SYNC : Durability.NO_SYNC);
                    }
                }
                x.put(db, "k-first", Durability.NO_SYNC);
                db.merge();
            }
        });
    }

    @Test
    void openCloseCyclesWithHints() throws Exception {
        exploreReopening(15, (x, first) -> {
            Bitcask db = first;
            for (int cycle = 0; cycle < 5 * SCALE; cycle++) {
                for (int i = 0; i < 120; i++) {
                    String key = x.key(80);
                    x.put(db, key, x.rnd.nextBoolean() ? Durability.SYNC : Durability.NO_SYNC);
                }
                x.close(db);
                db = x.reopen();
            }
            return db;
        });
    }

    @Test
    void backup() throws Exception {
        explore(16, (x, db) -> {
            for (int i = 0; i < 300 * SCALE; i++) {
                x.put(db, x.key(100), i % 4 == 0 ? Durability.SYNC : Durability.NO_SYNC);
                if (i == 150 * SCALE) {
                    x.backup(db);
                }
            }
        });
    }

    // ---------------------------------------------------------------- the explorer

    private interface Workload {
        void run(Explorer x, Bitcask db) throws Exception;
    }

    private interface ReopeningWorkload {
        /** Runs on {@code db}; returns the store open at the end (the workload may close and reopen it). */
        Bitcask run(Explorer x, Bitcask db) throws Exception;
    }

    private void explore(long seed, Workload workload) throws Exception {
        exploreReopening(seed, (x, db) -> {
            workload.run(x, db);
            return db;
        });
    }

    private void exploreReopening(long seed, ReopeningWorkload workload) throws Exception {
        Explorer x = new Explorer(seed);
        Bitcask db = x.reopen();
        try {
            db = workload.run(x, db);
        } finally {
            x.stop();
            db.close();
        }
        assertTrue(x.failures.isEmpty(), () -> x.failures.size() + " image(s) broke a promise, first: "
                + x.failures.get(0));
        assertTrue(x.cuts > 0, "the workload was cut");
        System.out.printf("power-loss workload seed %d: %d cuts, %d writes, %d acknowledged as durable%n",
                seed, x.cuts, x.history.issued(), x.history.durable());
    }

    /** One workload's run: its store under the layer, its history, and the cuts. */
    private final class Explorer {
        final long seed;
        final Random rnd;
        final Random cutChoice;
        final Path store = tmp.resolve("store");
        final Path backupDir = tmp.resolve("backup");
        final Path images = tmp.resolve("images");
        final PowerLossFiles files = new PowerLossFiles().watch(store).watch(backupDir);
        final AcknowledgedHistory history = new AcknowledgedHistory();
        final List<String> failures = Collections.synchronizedList(new ArrayList<>());
        /** Writes issued before the backup that returned, or -1. */
        volatile int backupPoint = -1;
        volatile boolean stopped;
        int cuts;
        int writeNumber;

        Explorer(long seed) {
            this.seed = seed;
            this.rnd = new Random(seed);
            this.cutChoice = new Random(seed ^ 0x5DEECE66DL);
            files.onEvent(this::onEvent);
        }

        String key(int keys) {
            return "k" + rnd.nextInt(keys);
        }

        /** A value unique to its write, of 10 to about 2000 bytes, now and then over 4 KiB (a staged write). */
        String value() {
            int n = rnd.nextInt(20) == 0 ? 4096 + rnd.nextInt(3000) : 10 + rnd.nextInt(rnd.nextBoolean() ? 200 : 2000);
            StringBuilder v = new StringBuilder("w").append(writeNumber++).append('-');
            while (v.length() < n) {
                v.append((char) ('a' + v.length() % 26));
            }
            return v.toString();
        }

        void put(Bitcask db, String key, Durability d) {
            String value = value();
            int i = history.issue(Map.of(key, value));
            db.put(bytes(key), bytes(value), d);
            acknowledged(i, d);
        }

        void delete(Bitcask db, String key, Durability d) {
            int i = history.issue(Collections.singletonMap(key, null));
            db.delete(bytes(key), d);
            acknowledged(i, d);
        }

        void batch(Bitcask db, int ops, Durability d) {
            Map<String, String> write = new LinkedHashMap<>();
            WriteBatch batch = new WriteBatch();
            for (int j = 0; j < ops; j++) {
                String key = key(150);
                if (rnd.nextInt(4) == 0) {
                    batch.delete(bytes(key));
                    write.remove(key);
                    write.put(key, null);
                } else {
                    String value = value();
                    batch.put(bytes(key), bytes(value));
                    write.remove(key);
                    write.put(key, value);
                }
            }
            int i = history.issue(write);
            db.write(batch, d);
            acknowledged(i, d);
        }

        private void acknowledged(int index, Durability d) {
            if (d == Durability.SYNC) {
                history.durableUpTo(index + 1);
            }
        }

        void flush(Bitcask db) {
            int issued = history.issued();
            db.flush();
            history.durableUpTo(issued);
        }

        void close(Bitcask db) {
            int issued = history.issued();
            db.close();
            history.durableUpTo(issued);
        }

        Bitcask reopen() throws IOException {
            return Bitcask.open(store, OPTIONS, files);
        }

        void backup(Bitcask db) throws IOException {
            int issued = history.issued();
            db.backup(backupDir);
            backupPoint = issued;
        }

        void stop() {
            stopped = true;
        }

        private void onEvent(PowerLossFiles.Event e) {
            boolean barrier = e == PowerLossFiles.Event.FILE_SYNC || e == PowerLossFiles.Event.DIRECTORY_SYNC;
            if (stopped || !(barrier || cutChoiceNext() < CUT_BETWEEN)) {
                return;
            }
            try {
                cut();
            } catch (Throwable t) {
                failures.add("cut " + cuts + " of workload seed " + seed + ": " + t);
            }
        }

        private synchronized double cutChoiceNext() {
            return cutChoice.nextDouble();
        }

        /** Freezes the model now and checks images drawn from it. One cut at a time (background threads cut too). */
        private synchronized void cut() throws IOException {
            // Durable first, issued after the snapshot: an acknowledgement counted here had its fsync recorded
            // before the snapshot, and every write whose bytes the snapshot holds was issued before it.
            int durable = history.durable();
            int backupAt = backupPoint;
            PowerLossFiles.Snapshot snapshot = files.snapshot();
            int issued = history.issued();
            cuts++;
            CUTS.incrementAndGet();
            for (int image = 0; image <= RANDOM_IMAGES; image++) {
                long imageSeed = seed * 1_000_003L + cuts * 1_009L + image;
                PowerLossFiles.Fate fate = image == 0 ? PowerLossFiles.Fate.LOSE_ALL : PowerLossFiles.Fate.RANDOM;
                Path target = images.resolve(cuts + "-" + image);
                Map<Path, Path> where = snapshot.writeImage(target, new Random(imageSeed), fate);
                String which = "cut " + cuts + " image " + image + " (" + fate + ", seed " + imageSeed + ")";
                try {
                    checkStore(where.get(store.toAbsolutePath()), durable, issued, which);
                    if (backupAt >= 0) {
                        checkBackup(where.get(backupDir.toAbsolutePath()), backupAt, which);
                    }
                } finally {
                    deleteTree(target);
                }
                IMAGES.incrementAndGet();
            }
        }

        private void checkStore(Path image, int durable, int issued, String which) {
            Map<String, String> seen;
            try {
                seen = contents(image);
            } catch (IOException | RuntimeException e) {
                failures.add(which + ": does not open without repair: " + e);
                return;
            }
            int prefix = history.matchingPrefix(seen, durable, issued);
            if (prefix < 0) {
                failures.add(which + ": holds no prefix of the writes from " + durable + " (acknowledged as durable) to "
                        + issued + " (issued): " + difference(history.stateAfter(durable), seen));
                return;
            }
            DURABLE_CHECKED.addAndGet(durable);
            UNACKNOWLEDGED_KEPT.addAndGet(prefix - durable);
        }

        private void checkBackup(Path image, int backupAt, String which) {
            try {
                Map<String, String> seen = contents(image);
                if (!seen.equals(history.stateAfter(backupAt))) {
                    failures.add(which + ": the backup is not the store as of its start: "
                            + difference(history.stateAfter(backupAt), seen));
                }
                BACKUPS_CHECKED.incrementAndGet();
            } catch (IOException | RuntimeException e) {
                failures.add(which + ": the backup does not open without repair: " + e);
            }
        }

        private Map<String, String> contents(Path image) throws IOException {
            Map<String, String> seen = new HashMap<>();
            try (Bitcask db = Bitcask.open(image, OPTIONS)) {
                for (byte[] k : db.listKeys()) {
                    seen.put(new String(k, StandardCharsets.UTF_8), new String(db.get(k), StandardCharsets.UTF_8));
                }
            }
            return seen;
        }
    }

    /** The first few keys where {@code seen} differs from {@code expected}. */
    private static String difference(Map<String, String> expected, Map<String, String> seen) {
        List<String> out = new ArrayList<>();
        for (String k : new java.util.TreeSet<>(union(expected, seen))) {
            String e = expected.get(k);
            String s = seen.get(k);
            if (!java.util.Objects.equals(e, s) && out.size() < 5) {
                out.add(k + ": expected (after the durable writes) " + brief(e) + ", found " + brief(s));
            }
        }
        return String.join("; ", out);
    }

    private static java.util.Set<String> union(Map<String, String> a, Map<String, String> b) {
        java.util.Set<String> all = new java.util.HashSet<>(a.keySet());
        all.addAll(b.keySet());
        return all;
    }

    private static String brief(String v) {
        return v == null ? "absent" : v.substring(0, Math.min(12, v.length()));
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> all = Files.walk(root)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
