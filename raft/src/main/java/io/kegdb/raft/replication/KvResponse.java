package io.kegdb.raft.replication;

import io.kegdb.raft.RaftStatus;

import java.io.Serializable;

/** A node's answer to a {@link KvRequest}. */
public final class KvResponse implements Serializable {
    private static final long serialVersionUID = 1L;

    /** Done; for a write: committed on a majority and applied. */
    static final byte OK = 0;
    /** The write was applied and wrote nothing: a put-if-absent found {@link #value} (the key) present. */
    static final byte KEY_EXISTS = 1;
    /** The write was applied and wrote nothing: a precondition on {@link #value} (the key) no longer held. */
    static final byte WRITE_CONFLICT = 6;
    /** The snapshot a read names is not open on this node (closed, idle too long, or the node restarted). */
    static final byte SNAPSHOT_GONE = 7;
    /** The write's client session is not open (never opened, or expired after long idleness): not applied. */
    static final byte SESSION_UNKNOWN = 8;
    /** The write's serial is below the lowest its session still waits for (an abandoned attempt): not applied. */
    static final byte REQUEST_DISCARDED = 9;
    /** The request needs a login (no ticket, or an expired or outdated one): nothing was done. */
    static final byte LOGIN_REQUIRED = 10;
    /** The login failed ({@link #message}, the same for every reason). */
    static final byte LOGIN_FAILED = 11;
    /** Refused for the logged-in user, or a user command failed: {@link #sqlState} and {@link #message}. */
    static final byte REFUSED = 12;
    /**
     * The request named a stale route (another generation of the range, or a key outside its bounds); a write
     * was applied as a no-op. {@link #descriptor} carries the replica's current descriptor.
     */
    static final byte STALE_ROUTE = 13;
    /** The receiving node hosts no replica of the range the request named: nothing was done. */
    static final byte NO_RANGE = 14;
    /** The node is not the leader and did not accept the write; {@link #leader} may name the leader. */
    static final byte NOT_LEADER = 2;
    /** The node could not serve the request now (no leader, read index failed); nothing was written. */
    static final byte UNAVAILABLE = 3;
    /** The leader accepted the write but lost leadership before the outcome was known. */
    static final byte OUTCOME_UNKNOWN = 4;
    /** The request cannot succeed anywhere (bad request, storage failure). */
    static final byte FAILED = 5;

    byte status;
    String message;
    /** The leader as this node knows it, "host:port", or null. */
    String leader;
    /** GET: the value or null; KEY_EXISTS, WRITE_CONFLICT: the key. */
    byte[] value;
    /** Whether {@link #watched} answers the request's watched key (a node from before watching leaves it false). */
    boolean watchedRead;
    /** The watched key's value (null: absent), read after the request's own data from the same state. */
    byte[] watched;
    /** WRITE of a single delete: whether the key existed. */
    boolean existed;
    /** SNAPSHOT_OPEN: the id of the snapshot opened. */
    long snapshot;
    /** SCAN: a {@link PageCodec} page; MULTI_GET: the values of the first keys, a {@link MultiGetCodec} list. */
    byte[] page;
    /** STATS: keys, segments, live bytes, dead bytes, merges, keydir bytes.
     *  STATUS: term, commit index, applied index, first log index, last log index. */
    long[] stats;
    /** STATUS, SNAPSHOT_OPEN: the answering node; STATUS: its role, and (from a leader) the group's peers, comma-separated. */
    String node;
    String role;
    String peers;
    /** REFUSED: the SQLState. */
    String sqlState;
    /** STALE_ROUTE: the stored form of the answering replica's current range descriptor. */
    byte[] descriptor;

    static KvResponse status(RaftStatus s, String peers) {
        KvResponse r = ok();
        r.node = s.node();
        r.role = s.role();
        r.leader = s.leader();
        r.peers = peers;
        r.stats = new long[]{s.term(), s.commitIndex(), s.appliedIndex(), s.firstLogIndex(), s.lastLogIndex()};
        return r;
    }

    RaftStatus toStatus(String group) {
        return new RaftStatus(node, group, role, stats[0], leader, stats[1], stats[2], stats[3], stats[4]);
    }

    static KvResponse of(byte status, String message) {
        KvResponse r = new KvResponse();
        r.status = status;
        r.message = message;
        return r;
    }

    static KvResponse ok() {
        return of(OK, null);
    }

    @Override
    public String toString() {
        return "status " + status + (message == null ? "" : ": " + message) + (leader == null ? "" : ", leader " + leader);
    }
}
