package io.kegdb.engine;

import java.io.IOException;
import java.nio.file.Path;

/**
 * A record a read reached is damaged: its framing, CRC or key does not match what the keydir expects, so its
 * bytes are not returned. Reaches callers of reads (get, scans, cursors) as the cause of an
 * {@link java.io.UncheckedIOException}.
 */
public final class CorruptRecordException extends IOException {

    private static final long serialVersionUID = 1L;

    private final transient Path file;
    private final long offset;

    CorruptRecordException(Path file, long offset, String what) {
        super(file + ": corrupt record at offset " + offset + " (" + what + ")");
        this.file = file;
        this.offset = offset;
    }

    /** The segment file holding the record. */
    public Path file() {
        return file;
    }

    /** The record's byte offset in that file. */
    public long offset() {
        return offset;
    }
}
