package io.kegdb.engine;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The filesystem had no room for a write: a data segment (or merge output, hint or backup file) could not
 * get the bytes it needs. Nothing acknowledged is lost; the store stays readable, and writes succeed again
 * once space is freed. Reaches callers of {@link Bitcask#put} and friends as the cause of an
 * {@link java.io.UncheckedIOException}.
 */
public final class DiskFullException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long bytesNeeded;

    DiskFullException(Path file, long bytesNeeded, long bytesAvailable, IOException cause) {
        super(file + ": no space left on the device for " + bytesNeeded + " bytes (" + bytesAvailable
                + " available)", cause);
        this.file = file;
        this.bytesNeeded = bytesNeeded;
    }

    /** The file that could not grow. */
    public Path file() {
        return file;
    }

    /** How many more bytes it needed. */
    public long bytesNeeded() {
        return bytesNeeded;
    }

    /**
     * {@code failure} as a {@link DiskFullException} if the filesystem holding {@code file} has fewer than
     * {@code needed} usable bytes (the JDK reports ENOSPC only as message text), else {@code failure}.
     */
    static IOException classify(Path file, long needed, IOException failure) {
        if (failure instanceof DiskFullException) {
            return failure;
        }
        long available;
        try {
            available = Files.getFileStore(file.toAbsolutePath().getParent()).getUsableSpace();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
            return failure;
        }
        if (available < needed || String.valueOf(failure.getMessage()).contains("No space left")) {
            return new DiskFullException(file, needed, available, failure);
        }
        return failure;
    }
}
