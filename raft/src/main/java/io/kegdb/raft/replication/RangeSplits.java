package io.kegdb.raft.replication;

import io.kegdb.engine.KvIterator;
import io.kegdb.raft.range.RangeDescriptor;

import java.io.IOException;

/**
 * Where a replica's splits make their new ranges (docs/SCALE.md, "Splits"): the process that hosts the replica
 * ({@link io.kegdb.raft.RangeHost}). A state machine without one cannot apply a split, and stops rather than
 * lose the new range's data.
 */
public interface RangeSplits {

    /**
     * Makes this process's replica of the new range {@code range} of group {@code group}, holding
     * {@code pairs} and {@code fence} (the catalog fence it begins with), before those pairs leave the splitting
     * range. Runs on the splitting range's state machine thread, at the split's log index, so every replica
     * makes the same. Idempotent: a replica made completely before (the split applied again when the log is
     * replayed) is kept as it is.
     */
    void make(String group, RangeDescriptor range, byte[] fence, KvIterator pairs) throws IOException;

    /**
     * Starts this process's replica of {@code group} unless it runs already: made by {@link #make}, or (a
     * replica that caught up by a snapshot taken after the split) empty, to be sent the group's snapshot by
     * its leader. Must not block the caller.
     */
    void host(String group, RangeDescriptor range);
}
