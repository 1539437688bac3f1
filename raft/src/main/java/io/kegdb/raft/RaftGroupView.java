package io.kegdb.raft;

import java.util.List;

/**
 * A replicated store that describes its Raft group: one {@link RaftStatus} per member, as each member sees
 * itself (the rows of a SYS.RAFT table). Both {@link RaftNode} and the stores of {@link RaftGroupClient}
 * implement it.
 */
public interface RaftGroupView {

    /**
     * One row per node, each as the node itself answers: every node this store was configured with, every
     * member a leader lists and every leader a node names. A node that does not answer within a second is
     * listed with role {@code UNREACHABLE}, no leader and -1 for its numbers. Needs no leader (a member lists
     * at least itself), so it answers during an election or an outage of the majority; rows are ordered by
     * node address.
     *
     * @throws ReplicationException only if the calling thread is interrupted
     */
    List<RaftStatus> members();
}
