package io.kegdb.raft;

import java.util.List;

/**
 * A replicated store that describes its ranges (docs/SCALE.md): one {@link RangeStatus} per range descriptor
 * in the meta range, with the range's leader (the rows of a SYS.RANGES table). Both {@link RaftNode} and the
 * stores of {@link RaftGroupClient} implement it.
 */
public interface RangeView {

    /**
     * Every range the meta range describes, in key order, each with its leader as the node asked knows it
     * (null while it knows none). Empty until the meta range holds the first descriptor (written by the first
     * leader after it is elected).
     *
     * @throws ReplicationException if the meta range cannot be read
     */
    List<RangeStatus> ranges();
}
