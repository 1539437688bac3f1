package io.kegdb.raft;

/**
 * One node's view of its Raft group, as a SYS.RAFT row shows it.
 *
 * @param node          this node, {@code host:port}
 * @param group         the Raft group
 * @param role          LEADER, FOLLOWER, CANDIDATE, TRANSFERRING, ERROR, SHUTDOWN..., or {@link #UNREACHABLE}
 * @param term          the current term
 * @param leader        the leader as this node knows it, {@code host:port}, or null
 * @param commitIndex   the last log index known committed
 * @param appliedIndex  the last log index applied to the data store
 * @param firstLogIndex the first index still in the log (later than 1 once a snapshot truncated it)
 * @param lastLogIndex  the last index in the log
 */
public record RaftStatus(String node, String group, String role, long term, String leader, long commitIndex,
                         long appliedIndex, long firstLogIndex, long lastLogIndex) {

    /** The role of a node that did not answer; its numbers are then -1 and its leader null. */
    public static final String UNREACHABLE = "UNREACHABLE";

    /** False for a node that did not answer, whose numbers mean nothing. */
    public boolean answered() {
        return !UNREACHABLE.equals(role);
    }
}
