package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.entity.PeerId;
import io.kegdb.engine.BitcaskStats;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyExistsException;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvSnapshot;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.SnapshotTooOldException;
import io.kegdb.engine.StoreClosedException;
import io.kegdb.engine.WriteBatch;
import io.kegdb.engine.WriteConflictException;
import io.kegdb.raft.ClusterUsers;
import io.kegdb.engine.meter.Meter;
import io.kegdb.engine.meter.MeterUnit;
import io.kegdb.raft.RaftGroupView;
import io.kegdb.raft.RaftStatus;
import io.kegdb.raft.RangeStatus;
import io.kegdb.raft.RangeSplitter;
import io.kegdb.raft.RangeView;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.ReadConsistency;
import io.kegdb.raft.RefusedException;
import io.kegdb.raft.ReplicationException;
import io.kegdb.raft.UserCommand;
import io.kegdb.raft.UserInfo;
import io.kegdb.raft.users.Authorizer;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The {@link KvStore} view of a Raft group: each {@link #write} is one log entry committed on a majority
 * and applied before it returns; reads go to one node (this node for a member, the leader for a thin client)
 * with the configured {@link ReadConsistency}. Durability arguments are ignored: the Raft log's own sync
 * setting decides, and an acknowledged write is already on a majority of logs.
 */
public final class GroupStore implements KvStore, RaftGroupView, RangeView, ClusterUsers, RangeSplitter {

    public static final int PAGE_SIZE = 512;
    private static final long STATUS_TIMEOUT_MS = 1000;

    private final String group;
    private final GroupCaller caller;
    private final PeerId readTarget;
    private final List<PeerId> knownPeers;
    private final boolean localReads;
    private final Runnable onClose;
    private volatile boolean closed;
    /** The key {@link #watch} named, read along with every read request; null: none. */
    private volatile byte[] watchKey;
    /** Per thread: the watched key's value answered with that thread's latest read. */
    private final ThreadLocal<Watched> lastWatched = new ThreadLocal<>();

    /** A watched key's value as one read answered it. */
    record Watched(byte[] key, byte[] value) {
    }

    /**
     * @param readTarget the node reads go to, or null for the leader
     * @param knownPeers the nodes {@link #members()} asks first
     */
    public GroupStore(String group, GroupCaller caller, PeerId readTarget, List<PeerId> knownPeers,
               ReadConsistency consistency, Runnable onClose) {
        this.group = group;
        this.caller = caller;
        this.readTarget = readTarget;
        this.knownPeers = List.copyOf(knownPeers);
        this.localReads = consistency == ReadConsistency.LOCAL;
        this.onClose = onClose;
    }

    @Override
    public byte[] get(byte[] key) {
        Objects.requireNonNull(key, "key");
        checkOpen();
        return read(KvRequest.get(group, key, localReads), readTarget).value;
    }

    /**
     * One request for all the keys (a read index, then the values read from one state of the node), and more
     * only when the answer would be large: a node answers the values of the first keys up to about
     * {@link MultiGetCodec#ANSWER_BYTES}, and the rest are asked for again, as a scan's pages are.
     */
    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        Objects.requireNonNull(keys, "keys");
        MultiGetCodec.checkKeys(keys);
        checkOpen();
        return multiGet(keys, rest -> read(KvRequest.multiGet(group, rest, localReads), readTarget));
    }

    /** The values of {@code keys}, asking {@code ask} for the keys not answered yet until all are. */
    private static List<byte[]> multiGet(List<byte[]> keys,
                                         Function<List<byte[]>, KvResponse> ask) {
        List<byte[]> values = new ArrayList<>(keys.size());
        while (values.size() < keys.size()) {
            int rest = keys.size() - values.size();
            List<byte[]> page = MultiGetCodec.decode(ask.apply(keys.subList(values.size(), keys.size())).page);
            if (page.isEmpty() || page.size() > rest) {
                throw new ReplicationException(ReplicationException.Kind.UNAVAILABLE,
                        "a multi-get of " + rest + " keys was answered with " + page.size() + " values");
            }
            values.addAll(page);
        }
        return values;
    }

    /** Every read request names the watched key, and its answer says what the key held then. */
    @Override
    public void watch(byte[] key) {
        this.watchKey = key.clone();
    }

    @Override
    public byte[] watched(byte[] key) {
        Watched w = lastWatched.get();
        return w != null && Arrays.equals(w.key(), key) ? w.value() : get(key);
    }

    /** The watched key's value as this thread's latest read of this store answered it; null before any. */
    Watched watchedRead() {
        return lastWatched.get();
    }

    /** A read through the caller, the watched key read along. */
    private KvResponse read(KvRequest request, PeerId target) {
        byte[] watching = watchKey;
        request.watch = watching;
        KvResponse r = caller.read(request, target);
        if (watching != null && r.watchedRead) {
            lastWatched.set(new Watched(watching, r.watched));
        }
        return r;
    }

    /**
     * Every read is a request to a node, and every replica checks a batch's put-if-absent keys and
     * preconditions when it applies the batch: callers leave duplicate checks to the write.
     */
    @Override
    public boolean readsAreRoundTrips() {
        return true;
    }

    /** The defaults, and {@code kegdb.raft.client.requests}: the round trips this store has paid. */
    @Override
    public List<Meter> meters() {
        List<Meter> all = new ArrayList<>(KvStore.super.meters());
        all.add(Meter.counter("kegdb.raft.client.requests", MeterUnit.NONE,
                "Requests this store sent to the group's nodes (every attempt; reads, writes and status calls).",
                caller::requestsSent));
        return List.copyOf(all);
    }

    @Override
    public void put(byte[] key, byte[] value, Durability durability) {
        write(new WriteBatch().put(key, value), durability);
    }

    @Override
    public boolean delete(byte[] key, Durability durability) {
        checkOpen();
        return caller.write(BatchCodec.encode(new WriteBatch().delete(key))).existed;
    }

    @Override
    public void write(WriteBatch batch, Durability durability) {
        Objects.requireNonNull(batch, "batch");
        checkOpen();
        if (batch.isEmpty() && !batch.hasExpectations()) {
            return;
        }
        // A batch of preconditions only still goes through the log: it validates at one point of the order.
        KvResponse r = caller.write(BatchCodec.encode(batch));
        if (r.status == KvResponse.KEY_EXISTS) {
            throw new KeyExistsException(r.value);
        }
        if (r.status == KvResponse.WRITE_CONFLICT) {
            throw new WriteConflictException(r.value, "a value or range the batch depends on");
        }
    }

    @Override
    public KvIterator scan(byte[] fromInclusive, byte[] toExclusive) {
        return paged(fromInclusive, toExclusive, false);
    }

    @Override
    public KvIterator scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        return paged(fromInclusive, toExclusive, true);
    }

    /*
     * cursor() stays KvStore's default, the pairs of a paged scan: every read of this store, LOCAL consistency
     * included, is a request to a node (the pairs arrive decoded from a page), so there is no store here to
     * read in place.
     */

    private KvIterator paged(byte[] fromInclusive, byte[] toExclusive, boolean descending) {
        checkOpen();
        return new PagedIterator((from, to, limit) -> page(from, to, limit, descending),
                fromInclusive, toExclusive, descending, PAGE_SIZE);
    }

    private List<io.kegdb.engine.KeyValue> page(byte[] from, byte[] to, int limit, boolean descending) {
        checkOpen();
        KvResponse r = read(KvRequest.scan(group, from, to, limit, descending, localReads), readTarget);
        return PageCodec.decode(r.page);
    }

    /**
     * A snapshot held by the node reads go to (the leader for a thin client), taken after a read index so
     * that it holds every acknowledged write; its reads go to that node and need no read index. If that
     * node restarts or closes it (unused for a minute), its reads fail with SnapshotTooOldException.
     */
    @Override
    public KvSnapshot snapshot() {
        checkOpen();
        KvResponse r = read(KvRequest.openSnapshot(group), readTarget);
        return new RemoteSnapshot(r.snapshot, PeerId.parsePeer(r.node));
    }

    /** A snapshot open on one node of the group. */
    private final class RemoteSnapshot implements KvSnapshot {
        private final long id;
        private final PeerId holder;
        private boolean closed;

        RemoteSnapshot(long id, PeerId holder) {
            this.id = id;
            this.holder = holder;
        }

        private KvResponse call(KvRequest request) {
            if (closed) {
                throw new IllegalStateException("snapshot is closed");
            }
            checkOpen();
            KvResponse r = read(request.at(id), holder);
            if (r.status == KvResponse.SNAPSHOT_GONE) {
                throw new SnapshotTooOldException(r.message);
            }
            return r;
        }

        @Override
        public byte[] get(byte[] key) {
            Objects.requireNonNull(key, "key");
            return call(KvRequest.get(group, key, true)).value;
        }

        @Override
        public List<byte[]> getAll(List<byte[]> keys) {
            Objects.requireNonNull(keys, "keys");
            MultiGetCodec.checkKeys(keys);
            return multiGet(keys, rest -> call(KvRequest.multiGet(group, rest, true)));
        }

        @Override
        public KvIterator scan(byte[] fromInclusive, byte[] toExclusive, boolean descending) {
            return new PagedIterator((from, to, limit) -> PageCodec.decode(
                    call(KvRequest.scan(group, from, to, limit, descending, true)).page),
                    fromInclusive, toExclusive, descending, PAGE_SIZE);
        }

        /** Not used: a replicated store has no write version. */
        @Override
        public long version() {
            return -1;
        }

        @Override
        public void close() {
            if (closed || GroupStore.this.closed) {
                closed = true;
                return;
            }
            closed = true;
            try {
                caller.read(KvRequest.closeSnapshot(group, id), holder);
            } catch (RuntimeException unreachable) {
                // The holder closes it itself once it has been unused for a minute.
            }
        }
    }

    /** Acknowledged writes are committed on a majority of logs already; nothing more to make durable. */
    @Override
    public void flush() {
        checkOpen();
    }

    /** Counters of the data store of the node reads go to; no per-segment detail. */
    @Override
    public BitcaskStats stats() {
        checkOpen();
        long[] s = caller.read(KvRequest.stats(group), readTarget).stats;
        return new BitcaskStats(s[0], (int) s[1], s[2], s[3], s[4], s[5], List.of());
    }

    /**
     * Asks every node this store knows (the configured peers, the members a leader lists, the leaders nodes
     * name) for its own status, one node at a time with a one-second limit each; a node that does not answer
     * is listed as {@code UNREACHABLE}. Needs no leader: during an election or without a majority it lists
     * what the reachable nodes say.
     */
    @Override
    public List<RaftStatus> members() {
        checkOpen();
        Map<String, RaftStatus> rows = new TreeMap<>();
        Deque<PeerId> toAsk = new ArrayDeque<>(knownPeers);
        while (!toAsk.isEmpty()) {
            PeerId peer = toAsk.poll();
            if (rows.containsKey(peer.toString())) {
                continue;
            }
            RaftStatus row = unreachable(peer);
            try {
                KvResponse r = caller.sendOnce(peer, KvRequest.status(group), STATUS_TIMEOUT_MS);
                if (r.status == KvResponse.OK) {
                    row = r.toStatus(group);
                    addPeers(toAsk, r.peers);
                    addPeers(toAsk, r.leader);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ReplicationException(ReplicationException.Kind.UNAVAILABLE,
                        "interrupted while asking group " + group + " for its status", e);
            } catch (Exception e) {
                // down or unreachable: listed as such
            }
            rows.put(peer.toString(), row);
        }
        return new ArrayList<>(rows.values());
    }

    private static void addPeers(Deque<PeerId> toAsk, String commaSeparated) {
        if (commaSeparated == null) {
            return;
        }
        for (String p : commaSeparated.split(",")) {
            PeerId peer = PeerId.parsePeer(p.trim());
            if (peer != null) {
                toAsk.add(peer);
            }
        }
    }

    private RaftStatus unreachable(PeerId peer) {
        return new RaftStatus(peer.toString(), group, RaftStatus.UNREACHABLE, -1, null, -1, -1, -1, -1);
    }

    /**
     * The descriptors in the meta range (one linearizable scan of their span), each with the leader as the
     * node reads go to knows it: in one range per group, range 1's leader is the group's.
     */
    @Override
    public List<RangeStatus> ranges() {
        checkOpen();
        List<RangeDescriptor> stored = caller.allDescriptors(readTarget, localReads);
        String leader = leader();
        List<RangeStatus> rows = new ArrayList<>(stored.size());
        for (RangeDescriptor d : stored) {
            rows.add(RangeStatus.of(d, leader));
        }
        return rows;
    }

    @Override
    public RangeDescriptor split(byte[] at) {
        Objects.requireNonNull(at, "at");
        checkOpen();
        byte[] made = caller.split(at);
        return made == null ? null : RangeDescriptor.decode(made);
    }

    /** The group's leader as the node reads go to knows it ({@code host:port}), or null while none is known. */
    String leader() {
        checkOpen();
        return caller.read(KvRequest.status(group), readTarget).leader;
    }

    @Override
    public void login(String user, String password) {
        checkOpen();
        caller.login(user, password);
    }

    @Override
    public void manage(UserCommand command) {
        checkOpen();
        KvResponse r = caller.userCommand(Authorizer.encodeCommand(command));
        switch (r.status) {
            case KvResponse.OK -> {
            }
            case KvResponse.KEY_EXISTS -> throw new RefusedException("42710", "user " + command.user() + " already exists");
            case KvResponse.WRITE_CONFLICT -> throw new WriteConflictException(r.value,
                    "user " + command.user() + ", changed meanwhile by another statement");
            default -> throw new ReplicationException(ReplicationException.Kind.UNAVAILABLE,
                    "group " + group + " answered a user command with " + r);
        }
    }

    @Override
    public List<UserInfo> users() {
        checkOpen();
        return Authorizer.decodeUsers(caller.read(KvRequest.listUsers(group), readTarget).value);
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            onClose.run();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new StoreClosedException("the store of raft group " + group + " is closed");
        }
    }
}
