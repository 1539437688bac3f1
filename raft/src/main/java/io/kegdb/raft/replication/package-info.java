/**
 * How the replicated store works, under the public types of {@link io.kegdb.raft}.
 *
 * <p>On the calling side, {@link io.kegdb.raft.replication.GroupStore} turns {@code KvStore} calls into
 * {@link io.kegdb.raft.replication.KvRequest}s, a write batch encoded by
 * {@link io.kegdb.raft.replication.BatchCodec} as one log entry; {@link io.kegdb.raft.replication.GroupCaller}
 * sends them to the leader (found by {@link io.kegdb.raft.replication.LeaderLookup} or named in the answers)
 * over a {@link io.kegdb.raft.replication.Transport} and retries across leader changes until the timeout.
 * Scans come back a page at a time ({@link io.kegdb.raft.replication.PageCodec},
 * {@link io.kegdb.raft.replication.PagedIterator}).
 *
 * <p>On a node, {@link io.kegdb.raft.replication.KvRequestProcessor} hands each request arriving at the RPC
 * server to the {@link io.kegdb.raft.replication.Replica}, which proposes writes to Raft and serves reads
 * after a read index; {@link io.kegdb.raft.replication.KvStateMachine} applies committed entries to the
 * node's {@link io.kegdb.raft.replication.DataStore} and snapshots it.
 *
 * <p>Uses only the value types of {@link io.kegdb.raft} (status rows, read consistency, the replication
 * exception, the group view); {@link io.kegdb.raft.RaftNode} and {@link io.kegdb.raft.RaftGroupClient}
 * assemble these parts.
 */
package io.kegdb.raft.replication;
