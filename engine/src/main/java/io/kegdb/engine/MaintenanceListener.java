package io.kegdb.engine;

/**
 * Progress of a long maintenance operation ({@link Bitcask#merge(MaintenanceListener)},
 * {@link Bitcask#backup(java.nio.file.Path, MaintenanceListener)}, {@link Bitcask#check},
 * {@link Bitcask#repair}), for progress displays and for tests that stop a merge at a chosen step. Callbacks
 * run on the thread doing the work, which waits for them; every method does nothing by default.
 */
public interface MaintenanceListener {

    /** Does nothing. */
    MaintenanceListener NONE = new MaintenanceListener() {
    };

    /** The durable steps of a merge, each reported once per output or input segment it concerns. */
    enum MergeStep {
        /** An output segment was written and fsynced under its temporary name ({@code NNNNNNNNN.data.tmp}). */
        OUTPUT_WRITTEN,
        /** The output's hint file was written and fsynced. */
        HINT_WRITTEN,
        /** The output was renamed to its final name and the directory fsynced: it now replays on open. */
        OUTPUT_INSTALLED,
        /** The keydir entries that still pointed at the copied records now point at the output. */
        KEYDIR_MOVED,
        /** An input segment (and its hint) was deleted and the directory fsynced. */
        INPUT_DELETED
    }

    /**
     * Bytes and segments done so far out of the totals the operation expects; called after each segment and
     * at least every few MiB within one.
     */
    default void progress(long bytesDone, long bytesTotal, int segmentsDone, int segmentsTotal) {
    }

    /** A merge reached {@code step}; {@code file} is the segment file name it concerns. */
    default void mergeStep(MergeStep step, String file) {
    }
}
