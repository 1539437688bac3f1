package io.kegdb.raft;

import io.kegdb.raft.range.RangeDescriptor;

import java.util.List;

/**
 * One range as a SYS.RANGES row shows it.
 *
 * @param id             the range id (1: the meta range, the group {@code NAME} itself)
 * @param start          the first key, printable ({@link RangeDescriptor#printable}; empty: from the first key)
 * @param end            the first key after the range, printable, or null for the last range
 * @param generation     bumped by a split
 * @param replicaVersion bumped by a move
 * @param replicas       the replicas, {@code host:port} each
 * @param leader         the range's leader, {@code host:port}, or null while none is known
 */
public record RangeStatus(long id, String start, String end, long generation, long replicaVersion,
                          List<String> replicas, String leader) {

    /** The row of {@code d} led by {@code leader}. */
    public static RangeStatus of(RangeDescriptor d, String leader) {
        byte[] end = d.end();
        return new RangeStatus(d.id(), RangeDescriptor.printable(d.start()),
                end == null ? null : RangeDescriptor.printable(end), d.generation(), d.replicaVersion(),
                d.replicas(), leader);
    }
}
