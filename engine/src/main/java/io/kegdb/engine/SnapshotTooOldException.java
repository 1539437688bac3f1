package io.kegdb.engine;

/**
 * A {@link KvSnapshot} stayed open while the store was written more than it can keep replaced values for
 * (see {@link SnapshotRegistry#KEPT_BYTES_LIMIT}); it can no longer answer. Take a new snapshot.
 */
public final class SnapshotTooOldException extends RuntimeException {

    SnapshotTooOldException(long keptBytes) {
        super("snapshot too old: writes since it was taken replaced more than " + keptBytes
                + " bytes of values, more than a snapshot keeps");
    }
}
