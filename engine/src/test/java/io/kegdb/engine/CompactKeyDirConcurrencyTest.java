package io.kegdb.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * One writer churns (puts, removes, replaces, mass removals that force rebuilds, hash growth) while readers
 * get and scan. Each location encodes the key's id and a per-key version that only grows, so a reader can
 * tell a torn or foreign location, and a version going back.
 */
class CompactKeyDirConcurrencyTest {

    private static final int KEYS = 60_000;
    private static final long RUN_NANOS = TimeUnit.MILLISECONDS.toNanos(2_500);

    static byte[] key(int id) {
        byte[] k = new byte[5 + id % 23];
        k[0] = (byte) (id % 5 == 4 ? 0xFF : id % 5);
        k[1] = (byte) (id >>> 24);
        k[2] = (byte) (id >>> 16);
        k[3] = (byte) (id >>> 8);
        k[4] = (byte) id;
        Arrays.fill(k, 5, k.length, (byte) 0xEE);
        return k;
    }

    static int idOf(byte[] key) {
        return ((key[1] & 0xFF) << 24) | ((key[2] & 0xFF) << 16) | ((key[3] & 0xFF) << 8) | (key[4] & 0xFF);
    }

    static long location(int id, long version) {
        return ((long) id << 24) | version;
    }

    @Test
    void readersSeeOnlyLocationsWrittenForTheirKey() throws Exception {
        CompactKeyDir dir = new CompactKeyDir();
        long[] versions = new long[KEYS];
        AtomicBoolean stop = new AtomicBoolean();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        AtomicLong gets = new AtomicLong();
        AtomicLong scanned = new AtomicLong();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            int seed = r;
            readers.add(new Thread(() -> getLoop(dir, stop, failures, gets, seed), "getter-" + r));
        }
        readers.add(new Thread(() -> scanLoop(dir, stop, failures, scanned, 7), "scanner"));
        readers.forEach(Thread::start);
        Random rnd = new Random(99);
        long deadline = System.nanoTime() + RUN_NANOS;
        // On a loaded machine the run goes past its time until the first mass removal (at op 100,000) is
        // done, so the rebuild it triggers is always checked; the cap keeps it bounded.
        long cap = System.nanoTime() + 20 * RUN_NANOS;
        long ops = 0;
        try {
            while ((System.nanoTime() < deadline || ops <= 100_000) && System.nanoTime() < cap && failures.isEmpty()) {
                if (ops % 200_000 == 100_000) {
                    // Remove most keys (the waste triggers a rebuild), then let puts regrow the table.
                    for (int id = 0; id < KEYS; id++) {
                        if (id % 10 != 0) {
                            dir.remove(key(id));
                        }
                    }
                }
                int id = rnd.nextInt(KEYS);
                byte[] k = key(id);
                int op = rnd.nextInt(10);
                if (op < 6) {
                    dir.put(k, location(id, ++versions[id]));
                } else if (op < 8) {
                    dir.remove(k);
                } else {
                    long current = dir.get(k);
                    if (current != KeyDir.NONE) {
                        assertTrue(dir.replace(k, current, location(id, ++versions[id])));
                    }
                }
                ops++;
            }
        } finally {
            stop.set(true);
            for (Thread t : readers) {
                t.join(10_000);
            }
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " failures, first: " + failures.peek());
        assertTrue(gets.get() > 0 && scanned.get() > 0, "readers made no progress");
        assertTrue(dir.rebuilds() > 0, "expected the mass removals to trigger a rebuild");
        for (int id = 0; id < KEYS; id++) {
            long loc = dir.get(key(id));
            assertTrue(loc == KeyDir.NONE || loc == location(id, versions[id]), "final location of key " + id);
        }
        long count = 0;
        KeyDir.Cursor c = dir.cursor(null, null, false);
        while (c.next()) {
            count++;
        }
        assertEquals(dir.size(), count);
    }

    private static void getLoop(CompactKeyDir dir, AtomicBoolean stop, ConcurrentLinkedQueue<String> failures,
            AtomicLong gets, int seed) {
        Random rnd = new Random(seed);
        long[] lastVersion = new long[KEYS];
        long n = 0;
        while (!stop.get()) {
            int id = rnd.nextInt(KEYS);
            long loc = dir.get(key(id));
            n++;
            if (loc == KeyDir.NONE) {
                continue;
            }
            if (loc >>> 24 != id) {
                failures.add("get of key " + id + " returned location " + loc + " of key " + (loc >>> 24));
            }
            long version = loc & 0xFFFFFF;
            if (version < lastVersion[id]) {
                failures.add("key " + id + " went back from version " + lastVersion[id] + " to " + version);
            }
            lastVersion[id] = version;
        }
        gets.addAndGet(n);
    }

    private static void scanLoop(CompactKeyDir dir, AtomicBoolean stop, ConcurrentLinkedQueue<String> failures,
            AtomicLong scanned, int seed) {
        Random rnd = new Random(seed);
        long n = 0;
        while (!stop.get()) {
            byte[] from = rnd.nextInt(3) == 0 ? null : key(rnd.nextInt(KEYS));
            byte[] to = rnd.nextInt(3) == 0 ? null : key(rnd.nextInt(KEYS));
            boolean descending = rnd.nextBoolean();
            KeyDir.Cursor c = dir.cursor(from, to, descending);
            byte[] previous = null;
            for (int i = 0; i < 3_000 && c.next(); i++) {
                byte[] k = c.key();
                long loc = c.location();
                n++;
                if (from != null && Arrays.compareUnsigned(k, from) < 0
                        || to != null && Arrays.compareUnsigned(k, to) >= 0) {
                    failures.add("key " + Arrays.toString(k) + " outside the cursor bounds");
                }
                if (previous != null) {
                    int cmp = Arrays.compareUnsigned(previous, k);
                    if (descending ? cmp <= 0 : cmp >= 0) {
                        failures.add("cursor order broken at " + Arrays.toString(k));
                    }
                }
                if (k.length != 5 + idOf(k) % 23 || idOf(k) >= KEYS || !Arrays.equals(k, key(idOf(k)))) {
                    failures.add("cursor returned a key never written: " + Arrays.toString(k));
                } else if (loc >>> 24 != idOf(k)) {
                    failures.add("cursor paired key " + idOf(k) + " with location of key " + (loc >>> 24));
                }
                previous = k;
            }
        }
        scanned.addAndGet(n);
    }
}
