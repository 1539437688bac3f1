package io.kegdb.tests.crash;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;
import io.kegdb.engine.WriteBatch;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Random;

/**
 * The process the crash tests kill. Writes with SYNC durability forever and prints an acknowledgement line
 * after each call returns:
 * <pre>
 * PUT key          a put of key -> value(key)
 * BATCH id n       a batch writing keys id/0of{n} .. id/{n-1}of{n}, each value(key)
 * DELETING key     announces a delete (the put of key is no longer owed to the test)
 * DEL key          a delete of a key acknowledged earlier
 * </pre>
 * Arguments: directory, round (keys are unique per round), seed.
 */
public final class SyncWriterChild {

    private SyncWriterChild() {
    }

    static String value(String key) {
        return "value-of-" + key + "-" + "p".repeat(key.hashCode() & 63);
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        String round = args[1];
        Random rnd = new Random(Long.parseLong(args[2]));
        BitcaskOptions opts = BitcaskOptions.builder().segmentSize(64 << 10).mergeInterval(Duration.ZERO).build();
        try (Bitcask db = Bitcask.open(dir, opts)) {
            System.out.println("OPEN");
            System.out.flush();
            long lastPut = -1;
            for (long i = 0; ; i++) {
                int op = rnd.nextInt(10);
                if (op < 6) {
                    String key = "r" + round + "/p" + i;
                    db.put(b(key), b(value(key)), Durability.SYNC);
                    System.out.println("PUT " + key);
                    lastPut = i;
                } else if (op < 9) {
                    String id = "r" + round + "/b" + i;
                    int n = 2 + rnd.nextInt(20);
                    WriteBatch batch = new WriteBatch();
                    for (int k = 0; k < n; k++) {
                        String key = id + "/" + k + "of" + n;
                        batch.put(b(key), b(value(key)));
                    }
                    db.write(batch, Durability.SYNC);
                    System.out.println("BATCH " + id + " " + n);
                } else if (lastPut >= 0) {
                    String key = "r" + round + "/p" + lastPut;
                    System.out.println("DELETING " + key);
                    System.out.flush();
                    db.delete(b(key), Durability.SYNC);
                    System.out.println("DEL " + key);
                    lastPut = -1;
                }
                System.out.flush();
            }
        }
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
