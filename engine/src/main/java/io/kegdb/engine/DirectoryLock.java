package io.kegdb.engine;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Ownership of a store directory: an OS lock on its {@code LOCK} file. The operating system drops the lock
 * when the owning process dies, so a crash never leaves a stale lock behind.
 */
final class DirectoryLock implements AutoCloseable {

    static final String FILE_NAME = "LOCK";

    private final FileChannel channel;
    private final FileLock lock;

    private DirectoryLock(FileChannel channel, FileLock lock) {
        this.channel = channel;
        this.lock = lock;
    }

    /** Whether the lock could be taken right now ({@code shared} or exclusive); it is released at once. */
    static boolean isFree(Path dir, boolean shared) {
        try {
            acquire(dir, shared).close();
            return true;
        } catch (IOException held) {
            return false;
        }
    }

    /** Takes the lock: exclusive for a writer, shared for read-only openers. */
    static DirectoryLock acquire(Path dir, boolean shared) throws IOException {
        Path file = dir.resolve(FILE_NAME);
        FileChannel ch = shared
                ? FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE)
                : FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
        FileLock lock;
        try {
            lock = ch.tryLock(0, Long.MAX_VALUE, shared);
        } catch (OverlappingFileLockException e) {
            ch.close();
            throw new IOException(dir + " is already open in this process (" + file + " is locked)");
        } catch (IOException e) {
            ch.close();
            throw e;
        }
        if (lock == null) {
            ch.close();
            throw new IOException(dir + " is in use by another process (" + file + " is locked)");
        }
        return new DirectoryLock(ch, lock);
    }

    @Override
    public void close() throws IOException {
        try {
            lock.release();
        } finally {
            channel.close();
        }
    }
}
