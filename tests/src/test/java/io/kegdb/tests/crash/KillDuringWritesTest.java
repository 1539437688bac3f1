package io.kegdb.tests.crash;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.tests.support.ChildProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.*;

/**
 * kill -9 of a process writing SYNC puts, batches and deletes, at random moments, several rounds on one
 * directory: every acknowledged write survives, no batch is partly visible, no acknowledged delete undone.
 */
class KillDuringWritesTest {

    @TempDir
    Path tmp;

    @Test
    void acknowledgedWritesSurviveKill9() throws Exception {
        Path dir = tmp.resolve("db");
        Random rnd = new Random(7);
        int rounds = Boolean.getBoolean("kegdb.stress") ? 50 : 5;
        Set<String> present = new HashSet<>();
        Set<String> deleted = new HashSet<>();
        Map<String, Integer> batches = new HashMap<>();
        int acks = 0;
        for (int round = 0; round < rounds; round++) {
            try (ChildProcess child = ChildProcess.start(SyncWriterChild.class, tmp.resolve("child-" + round + ".log"),
                    dir.toString(), String.valueOf(round), String.valueOf(rnd.nextLong()))) {
                child.awaitLine("OPEN", 30_000);
                Thread.sleep(50 + rnd.nextInt(400));
                child.kill();
                List<String> lines = child.drain(5_000);
                for (String line : lines) {
                    String[] p = line.split(" ");
                    switch (p[0]) {
                        case "PUT" -> present.add(p[1]);
                        case "DELETING" -> present.remove(p[1]);
                        case "BATCH" -> batches.put(p[1], Integer.parseInt(p[2]));
                        case "DEL" -> deleted.add(p[1]);
                        default -> fail("unexpected line " + line);
                    }
                    acks++;
                }
            }
            verify(dir, present, deleted, batches);
        }
        assertTrue(acks > rounds, "the child acknowledged too few writes to prove anything: " + acks);
    }

    private static void verify(Path dir, Set<String> present, Set<String> deleted, Map<String, Integer> batches)
            throws Exception {
        try (Bitcask db = Bitcask.open(dir, BitcaskOptions.builder().mergeInterval(Duration.ZERO).build())) {
            for (String key : present) {
                assertEquals(SyncWriterChild.value(key), str(db.get(b(key))), "acknowledged put lost: " + key);
            }
            for (String key : deleted) {
                assertNull(db.get(b(key)), "acknowledged delete undone: " + key);
            }
            for (Map.Entry<String, Integer> e : batches.entrySet()) {
                int n = e.getValue();
                for (int k = 0; k < n; k++) {
                    String key = e.getKey() + "/" + k + "of" + n;
                    assertEquals(SyncWriterChild.value(key), str(db.get(b(key))), "acknowledged batch lost: " + key);
                }
            }
            // Any batch, acknowledged or not, is all there or not at all; every value is intact.
            try (KvIterator it = db.scan(null, null)) {
                while (it.hasNext()) {
                    KeyValue kv = it.next();
                    String key = str(kv.key());
                    assertEquals(SyncWriterChild.value(key), str(kv.value()), "wrong value for " + key);
                    int slash = key.lastIndexOf('/');
                    int of = key.lastIndexOf("of");
                    if (key.substring(0, slash).contains("/b")) {
                        int n = Integer.parseInt(key.substring(of + 2));
                        for (int k = 0; k < n; k++) {
                            String member = key.substring(0, slash) + "/" + k + "of" + n;
                            assertNotNull(db.get(b(member)), "batch partly visible: " + key + " without " + member);
                        }
                    }
                }
            }
        }
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String str(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
