package io.kegdb.bench;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The cheapest durable write this filesystem offers: a small record written with {@link FileChannel#write}
 * and made durable with {@code force(false)} (fdatasync), repeated. Measured two ways: appending (the file
 * grows, as an append-only log does) and overwriting inside a preallocated file (no size change).
 *
 * @param append    latencies of append + fdatasync
 * @param overwrite latencies of in-place write + fdatasync
 */
record FsyncFloor(LatencyHistogram append, LatencyHistogram overwrite) {

    static final int RECORD_BYTES = 160;
    private static final int PREALLOCATED = 1 << 20;

    static FsyncFloor measure(Path parent, int maxOps, long maxNanos) throws IOException {
        try (ScratchDirectory dir = ScratchDirectory.create(parent, "kegdb-bench-fsync-")) {
            return new FsyncFloor(appending(dir.path().resolve("append.log"), maxOps, maxNanos),
                    overwriting(dir.path().resolve("overwrite.log"), maxOps, maxNanos));
        }
    }

    private static LatencyHistogram appending(Path file, int maxOps, long maxNanos) throws IOException {
        LatencyHistogram h = new LatencyHistogram();
        ByteBuffer record = ByteBuffer.allocate(RECORD_BYTES);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long deadline = System.nanoTime() + maxNanos;
            for (int i = 0; i < maxOps && System.nanoTime() < deadline; i++) {
                record.clear().putInt(0, i);
                long start = System.nanoTime();
                ch.write(record);
                ch.force(false);
                h.record(System.nanoTime() - start);
            }
        }
        return h;
    }

    private static LatencyHistogram overwriting(Path file, int maxOps, long maxNanos) throws IOException {
        LatencyHistogram h = new LatencyHistogram();
        ByteBuffer record = ByteBuffer.allocate(RECORD_BYTES);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.allocate(PREALLOCATED), 0);
            ch.force(true);
            long deadline = System.nanoTime() + maxNanos;
            int slots = PREALLOCATED / RECORD_BYTES;
            for (int i = 0; i < maxOps && System.nanoTime() < deadline; i++) {
                record.clear().putInt(0, i);
                long start = System.nanoTime();
                ch.write(record, (long) (i % slots) * RECORD_BYTES);
                ch.force(false);
                h.record(System.nanoTime() - start);
            }
        }
        return h;
    }
}
