package io.kegdb.tests.process;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.Durability;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Random;

/**
 * Child process of {@link MappingChurnTest}: a store of many tiny segments, of which only four stay mapped,
 * read and overwritten at random keys, so that almost every read maps a segment and every segment roll
 * drops the mappings made since the last. It makes little other garbage, like a program whose collections
 * are rare. Prints the most memory areas the process had, sampled every 1000 reads ({@code most N}).
 */
public final class MappingChurnChild {

    private MappingChurnChild() {
    }

    /** Lines of /proc/self/maps, counted in a reused buffer: measuring makes no garbage. */
    private static int memoryAreas(ByteBuffer buffer) throws IOException {
        int lines = 0;
        try (FileChannel ch = FileChannel.open(Path.of("/proc/self/maps"), StandardOpenOption.READ)) {
            buffer.clear();
            while (ch.read(buffer) > 0) {
                buffer.flip();
                while (buffer.hasRemaining()) {
                    if (buffer.get() == '\n') {
                        lines++;
                    }
                }
                buffer.clear();
            }
        }
        return lines;
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        int reads = Integer.parseInt(args[1]);
        BitcaskOptions options = BitcaskOptions.builder().segmentSize(4096).maxOpenFiles(4)
                .durability(Durability.NO_SYNC).mergeInterval(Duration.ZERO).build();
        int keys = 20_000;
        byte[][] names = new byte[keys][];
        try (Bitcask db = Bitcask.open(dir, options)) {
            for (int i = 0; i < keys; i++) {
                names[i] = ("key-" + i).getBytes(StandardCharsets.UTF_8);
                db.put(names[i], new byte[100]);
            }
            Random random = new Random(1);
            ByteBuffer buffer = ByteBuffer.allocateDirect(16 << 20);
            int most = 0;
            for (int i = 0; i < reads; i++) {
                db.get(names[random.nextInt(keys)]);
                // Writes keep rolling segments, and each new segment sends all but four mappings away.
                db.put(names[random.nextInt(keys)], new byte[100]);
                if (i % 1000 == 0) {
                    most = Math.max(most, memoryAreas(buffer));
                }
            }
            System.out.println("most " + most);
        }
    }
}
