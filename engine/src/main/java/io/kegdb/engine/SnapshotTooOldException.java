package io.kegdb.engine;

/**
 * A {@link KvSnapshot} can no longer answer: it stayed open while the store was written more than it can
 * keep replaced values for (see {@link SnapshotRegistry#KEPT_BYTES_LIMIT}), or, for a replicated store,
 * the node holding it closed it. Take a new snapshot.
 */
public final class SnapshotTooOldException extends RuntimeException {
    private static final long serialVersionUID = 1L;


    SnapshotTooOldException(long keptBytes) {
        this("snapshot too old: writes since it was taken replaced more than " + keptBytes
                + " bytes of values, more than a snapshot keeps");
    }

    /** {@code message} says why the snapshot is gone. */
    public SnapshotTooOldException(String message) {
        super(message);
    }
}
