package io.kegdb.engine;

/** How far a write must reach before the call that made it returns. */
public enum Durability {
    /** Returns only after the write is on stable storage (fsync). Concurrent writers share fsyncs. */
    SYNC,
    /**
     * Returns once the write is in the operating system's page cache. A crash of the machine may lose a
     * suffix of such writes (never a part of one, never an older write without the newer ones);
     * {@link Bitcask#flush()} and {@link Bitcask#close()} make them durable.
     */
    NO_SYNC
}
