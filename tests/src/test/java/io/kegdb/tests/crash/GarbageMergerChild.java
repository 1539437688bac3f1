package io.kegdb.tests.crash;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;
import java.util.TreeMap;

/**
 * The process the merge crash test kills: builds a store with much garbage from a seed (the test rebuilds
 * the same model from the seed), prints READY once it is durable, then merges and prints MERGED ms.
 * Arguments: directory, seed.
 */
public final class GarbageMergerChild {

    private GarbageMergerChild() {
    }

    static BitcaskOptions options() {
        return BitcaskOptions.builder().segmentSize(256 << 10).mergeInterval(Duration.ZERO).build();
    }

    /** The data set: overwrites and deletes over a small key space, so most bytes are garbage. */
    static TreeMap<String, String> workload(long seed, Bitcask db) {
        Random rnd = new Random(seed);
        TreeMap<String, String> model = new TreeMap<>();
        for (int i = 0; i < 60_000; i++) {
            String key = "key" + rnd.nextInt(4000);
            if (rnd.nextInt(8) == 0) {
                model.remove(key);
                if (db != null) {
                    db.delete(key.getBytes(StandardCharsets.UTF_8), Durability.NO_SYNC);
                }
            } else {
                String value = "v" + i + "x".repeat(rnd.nextInt(200));
                model.put(key, value);
                if (db != null) {
                    db.put(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8),
                            Durability.NO_SYNC);
                }
            }
        }
        return model;
    }

    public static void main(String[] args) throws Exception {
        try (Bitcask db = Bitcask.open(Path.of(args[0]), options())) {
            workload(Long.parseLong(args[1]), db);
            db.flush();
            System.out.println("READY");
            System.out.flush();
            long t = System.nanoTime();
            db.merge();
            System.out.println("MERGED " + (System.nanoTime() - t) / 1_000_000);
            System.out.flush();
        }
    }
}
