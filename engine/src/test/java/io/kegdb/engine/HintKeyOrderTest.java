package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Hint files list keys in unsigned-byte order, and the next open builds the key order from them: keys that
 * tie on their first 8 bytes (a table's keyspace and a BIGINT's high bytes) and differ later, in any byte of
 * an 8-byte block, above 0x7F, or only in length, come back in order after a reopen from hints.
 */
class HintKeyOrderTest {

    @Test
    void keysTiedOnLongPrefixesKeepTheirOrderThroughHints(@TempDir Path dir) throws Exception {
        BitcaskOptions options = BitcaskOptions.builder().segmentSize(32 << 10).mergeInterval(Duration.ZERO).build();
        Random random = new Random(7);
        Map<byte[], byte[]> expected = new TreeMap<>(Arrays::compareUnsigned);
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            byte[] key = new byte[8 + random.nextInt(17)];
            key[3] = 9; // a shared keyspace-like prefix; later bytes decide
            for (int j = 8; j < key.length; j++) {
                key[j] = (byte) (random.nextInt(4) == 0 ? 0x80 + random.nextInt(128) : random.nextInt(3));
            }
            keys.add(key);
        }
        try (Bitcask store = Bitcask.open(dir, options)) {
            for (int round = 0; round < 2; round++) { // the second round overwrites: a hint keeps the newest
                for (byte[] key : keys) {
                    byte[] value = (round + ":" + Arrays.toString(key)).getBytes();
                    store.put(key, value);
                    expected.put(key, value);
                }
            }
        }
        try (Bitcask store = Bitcask.open(dir, options)) {
            for (Segment s : store.table().all()) {
                assertNull(HintFile.problem(s), s.path().toString());
            }
            List<byte[]> scanned = new ArrayList<>();
            try (KvIterator it = store.scan(null, null)) {
                while (it.hasNext()) {
                    KeyValue kv = it.next();
                    assertArrayEquals(expected.get(kv.key()), kv.value());
                    scanned.add(kv.key());
                }
            }
            assertEquals(expected.size(), scanned.size());
            int i = 0;
            for (byte[] key : expected.keySet()) {
                assertArrayEquals(key, scanned.get(i++), "key " + i + " in order");
            }
        }
    }
}
