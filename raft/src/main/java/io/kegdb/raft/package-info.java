/**
 * The Raft-replicated store: a {@link io.kegdb.engine.KvStore} whose data lives on the nodes of one SOFAJRaft
 * group. {@link io.kegdb.raft.RaftNode} starts a member of the group (configured by
 * {@link io.kegdb.raft.RaftNodeOptions}) and is the group's store as seen from that member;
 * {@link io.kegdb.raft.RaftGroupClient} connects a thin client that holds no data. Both describe the group
 * as {@link io.kegdb.raft.RaftStatus} rows ({@link io.kegdb.raft.RaftGroupView}), read with a
 * {@link io.kegdb.raft.ReadConsistency}, and fail with a {@link io.kegdb.raft.ReplicationException} when the
 * group does not answer in time.
 *
 * <p>How requests travel and are applied is in {@link io.kegdb.raft.replication}; the Raft log and meta
 * storage on the engine in {@link io.kegdb.raft.storage}; the {@code kegdb node} and {@code kegdb cluster}
 * commands in {@link io.kegdb.raft.tool}.
 */
package io.kegdb.raft;
