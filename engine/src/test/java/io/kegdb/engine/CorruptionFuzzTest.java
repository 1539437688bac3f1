package io.kegdb.engine;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Seeded random damage to a store's data and hint files: byte flips, truncations and zeroed ranges. For each
 * case: open (with a timeout) either fails naming a damaged file and an offset, or succeeds and every get
 * returns the key's value, the value it has once the damaged records are dropped, or (for a key whose
 * record is damaged) an error naming the file and offset: never garbage. Then {@link Bitcask#repair} always
 * leaves a store that opens, passes {@link Bitcask#verify()}, and holds exactly the undamaged records'
 * values. About 200 cases in a normal build; {@code -Pstress} (kegdb.stress=true) runs 3000 over six stores.
 */
class CorruptionFuzzTest {

    private static final boolean STRESS = Boolean.getBoolean("kegdb.stress");
    /** Cases to run; {@code -Dkegdb.fuzz.cases=N} overrides. */
    private static final int CASES = Integer.getInteger("kegdb.fuzz.cases", STRESS ? 3000 : 200);
    /** Differently seeded stores the cases are spread over. */
    private static final int STORES = STRESS ? 6 : 1;
    private static final long TIMEOUT_SECONDS = 30;
    private static ExecutorService worker;

    @TempDir
    Path tmp;

    /** Outcome counts, printed at the end for the reliability figures. */
    private final Map<String, Integer> outcomes = new TreeMap<>();

    @BeforeAll
    static void startWorker() {
        worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "fuzz-worker");
            t.setDaemon(true);
            return t;
        });
    }

    @AfterAll
    static void stopWorker() {
        worker.shutdownNow();
    }

    private static BitcaskOptions options() {
        return BitcaskOptions.builder().segmentSize(4096).mergeInterval(Duration.ZERO).build();
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A store with merged and plain sealed segments, hints, overwrites, deletes and batches. */
    private static void build(Path dir, long seed) throws IOException {
        Random rnd = new Random(seed);
        try (Bitcask db = Bitcask.open(dir, options())) {
            int[] n = {0};
            Runnable ops = () -> {
                for (int i = 0; i < 250; i++) {
                    String key = "k" + rnd.nextInt(100);
                    String value = "v" + (n[0]++) + "-" + "abcdefghij".repeat(rnd.nextInt(12));
                    switch (rnd.nextInt(10)) {
                        case 0 -> db.delete(b(key), Durability.NO_SYNC);
                        case 1 -> db.write(new WriteBatch().put(b(key), b(value)).delete(b("k" + rnd.nextInt(100)))
                                .put(b("k" + rnd.nextInt(100)), b(value + "b")), Durability.NO_SYNC);
                        default -> db.put(b(key), b(value), Durability.NO_SYNC);
                    }
                }
            };
            ops.run();
            db.merge();
            ops.run();
        }
    }

    /**
     * Where the cases run: a memory filesystem when the machine has one. Damage and checks do not depend on
     * durability, and each case's fsyncs (hints, rewrites, closes) would otherwise dominate its time.
     */
    private Path workDir() throws IOException {
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return Files.createTempDirectory(shm, "kegdb-fuzz-");
        }
        return tmp;
    }

    @Test
    void randomDamageNeverYieldsAWrongValueAndRepairAlwaysRestoresAConsistentStore() throws Exception {
        Path work = workDir();
        try {
            fuzz(work);
        } finally {
            if (!work.equals(tmp)) {
                deleteTree(work);
            }
        }
    }

    private void fuzz(Path tmp) throws Exception {
        long started = System.nanoTime();
        for (int store = 0; store < STORES; store++) {
            Path pristine = tmp.resolve("pristine" + store);
            build(pristine, 42 + store);
            StoreHistory history = StoreHistory.read(pristine);
            Map<String, byte[]> files = new TreeMap<>();
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(pristine)) {
                for (Path f : ds) {
                    String name = f.getFileName().toString();
                    if (name.endsWith(".data") || name.endsWith(".hint")) {
                        files.put(name, Files.readAllBytes(f));
                    }
                }
            }
            assertTrue(files.keySet().stream().filter(n -> n.endsWith(".hint")).count() > 3, files.keySet().toString());
            for (int c = store * CASES / STORES; c < (store + 1) * CASES / STORES; c++) {
                Path dir = tmp.resolve("case" + c);
                Files.createDirectories(dir);
                for (Map.Entry<String, byte[]> f : files.entrySet()) {
                    Files.write(dir.resolve(f.getKey()), f.getValue());
                }
                StoreHistory.Damage damage = damage(dir, files, new Random(1000L + c));
                try {
                    runCase(dir, history, damage);
                } catch (AssertionError | Exception e) {
                    throw new AssertionError("case " + c + " of store " + store + " (damage " + describe(damage)
                            + ") failed: " + e, e);
                }
                deleteTree(dir);
            }
        }
        long ms = (System.nanoTime() - started) / 1_000_000;
        System.out.println("corruption fuzz: " + CASES + " cases over " + STORES + " store(s) in " + ms + " ms: " + outcomes);
        int opened = outcomes.getOrDefault("open ok", 0);
        int failed = outcomes.getOrDefault("open failed naming file and offset", 0);
        assertEquals(CASES, opened + failed);
        assertEquals(CASES, outcomes.getOrDefault("repaired, reopened, verify ok", 0));
    }

    private void count(String outcome) {
        outcomes.merge(outcome, 1, Integer::sum);
    }

    private void runCase(Path dir, StoreHistory history, StoreHistory.Damage damage) throws Exception {
        Bitcask db;
        try {
            db = timed(() -> Bitcask.open(dir, options()));
        } catch (IOException e) {
            assertNamesDamage(e.getMessage(), damage);
            count("open failed naming file and offset");
            db = null;
        }
        if (db != null) {
            count("open ok");
            Bitcask open = db;
            timed(() -> {
                try (open) {
                    for (String key : history.byKey.keySet()) {
                        String got;
                        try {
                            byte[] v = open.get(b(key));
                            got = v == null ? null : new String(v, StandardCharsets.UTF_8);
                        } catch (UncheckedIOException e) {
                            assertTrue(history.touched(key, damage), "read error for an undamaged key " + key + ": " + e);
                            assertNamesDamage(e.getMessage(), damage);
                            count("read of a damaged record refused, naming file and offset");
                            continue;
                        }
                        String truth = history.truth(key);
                        java.util.Set<String> acceptable = history.acceptableAfterOpen(key, damage);
                        assertTrue(acceptable.contains(got), "key " + key + " read " + got + "; expected one of "
                                + acceptable + " (its value " + truth + ")");
                        if (!java.util.Objects.equals(got, truth)) {
                            count(got == null ? "key lost to damage (absent)" : "key back at an older value");
                        }
                    }
                }
                return null;
            });
        }
        CheckReport repaired = timed(() -> Bitcask.repair(dir));
        assertTrue(repaired.ok(), repaired.toString());
        if (!repaired.changes().isEmpty()) {
            count("repair changed files");
        }
        for (String change : repaired.changes()) {
            if (change.contains("segment header")) {
                count(change.contains("restored from the damaged bytes") ? "segment header restored exactly"
                        : "segment header rebuilt");
            }
        }
        timed(() -> {
            try (Bitcask again = Bitcask.open(dir, options())) {
                CheckReport verified = again.verify();
                assertTrue(verified.ok(), verified.toString());
                for (String key : history.byKey.keySet()) {
                    byte[] v = again.get(b(key));
                    String got = v == null ? null : new String(v, StandardCharsets.UTF_8);
                    if (history.inDamagedHeaderSegment(key, damage)) {
                        assertTrue(got == null || history.values(key).contains(got), "key " + key + " read " + got);
                    } else {
                        assertEquals(history.survivor(key, damage), got, "key " + key + " after repair");
                    }
                }
            }
            return null;
        });
        count("repaired, reopened, verify ok");
        CheckReport after = timed(() -> Bitcask.check(dir));
        assertTrue(after.ok(), after.toString());
    }

    private static void assertNamesDamage(String message, StoreHistory.Damage damage) {
        boolean names = damage.files().stream().anyMatch(f -> message.contains(f));
        assertTrue(names && message.contains("offset"), "message names no damaged file and offset: " + message);
    }

    /** Applies one or two random damages and returns the byte ranges that actually changed, per file. */
    private static StoreHistory.Damage damage(Path dir, Map<String, byte[]> pristine, Random rnd) throws IOException {
        List<String> names = new ArrayList<>(pristine.keySet());
        int count = rnd.nextInt(5) == 0 ? 2 : 1;
        for (int i = 0; i < count; i++) {
            String name = names.get(rnd.nextInt(names.size()));
            if (rnd.nextInt(10) < 7) {
                List<String> data = names.stream().filter(n -> n.endsWith(".data")).toList();
                name = data.get(rnd.nextInt(data.size()));
            }
            Path f = dir.resolve(name);
            byte[] bytes = Files.readAllBytes(f);
            if (bytes.length == 0) {
                continue;
            }
            switch (rnd.nextInt(3)) {
                case 0 -> {
                    int flips = 1 + rnd.nextInt(3);
                    for (int j = 0; j < flips; j++) {
                        bytes[rnd.nextInt(bytes.length)] ^= (byte) (1 + rnd.nextInt(255));
                    }
                }
                case 1 -> {
                    int from = rnd.nextInt(bytes.length);
                    int len = 1 + rnd.nextInt(Math.min(300, bytes.length - from));
                    Arrays.fill(bytes, from, from + len, (byte) 0);
                }
                default -> bytes = Arrays.copyOf(bytes, rnd.nextInt(bytes.length));
            }
            Files.write(f, bytes);
        }
        StoreHistory.Damage damage = new StoreHistory.Damage();
        for (String name : names) {
            byte[] before = pristine.get(name);
            byte[] after = Files.readAllBytes(dir.resolve(name));
            for (int i = 0; i < Math.min(before.length, after.length); i++) {
                if (before[i] != after[i]) {
                    damage.add(name, i, i + 1);
                }
            }
            if (after.length < before.length) {
                damage.add(name, after.length, before.length);
            }
        }
        return damage;
    }

    private static String describe(StoreHistory.Damage damage) {
        StringBuilder sb = new StringBuilder();
        damage.ranges.forEach((f, rs) -> {
            sb.append(f).append(':');
            int from = -1;
            int to = -1;
            for (int[] r : rs) {
                if (r[0] != to) {
                    if (from >= 0) {
                        sb.append(' ').append(from).append("..").append(to);
                    }
                    from = r[0];
                }
                to = r[1];
            }
            sb.append(' ').append(from).append("..").append(to).append("; ");
        });
        return sb.toString();
    }

    private static <T> T timed(Callable<T> work) throws Exception {
        Future<T> f = worker.submit(work);
        try {
            return f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new AssertionError("hung for " + TIMEOUT_SECONDS + " s", e);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof Exception ex) {
                throw ex;
            }
            throw (Error) e.getCause();
        }
    }

    private static void deleteTree(Path dir) throws IOException {
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir)) {
            for (Path f : ds) {
                if (Files.isDirectory(f)) {
                    deleteTree(f);
                } else {
                    Files.delete(f);
                }
            }
        }
        Files.delete(dir);
    }
}
