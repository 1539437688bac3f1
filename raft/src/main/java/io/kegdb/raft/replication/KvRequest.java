package io.kegdb.raft.replication;

import java.io.Serializable;

/** A request to a node of the group, sent over the node's RPC server; see {@link KvRequestProcessor}. */
public final class KvRequest implements Serializable {
    private static final long serialVersionUID = 1L;

    static final byte WRITE = 1;
    static final byte GET = 2;
    static final byte SCAN = 3;
    static final byte STATS = 4;
    static final byte STATUS = 5;

    String group;
    byte op;
    /** WRITE: the {@link BatchCodec} bytes. */
    byte[] batch;
    /** GET: the key. */
    byte[] key;
    /** SCAN: the bounds (null = open), the page size and the direction. */
    byte[] from;
    byte[] to;
    int limit;
    boolean descending;
    /** Reads: serve from the receiving node's state as it is, without a read index round. */
    boolean local;

    private static KvRequest of(String group, byte op) {
        KvRequest r = new KvRequest();
        r.group = group;
        r.op = op;
        return r;
    }

    static KvRequest write(String group, byte[] batch) {
        KvRequest r = of(group, WRITE);
        r.batch = batch;
        return r;
    }

    static KvRequest get(String group, byte[] key, boolean local) {
        KvRequest r = of(group, GET);
        r.key = key;
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

    boolean isWrite() {
        return op == WRITE;
    }
}
