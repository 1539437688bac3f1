package io.kegdb.raft.replication;

import java.io.Serializable;
import java.util.List;

/**
 * A request to a node of the group, sent over the node's RPC server; see {@link KvRequestProcessor}.
 *
 * <p>Wire versions: {@link #version} 0 (the field absent: requests from before client sessions) carries a
 * write without a session, which the leader logs as a bare {@link BatchCodec} entry and which is applied
 * as often as it is sent; {@value #SESSION_VERSION} carries the client session, serial and floor of every
 * write ({@link #WRITE}, {@link #OPEN_SESSION}), which the leader logs as a {@link LogEntry}.
 */
public final class KvRequest implements Serializable {
    private static final long serialVersionUID = 1L;

    static final byte SESSION_VERSION = 2;

    static final byte WRITE = 1;
    static final byte GET = 2;
    static final byte SCAN = 3;
    static final byte STATS = 4;
    static final byte STATUS = 5;
    static final byte SNAPSHOT_OPEN = 6;
    static final byte SNAPSHOT_CLOSE = 7;
    static final byte OPEN_SESSION = 8;
    /** Users (see {@link #ticket}): a login, a change of the users (a write), the list of users. */
    static final byte LOGIN = 9;
    static final byte USER_COMMAND = 10;
    static final byte LIST_USERS = 11;
    /** Many keys' values in one read (see {@link MultiGetCodec}). */
    static final byte MULTI_GET = 12;
    /** Split the receiving replica's range at {@link #key} (admins only; run by the range's leader). */
    static final byte SPLIT = 13;

    /** 0: no session fields (see the class comment); {@value #SESSION_VERSION}: with them. Set by the
     *  factories, not by an initializer, so that a request decoded without the field reads 0. */
    byte version;

    String group;
    byte op;
    /** WRITE, OPEN_SESSION: the client session's id (see {@link SessionId}). */
    long sessionHigh;
    long sessionLow;
    /** WRITE: this request's serial number in its session, from 1; every resend carries the same. */
    long serial;
    /** WRITE: the lowest serial the session still waits for; the state machine may forget results below it. */
    long floor;
    /** WRITE: the {@link BatchCodec} bytes. */
    byte[] batch;
    /** GET: the key; SPLIT: the store key the range splits at. */
    byte[] key;
    /** MULTI_GET: the keys, a {@link MultiGetCodec} list. */
    byte[] keys;
    /** {@link #keys} decoded, once per request: the authorization, the read and the route check each walk them. */
    private transient List<byte[]> keyList;
    /** SCAN: the bounds (null = open), the page size and the direction. */
    byte[] from;
    byte[] to;
    int limit;
    boolean descending;
    /** Reads: serve from the receiving node's state as it is, without a read index round. */
    boolean local;
    /** GET, MULTI_GET, SCAN, SNAPSHOT_CLOSE: the id of a snapshot the receiving node opened (0: none, read the
     *  store). */
    long snapshot;
    /** On a cluster with users, every request but a LOGIN: the ticket the login returned (checked by the
     *  receiving node, see {@code io.kegdb.raft.users.Authorizer}). */
    byte[] ticket;
    /** LOGIN: the user's name and password (sent inside TLS only; never logged or stored). */
    String user;
    String password;
    /** USER_COMMAND: the encoded {@code UserCommand}. */
    byte[] command;
    /** GET, MULTI_GET, SCAN, SNAPSHOT_OPEN: a key to read after the request's own data and answer along (null:
     *  none). */
    byte[] watch;
    /** Every request: the range it is meant for and the generation of the descriptor the client routed by;
     *  0 (a client from before ranges): none named (see {@link io.kegdb.raft.range.RouteCheck}). */
    long rangeId;
    long generation;

    private static KvRequest of(String group, byte op) {
        KvRequest r = new KvRequest();
        r.version = SESSION_VERSION;
        r.group = group;
        r.op = op;
        return r;
    }

    static KvRequest write(String group, byte[] batch, SessionId session, long serial) {
        KvRequest r = of(group, WRITE);
        r.batch = batch;
        r.serial = serial;
        return r.in(session);
    }

    /** Opens (or refreshes) client session {@code session} on the group. */
    static KvRequest openSession(String group, SessionId session) {
        return of(group, OPEN_SESSION).in(session);
    }

    /** Moves this write to {@code session} (a new one, after the group forgot the old one). */
    KvRequest in(SessionId session) {
        this.sessionHigh = session.high();
        this.sessionLow = session.low();
        return this;
    }

    SessionId session() {
        return new SessionId(sessionHigh, sessionLow);
    }

    static KvRequest get(String group, byte[] key, boolean local) {
        KvRequest r = of(group, GET);
        r.key = key;
        r.local = local;
        return r;
    }

    /** The values of {@code keys}, read from one state (one read index); see {@link MultiGetCodec}. */
    static KvRequest multiGet(String group, List<byte[]> keys, boolean local) {
        KvRequest r = of(group, MULTI_GET);
        r.keys = MultiGetCodec.encode(keys);
        r.local = local;
        return r;
    }

    static KvRequest scan(String group, byte[] from, byte[] to, int limit, boolean descending, boolean local) {
        KvRequest r = of(group, SCAN);
        r.from = from;
        r.to = to;
        r.limit = limit;
        r.descending = descending;
        r.local = local;
        return r;
    }

    /** Opens a snapshot on the receiving node, after a read index so that it holds every acknowledged write. */
    static KvRequest openSnapshot(String group) {
        return of(group, SNAPSHOT_OPEN);
    }

    static KvRequest closeSnapshot(String group, long snapshot) {
        KvRequest r = localQuery(group, SNAPSHOT_CLOSE);
        r.snapshot = snapshot;
        return r;
    }

    /** This GET, MULTI_GET or SCAN reads snapshot {@code id} of the node that opened it: a fixed state, no read
     *  index. */
    KvRequest at(long id) {
        this.snapshot = id;
        this.local = true;
        return this;
    }

    static KvRequest stats(String group) {
        return localQuery(group, STATS);
    }

    static KvRequest status(String group) {
        return localQuery(group, STATUS);
    }

    /** Node-local queries: answered by the receiving node, never through the leader. */
    private static KvRequest localQuery(String group, byte op) {
        KvRequest r = of(group, op);
        r.local = true;
        return r;
    }

    static KvRequest login(String group, String user, String password) {
        KvRequest r = of(group, LOGIN);
        r.user = user;
        r.password = password;
        return r;
    }

    static KvRequest userCommand(String group, byte[] command, SessionId session, long serial) {
        KvRequest r = write(group, null, session, serial);
        r.op = USER_COMMAND;
        r.command = command;
        return r;
    }

    /** Splits the range of group {@code group} at store key {@code at} (docs/SCALE.md, "Splits"). */
    static KvRequest split(String group, byte[] at) {
        KvRequest r = of(group, SPLIT);
        r.key = at;
        return r;
    }

    static KvRequest listUsers(String group) {
        return of(group, LIST_USERS);
    }

    /** This request is meant for range {@code route}, as the client knows it. */
    KvRequest routedBy(io.kegdb.raft.range.RangeDescriptor route) {
        this.rangeId = route.id();
        this.generation = route.generation();
        return this;
    }

    /** True for a request that proposes a log entry (every other request only reads). */
    public boolean isWrite() {
        return op == WRITE || op == OPEN_SESSION || op == USER_COMMAND;
    }

    /** The keys of a MULTI_GET, decoded on first use. */
    List<byte[]> keyList() {
        if (keyList == null) {
            keyList = MultiGetCodec.decode(keys);
        }
        return keyList;
    }
}
