package io.kegdb.tests.crash;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.tests.support.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.*;

/** kill -9 while a merge runs, at moments spread over its duration: reopen has exactly the pre-merge data. */
class KillDuringMergeTest {

    @TempDir
    Path tmp;

    @Test
    void reopenHasExactlyThePreMergeData() throws Exception {
        long seed = 11;
        TreeMap<String, String> model = GarbageMergerChild.workload(seed, null);
        // A first run to completion tells how long a merge of this data takes here.
        long mergeMillis;
        try (ChildProcess child = ChildProcess.start(GarbageMergerChild.class, tmp.resolve("calibrate.log"),
                tmp.resolve("calibrate").toString(), String.valueOf(seed))) {
            child.awaitLine("READY", 60_000);
            String merged = child.nextLine(60_000);
            assertNotNull(merged, "merge did not finish");
            mergeMillis = Long.parseLong(merged.split(" ")[1]);
            assertEquals(0, child.waitFor(30_000));
        }
        verify(tmp.resolve("calibrate"), model);
        int rounds = Boolean.getBoolean("kegdb.stress") ? 40 : 6;
        Random rnd = new Random(seed);
        for (int round = 0; round < rounds; round++) {
            Path dir = tmp.resolve("round" + round);
            try (ChildProcess child = ChildProcess.start(GarbageMergerChild.class, tmp.resolve("round" + round + ".log"),
                    dir.toString(), String.valueOf(seed))) {
                child.awaitLine("READY", 60_000);
                // Spread kills over the merge, with some landing before it starts and after it ends.
                long delay = (long) ((mergeMillis + 20) * (round + rnd.nextDouble()) / rounds);
                Thread.sleep(delay);
                child.kill();
            }
            verify(dir, model);
        }
    }

    private static void verify(Path dir, TreeMap<String, String> model) throws Exception {
        try (Bitcask db = Bitcask.open(dir, GarbageMergerChild.options())) {
            TreeMap<String, String> actual = new TreeMap<>();
            try (KvIterator it = db.scan(null, null)) {
                while (it.hasNext()) {
                    KeyValue kv = it.next();
                    actual.put(new String(kv.key(), StandardCharsets.UTF_8), new String(kv.value(), StandardCharsets.UTF_8));
                }
            }
            assertEquals(model, actual);
            assertEquals(model.size(), db.stats().keys());
            // And after a merge and another restart, deleted keys stay deleted.
            db.merge();
        }
        try (Bitcask db = Bitcask.open(dir, GarbageMergerChild.options())) {
            assertEquals(model.size(), db.stats().keys());
            for (String k : model.keySet()) {
                assertEquals(model.get(k), new String(db.get(k.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8));
            }
        }
    }
}
