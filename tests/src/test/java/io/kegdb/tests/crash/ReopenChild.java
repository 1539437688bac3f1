package io.kegdb.tests.crash;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The process {@link KillAfterReopenTest} kills: opens an existing store, reads it, optionally writes
 * {@code writes} SYNC puts (printing {@code PUT key} after each), prints {@code READY} and waits to be killed.
 * Arguments: directory, writes.
 */
public final class ReopenChild {

    static final BitcaskOptions OPTIONS = BitcaskOptions.builder().segmentSize(1 << 20)
            .mergeInterval(Duration.ZERO).build();

    private ReopenChild() {
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int writes = Integer.parseInt(args[1]);
        try (Bitcask db = Bitcask.open(dir, OPTIONS)) {
            db.get("k0".getBytes(StandardCharsets.UTF_8));
            for (int i = 0; i < writes; i++) {
                String key = "new" + i;
                db.put(key.getBytes(StandardCharsets.UTF_8), ("v-" + key).getBytes(StandardCharsets.UTF_8),
                        Durability.SYNC);
                System.out.println("PUT " + key);
            }
            System.out.println("READY");
            System.out.flush();
            Thread.sleep(120_000);
        }
    }
}
