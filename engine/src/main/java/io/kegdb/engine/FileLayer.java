package io.kegdb.engine;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.OpenOption;
import java.nio.file.Path;

/**
 * Every change the engine makes to a store's files goes through one of these: files are opened for writing
 * here (so positional writes, size changes and fsyncs go through the channel it returns), stores into the
 * writable mapping of the active segment are reported here, and creations, renames, deletions and
 * directory fsyncs are made here. {@link #DISK} is the file system itself; tests pass a layer that records
 * each change with its fsync barriers to build the disk images a power cut could leave.
 *
 * <p>A store into a mapping cannot be intercepted byte by byte, so the writer reports each range it stored
 * ({@link #stored}) right after the copy; on disk that call does nothing and, with one implementation
 * loaded, compiles away. Reads (mapping a segment read-only, reading a hint) do not go through here, and
 * neither do the offline repair and the directory lock, which no power-cut promise covers.
 */
interface FileLayer {

    /** The real file system: today's JDK calls. */
    FileLayer DISK = new DiskFiles();

    /** Opens {@code file} with {@code options} (which include WRITE): all writing to it goes through this channel. */
    FileChannel open(Path file, OpenOption... options) throws IOException;

    /**
     * {@code length} bytes were stored at {@code offset} of {@code mapping}, a writable mapping from offset 0
     * of the file {@code channel} (a channel this layer opened) writes.
     */
    void stored(FileChannel channel, ByteBuffer mapping, int offset, int length);

    /** Renames {@code from} to {@code to} atomically, replacing {@code to} if it exists. */
    void move(Path from, Path to) throws IOException;

    /** Deletes {@code file}; whether it existed. */
    boolean deleteIfExists(Path file) throws IOException;

    /** fsync of {@code dir}: the creations, renames and deletions in it so far survive a power cut. */
    void syncDirectory(Path dir) throws IOException;
}
