package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * The bound on mapped segments never drops the active segment's mapping: one made again for reading would
 * cover only the length at that moment, and records appended later would read as running past the end.
 * Merge outputs get ids above the active segment's, so the clock sweep reaches the active one first.
 */
class MappingBoundTest {

    @TempDir
    Path dir;

    @Test
    void recordsAppendedAfterTheBoundSweptStayReadable() throws IOException {
        BitcaskOptions options = BitcaskOptions.builder().segmentSize(4096).maxOpenFiles(4)
                .mergeInterval(Duration.ZERO).durability(Durability.NO_SYNC).build();
        try (Bitcask db = Bitcask.open(dir, options)) {
            for (int round = 0; round < 3; round++) {
                for (int i = 0; i < 200; i++) {
                    db.put(key("k" + i), new byte[100]);
                }
            }
            db.merge(); // several outputs, all above the active segment, more than the bound allows mapped
            db.table().enforceBound();
            for (int i = 0; i < 20; i++) {
                byte[] k = key("after-" + i);
                db.put(k, k);
                assertArrayEquals(k, db.get(k), "read back right after the write");
            }
            for (int i = 0; i < 20; i++) {
                byte[] k = key("after-" + i);
                assertArrayEquals(k, db.get(k));
            }
        }
    }

    private static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
