package io.kegdb.raft;

import io.kegdb.raft.range.RangeDescriptor;

/** A group's store that asks the group's leader to split the group's range by hand (docs/SCALE.md, "Splits"). */
public interface RangeSplitter {

    /**
     * Splits this group's range at store key {@code at}: the leader takes a new range id, logs the split and
     * writes both descriptors into the meta range before it answers. Asking again once it is done changes
     * nothing.
     *
     * @return the new range ({@code [at, end)}), or null when the range already ended at {@code at}
     * @throws io.kegdb.engine.AccessDeniedException on a cluster with users, unless the user is an admin (42501)
     * @throws RefusedException    (22023) if {@code at} is not strictly inside the range, or in the system span
     * @throws ReplicationException if the group did not answer in time
     */
    RangeDescriptor split(byte[] at);
}
