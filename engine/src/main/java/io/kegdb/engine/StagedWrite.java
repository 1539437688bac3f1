package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Collects the records of one write in a direct buffer and hands them to the kernel with positional writes
 * instead of storing them through the segment's shared mapping. An fsync after bytes stored through a
 * writable mapping costs several times one after the same bytes written with {@code pwrite} (on ext4,
 * measured by {@code kegdb-bench.jar seed --parts sync} and the JDBC benchmark's batched inserts: about
 * 300 µs against 100 µs for one small record, 400 µs against 170 µs for 170 KB): the
 * kernel must write-protect the mapped pages at writeback, and the next store into each page faults again.
 * So SYNC writes and large batches go through here; small unsynced puts, which fsync never waits for,
 * stay plain memory copies.
 *
 * <p>Only the store's single writer uses it, and only between {@link #start} and {@link #finish}.
 */
final class StagedWrite {

    /** Writes that encode to at least this many bytes go through the channel even when not synced. */
    static final int LARGE_WRITE = 4 << 10;
    private static final int CAPACITY = 256 << 10;

    private final ByteBuffer buffer = ByteBuffer.allocateDirect(CAPACITY);
    /** File offset of the buffer's first byte; -1 when no write is staged. */
    private long base = -1;

    /** Whether a write of {@code encodedBytes} with {@code durability} should be staged. */
    static boolean wanted(Durability durability, long encodedBytes) {
        return durability == Durability.SYNC || encodedBytes >= LARGE_WRITE;
    }

    /** Whether {@code b} is this staging buffer. */
    boolean holds(ByteBuffer b) {
        return b == buffer;
    }

    boolean isOpen() {
        return base >= 0;
    }

    /** Starts staging bytes that belong at file offset {@code offset}. */
    void start(long offset) {
        base = offset;
        buffer.clear();
    }

    /** The buffer to encode {@code size} more bytes into, or null if they do not fit even when empty. */
    ByteBuffer room(FileChannel channel, Path path, int size) throws IOException {
        if (buffer.remaining() < size) {
            flush(channel, path);
            if (buffer.remaining() < size) {
                return null;
            }
        }
        return buffer;
    }

    /**
     * Writes what is staged to its place in the file; staging continues after it. A failure names the file
     * and offset; the bytes may be partly written, beyond the segment's published length.
     */
    void flush(FileChannel channel, Path path) throws IOException {
        buffer.flip();
        try {
            writeOut(channel);
        } catch (IOException e) {
            throw DiskFullException.classify(path, buffer.remaining(),
                    new IOException(path + ": write of " + buffer.limit() + " bytes at offset " + base + " failed: "
                            + e.getMessage(), e));
        }
        base += buffer.limit();
        buffer.clear();
    }

    /** Test hook: writes only the first half of what is staged, as a write cut short would leave it. */
    void flushFirstHalf(FileChannel channel) throws IOException {
        buffer.flip();
        buffer.limit(buffer.limit() / 2);
        writeOut(channel);
        buffer.clear();
    }

    /** Writes the buffer's remaining bytes to their place in the file. */
    private void writeOut(FileChannel channel) throws IOException {
        while (buffer.hasRemaining()) {
            channel.write(buffer, base + buffer.position());
        }
    }

    /** Ends staging; what was not flushed is dropped. */
    void finish() {
        base = -1;
        buffer.clear();
    }
}
