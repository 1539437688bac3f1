package io.kegdb.raft;

import java.util.List;

/**
 * A replicated store that describes its Raft group: one {@link RaftStatus} per member, as each member sees
 * itself (the rows of a SYS.RAFT table). Both {@link RaftNode} and the stores of {@link RaftClientStore}
 * implement it.
 */
public interface RaftGroupView {

    /**
     * Every member of the group as the leader lists them, each asked for its own status; a member that does
     * not answer within a second is listed with role {@code UNREACHABLE} and -1 for its numbers.
     *
     * @throws ReplicationException if no leader answers within the request timeout
     */
    List<RaftStatus> members();
}
