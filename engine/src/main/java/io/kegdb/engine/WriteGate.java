package io.kegdb.engine;

/**
 * What the store checks and keeps under the write lock just before a write changes anything: a batch's
 * preconditions, and the values open snapshots must keep. Throwing stops the write with nothing written.
 */
interface WriteGate {

    /**
     * Called with the write lock held: {@code key} for a single put or delete, else {@code batch} (which
     * may hold no operation, only preconditions); {@code version} is the store's write version now.
     */
    void beforeWrite(byte[] key, WriteBatch batch, long version);
}
