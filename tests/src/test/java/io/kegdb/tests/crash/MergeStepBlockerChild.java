package io.kegdb.tests.crash;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;
import io.kegdb.engine.MaintenanceListener;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

/**
 * The process the merge crash-point test kills: builds a small store with garbage (overwrites and deletes)
 * from a seed, prints {@code READY <digest>} of its data once durable, then merges with a listener that, at
 * the chosen occurrence of the chosen step, prints {@code AT <step> <n>} and blocks until it is killed.
 * Prints {@code MERGED} if the merge ends without reaching it. Arguments: directory, seed, step, occurrence.
 */
public final class MergeStepBlockerChild {

    private MergeStepBlockerChild() {
    }

    static BitcaskOptions options() {
        return BitcaskOptions.builder().segmentSize(8 << 10).mergeInterval(Duration.ZERO).build();
    }

    /** The data set: 3000 writes over 300 keys, a sixth of them deletes; returns the expected contents. */
    static TreeMap<String, String> workload(long seed, Bitcask db) {
        Random rnd = new Random(seed);
        TreeMap<String, String> model = new TreeMap<>();
        for (int i = 0; i < 3000; i++) {
            String key = "key" + rnd.nextInt(300);
            if (rnd.nextInt(6) == 0) {
                model.remove(key);
                if (db != null) {
                    db.delete(key.getBytes(StandardCharsets.UTF_8), Durability.NO_SYNC);
                }
            } else {
                String value = "v" + i + "x".repeat(rnd.nextInt(80));
                model.put(key, value);
                if (db != null) {
                    db.put(key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8),
                            Durability.NO_SYNC);
                }
            }
        }
        return model;
    }

    /** SHA-256 of the pairs in key order. */
    static String digest(Map<String, String> data) throws Exception {
        MessageDigest md = MessageDigest.getInstance("SHA-256");
        for (Map.Entry<String, String> e : data.entrySet()) {
            md.update((e.getKey() + '\0' + e.getValue() + '\n').getBytes(StandardCharsets.UTF_8));
        }
        return HexFormat.of().formatHex(md.digest());
    }

    public static void main(String[] args) throws Exception {
        MaintenanceListener.MergeStep step = MaintenanceListener.MergeStep.valueOf(args[2]);
        int occurrence = Integer.parseInt(args[3]);
        try (Bitcask db = Bitcask.open(Path.of(args[0]), options())) {
            workload(Long.parseLong(args[1]), db);
            db.flush();
            System.out.println("READY " + digest(StoreContents.of(db)));
            System.out.flush();
            int[] seen = {0};
            db.merge(new MaintenanceListener() {
                @Override
                public void mergeStep(MergeStep reached, String file) {
                    if (reached == step && ++seen[0] == occurrence) {
                        System.out.println("AT " + reached + " " + occurrence + " " + file);
                        System.out.flush();
                        try {
                            Thread.sleep(Long.MAX_VALUE); // the parent kills this process here
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                }
            });
            System.out.println("MERGED");
            System.out.flush();
        }
    }
}
