package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;

/**
 * Makes the bytes of a read-write mapped segment real before records are copied into them. The mapping
 * covers the segment's full capacity over a sparse file; a store into a page the filesystem cannot back
 * (a full disk) is a SIGBUS, which the JVM reports as an asynchronous error or by dying. Writing zeros
 * through the channel a window ahead of the append position turns a full disk into an {@link IOException}
 * for the write that needed the room, before any of its bytes is copied.
 */
final class SegmentSpace {

    /** How far ahead of the append position space is made real at once. */
    static final int WINDOW = 1 << 20;
    private static final ByteBuffer ZEROS = ByteBuffer.allocateDirect(WINDOW).asReadOnlyBuffer();

    private SegmentSpace() {
    }

    /**
     * Writes zeros over {@code [from, to)} of {@code ch} (the file {@code path}); the caller knows no record
     * lives there. The error names the file and the bytes needed ({@link DiskFullException} when the
     * filesystem is full); whatever was zeroed before the failure stays, harmlessly, beyond the data.
     */
    static void allocate(FileChannel ch, Path path, long from, long to) throws IOException {
        long at = from;
        try {
            while (at < to) {
                ByteBuffer zeros = ZEROS.duplicate();
                zeros.limit((int) Math.min(WINDOW, to - at));
                while (zeros.hasRemaining()) {
                    at += ch.write(zeros, at);
                }
            }
        } catch (IOException e) {
            IOException failure = DiskFullException.classify(path, to - at, e);
            if (failure == e) {
                throw new IOException(path + ": cannot allocate " + (to - from) + " bytes at offset " + from, e);
            }
            throw failure;
        }
    }
}
