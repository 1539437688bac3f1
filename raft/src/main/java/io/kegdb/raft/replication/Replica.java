package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.closure.ReadIndexClosure;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.entity.Task;
import com.alipay.sofa.jraft.error.RaftError;
import io.kegdb.engine.BitcaskStats;
import io.kegdb.engine.KvSnapshot;
import io.kegdb.engine.SnapshotTooOldException;
import io.kegdb.raft.RaftStatus;
import io.kegdb.raft.range.CatalogFence;
import io.kegdb.raft.range.MetaKeys;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.RouteCheck;
import io.kegdb.raft.range.SplitCommand;
import io.kegdb.raft.users.Authorizer;
import io.kegdb.raft.users.Denial;

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Serves {@link KvRequest}s on one node: writes are proposed to Raft when this node leads (else answered
 * with {@link KvResponse#NOT_LEADER}), reads wait for a read index (on followers too) unless they ask for
 * local reads, then read the node's {@link DataStore}. Never blocks: answers complete a future.
 */
public final class Replica {

    private static final byte[] NO_CONTEXT = new byte[0];

    private final String group;
    private final Node node;
    private final DataStore data;
    private final Supplier<RaftStatus> status;
    private final KvStateMachine range;
    private final OpenSnapshots snapshots = new OpenSnapshots();
    private final ConcurrentHashMap<InFlight, CompletableFuture<KvResponse>> inFlight = new ConcurrentHashMap<>();

    /** A client write proposed by this node and not answered yet. */
    private record InFlight(long sessionHigh, long sessionLow, long serial) {
    }

    /**
     * @param range the state machine of this replica: the range descriptor requests are checked by
     * @param users the checks of clients' requests, against the users of the replica's cluster ({@link #usersOf})
     */
    public Replica(String group, Node node, DataStore data, KvStateMachine range, Supplier<RaftStatus> status,
                   Authorizer users) {
        this.group = group;
        this.node = node;
        this.data = data;
        this.range = range;
        this.status = status;
        this.users = users;
    }

    /**
     * The checks of clients' requests against the users held in {@code data}, the applied state of a replica of
     * the meta range (the users live in the system span, which only the meta range holds).
     *
     * @param tls whether the node runs with TLS (only then does it take passwords)
     */
    public static Authorizer usersOf(DataStore data, boolean tls) {
        return new Authorizer(new Authorizer.State() {
            @Override
            public byte[] get(byte[] key) {
                return data.get(key);
            }

            @Override
            public java.util.List<io.kegdb.engine.KeyValue> scan(byte[] from, byte[] to, int limit) {
                return data.page(from, to, limit, false);
            }
        }, tls);
    }

    private final Authorizer users;
    private volatile Splitter splitter;

    /**
     * What a {@link KvRequest#SPLIT} runs on the range's leader (the host's split: a new range id, the split in
     * the range's log, both descriptors in the meta range); blocking, so never on an RPC or Raft thread.
     */
    public interface Splitter {
        /**
         * @return the new range (the right half)
         * @throws IllegalArgumentException if {@code at} cannot split the range
         */
        RangeDescriptor split(byte[] at);
    }

    /** Split requests are run by {@code splitter} from now on (before: answered as not possible here). */
    public void splitsBy(Splitter splitter) {
        this.splitter = splitter;
    }

    /** Split requests wait for a log entry and meta range writes: not on the RPC or Raft threads. */
    private static final ExecutorService SPLITS = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "kegdb-split-request");
        t.setDaemon(true);
        return t;
    });

    /** Logins hash a password (on purpose slow): not on the RPC or Raft threads. */
    private static final ExecutorService LOGINS = Executors.newFixedThreadPool(2, r -> {
        Thread t = new Thread(r, "kegdb-login");
        t.setDaemon(true);
        return t;
    });

    /**
     * {@link #handle} for a request of a client (not a node of the group): on a cluster with users it must
     * carry a valid ticket and the user's privileges for what it reads or writes (see {@link Authorizer}); a
     * client without a certificate is served only on a cluster with users.
     */
    public CompletableFuture<KvResponse> handleClient(KvRequest request, Caller caller) {
        KvResponse refusal = authorize(request, caller);
        return refusal == null ? handle(request) : CompletableFuture.completedFuture(refusal);
    }

    /** The group this replica is a member of. */
    public String group() {
        return group;
    }

    /** The refusal of a request from a client without a certificate to a cluster without users. */
    static final String NO_USERS_NO_CERTIFICATE = "this cluster has no users, so it serves clients with a"
            + " certificate of its CA only (sslcert and sslkey); the caller presented none";

    private KvResponse authorize(KvRequest r, Caller caller) {
        // A status (who leads) is answered before a login: a client needs it to find the leader to log in at.
        if (r.op == KvRequest.STATUS) {
            return null;
        }
        boolean secured = users.secured();
        if (caller == Caller.PASSWORD_CLIENT && !secured) {
            // Without users a certificate is a client's only proof; a login would prove nothing.
            return KvResponse.of(KvResponse.LOGIN_FAILED, NO_USERS_NO_CERTIFICATE);
        }
        if (r.op == KvRequest.LOGIN || !secured) {
            return null;
        }
        try {
            switch (r.op) {
                case KvRequest.GET -> users.checkGet(r.ticket, r.key);
                case KvRequest.MULTI_GET -> {
                    for (byte[] key : r.keyList()) {
                        users.checkGet(r.ticket, key);
                    }
                }
                case KvRequest.SCAN -> users.checkScan(r.ticket, r.from, r.to);
                case KvRequest.WRITE -> users.checkWrite(r.ticket, BatchCodec.decode(r.batch));
                case KvRequest.USER_COMMAND -> users.checkAdmin(r.ticket, "changing users");
                case KvRequest.LIST_USERS -> users.checkAdmin(r.ticket, "reading SYS.USERS");
                case KvRequest.SPLIT -> users.checkAdmin(r.ticket, "splitting a range");
                default -> users.checkLoggedIn(r.ticket);
            }
            if (r.watch != null) {
                // The key read along is a read like any other: without this, a watch could read the user records.
                users.checkGet(r.ticket, r.watch);
            }
            return null;
        } catch (Denial d) {
            return denied(d);
        }
    }

    private static KvResponse denied(Denial d) {
        return switch (d.kind()) {
            case LOGIN_REQUIRED -> KvResponse.of(KvResponse.LOGIN_REQUIRED, d.getMessage());
            case LOGIN_FAILED -> KvResponse.of(KvResponse.LOGIN_FAILED, d.getMessage());
            case REFUSED -> refused(d.sqlState(), d.getMessage());
        };
    }

    /** A login: a read index first, so a user just created is known, then the slow hash on a login thread. */
    private void login(KvRequest request, CompletableFuture<KvResponse> answer) {
        Runnable check = () -> {
            try {
                KvResponse r = KvResponse.ok();
                r.value = users.login(request.user, request.password);
                answer.complete(r);
            } catch (Denial d) {
                answer.complete(denied(d));
            } catch (RuntimeException e) {
                answer.complete(KvResponse.of(KvResponse.FAILED, e.toString()));
            }
        };
        node.readIndex(NO_CONTEXT, new ReadIndexClosure() {
            @Override
            public void run(Status status, long index, byte[] context) {
                if (status.isOk()) {
                    LOGINS.execute(check);
                } else {
                    answer.complete(unavailable("read index: " + status));
                }
            }
        });
    }

    /** A user command becomes the batch it writes, made from this (the leader's) state; false if answered. */
    private boolean userBatch(KvRequest request, CompletableFuture<KvResponse> answer) {
        try {
            io.kegdb.engine.WriteBatch batch = users.userBatch(Authorizer.decodeCommand(request.command));
            if (batch == null) {
                answer.complete(KvResponse.ok());
                return false;
            }
            request.batch = BatchCodec.encode(batch);
            return true;
        } catch (Denial d) {
            answer.complete(denied(d));
            return false;
        }
    }

    public CompletableFuture<KvResponse> handle(KvRequest request) {
        CompletableFuture<KvResponse> answer = new CompletableFuture<>();
        if (!group.equals(request.group)) {
            answer.complete(KvResponse.of(KvResponse.FAILED,
                    "this node serves group " + group + ", not " + request.group));
            return answer;
        }
        if (request.rangeId != RouteCheck.UNNAMED && namesARange(request.op)
                && request.rangeId != range.heldDescriptor().id()) {
            answer.complete(noRange(request.rangeId));
            return answer;
        }
        try {
            if (request.op == KvRequest.LOGIN) {
                login(request, answer);
            } else if (request.op == KvRequest.SPLIT) {
                split(request, answer);
            } else if (request.isWrite()) {
                propose(request, answer);
            } else if (request.local) {
                answer.complete(read(request));
            } else {
                node.readIndex(NO_CONTEXT, new ReadIndexClosure() {
                    @Override
                    public void run(Status status, long index, byte[] context) {
                        answer.complete(status.isOk() ? read(request) : unavailable("read index: " + status));
                    }
                });
            }
        } catch (RuntimeException e) {
            answer.complete(KvResponse.of(KvResponse.FAILED, e.toString()));
        }
        return answer;
    }

    /**
     * A split by hand, on the range's leader. A resend after a lost answer finds the range ending (or, asked of
     * the new range, starting) at the key already: answered OK without a descriptor, so asking twice splits once.
     */
    private void split(KvRequest request, CompletableFuture<KvResponse> answer) {
        Splitter s = splitter;
        if (s == null) {
            answer.complete(KvResponse.of(KvResponse.FAILED, "node " + node.getNodeId().getPeerId()
                    + " does not split ranges of group " + group));
            return;
        }
        if (!node.isLeader()) {
            answer.complete(notLeader());
            return;
        }
        if (request.key == null) {
            answer.complete(refused("22023", "a split names its key"));
            return;
        }
        SPLITS.execute(() -> {
            try {
                RangeDescriptor held = range.heldDescriptor();
                if (java.util.Arrays.equals(held.start(), request.key)
                        || (held.end() != null && java.util.Arrays.equals(held.end(), request.key))) {
                    answer.complete(KvResponse.ok());
                    return;
                }
                KvResponse r = KvResponse.ok();
                r.descriptor = s.split(request.key).encode();
                answer.complete(r);
            } catch (IllegalArgumentException e) {
                answer.complete(refused("22023", e.getMessage()));
            } catch (RuntimeException e) {
                answer.complete(node.isLeader() ? KvResponse.of(KvResponse.FAILED, e.getMessage()) : notLeader());
            }
        });
    }

    private static KvResponse refused(String sqlState, String message) {
        KvResponse r = KvResponse.of(KvResponse.REFUSED, message);
        r.sqlState = sqlState;
        return r;
    }

    private void propose(KvRequest request, CompletableFuture<KvResponse> answer) {
        if (!node.isLeader()) {
            answer.complete(notLeader());
            return;
        }
        if (request.op == KvRequest.USER_COMMAND && !userBatch(request, answer)) {
            return;
        }
        byte[] entry;
        if (request.version >= KvRequest.SESSION_VERSION) {
            // The leader's clock becomes the entry's log time, the one clock sessions expire by.
            long now = System.currentTimeMillis();
            entry = (request.op == KvRequest.OPEN_SESSION ? LogEntry.openSession(now, request.session())
                    : LogEntry.write(now, request.session(), request.serial, request.floor, request.rangeId,
                    request.generation, request.batch)).encode();
        } else if (request.op == KvRequest.WRITE) {
            entry = request.batch; // a client from before sessions: logged and applied as it always was
        } else {
            answer.complete(KvResponse.of(KvResponse.FAILED, "request " + request.op + " needs wire version "
                    + KvRequest.SESSION_VERSION + ", not " + request.version));
            return;
        }
        if ((request.op == KvRequest.WRITE || request.op == KvRequest.USER_COMMAND)
                && request.version >= KvRequest.SESSION_VERSION) {
            // A resend of a write still in flight here (this leader is slow, not gone) waits for the first
            // proposal's answer instead of putting another copy into the log.
            InFlight key = new InFlight(request.sessionHigh, request.sessionLow, request.serial);
            CompletableFuture<KvResponse> first = inFlight.putIfAbsent(key, answer);
            if (first != null) {
                first.whenComplete((r, e) -> answer.complete(e == null ? r : KvResponse.of(KvResponse.FAILED, e.toString())));
                return;
            }
            answer.whenComplete((r, e) -> inFlight.remove(key, answer));
        }
        Task task = new Task();
        task.setData(ByteBuffer.wrap(entry));
        task.setDone(new WriteClosure((status, outcome) -> {
            if (status.isOk() && outcome != null && outcome.status() == KvResponse.STALE_ROUTE) {
                answer.complete(staleRoute("the write was applied as a no-op"));
            } else if (status.isOk() && outcome != null) {
                KvResponse r = KvResponse.of(outcome.status(), null);
                r.value = outcome.existingKey();
                r.existed = outcome.existed();
                answer.complete(r);
            } else if (neverAppended(status)) {
                answer.complete(notLeader());
            } else {
                answer.complete(withLeaderHint(KvResponse.OUTCOME_UNKNOWN, "write " + status));
            }
        }));
        node.apply(task);
    }

    /**
     * Proposes the descriptor the range begins with (an {@link LogEntry#INIT_DESCRIPTOR} entry, installed by
     * every replica that holds none); completes once it is applied, exceptionally if it was not.
     */
    public CompletableFuture<Void> proposeInitialDescriptor(RangeDescriptor initial) {
        return proposeCommand(LogEntry.initDescriptor(System.currentTimeMillis(), initial.encode()), initial.toString());
    }

    /**
     * Proposes a catalog fence command (a {@link LogEntry#FENCE} entry, see {@link CatalogFence}); completes once
     * it is applied, exceptionally if it was not.
     */
    public CompletableFuture<Void> proposeFence(CatalogFence.Command command) {
        return proposeCommand(LogEntry.fence(System.currentTimeMillis(), command.encode()),
                "the catalog fence at version " + command.version());
    }

    /**
     * Proposes a split of this range ({@link LogEntry#SPLIT}); completes once it is applied (a no-op where the
     * range was no longer at the command's generation), exceptionally if it was not.
     */
    public CompletableFuture<Void> proposeSplit(SplitCommand command) {
        return proposeCommand(LogEntry.split(System.currentTimeMillis(), command.encode()),
                "the split into range " + command.newId());
    }

    /**
     * Where this range splits by size (docs/SCALE.md, "Splits"): its middle key, by count, outside the system
     * span, once its store holds more than {@code maxKeys} keys or {@code maxBytes} live bytes; null while it
     * does not, or when too few keys lie outside the system span to split between.
     */
    public byte[] sizeSplitPoint(long maxKeys, long maxBytes) {
        BitcaskStats s = data.stats();
        if (s.keys() <= maxKeys && s.liveBytes() <= maxBytes) {
            return null;
        }
        RangeDescriptor held = range.heldDescriptor();
        byte[] start = held.start();
        byte[] from = java.util.Arrays.compareUnsigned(start, MetaKeys.SYSTEM_SPAN_END) >= 0 ? start
                : MetaKeys.SYSTEM_SPAN_END;
        return data.middleKey(from, held.end());
    }

    /** The catalog fence's version this replica has applied (0: none, or a range holding the catalog). */
    public long fenceVersion() {
        return range.fenceVersion();
    }

    /** Proposes one of the range's own commands, when this node leads; completes once it is applied. */
    private CompletableFuture<Void> proposeCommand(LogEntry command, String what) {
        CompletableFuture<Void> applied = new CompletableFuture<>();
        if (!node.isLeader()) {
            applied.completeExceptionally(new IllegalStateException("node " + node.getNodeId().getPeerId()
                    + " is not the leader"));
            return applied;
        }
        Task task = new Task();
        task.setData(ByteBuffer.wrap(command.encode()));
        task.setDone(status -> {
            if (status.isOk()) {
                applied.complete(null);
            } else {
                applied.completeExceptionally(new IllegalStateException("proposing " + what + ": " + status));
            }
        });
        node.apply(task);
        return applied;
    }

    /** Failures jraft reports before the entry reaches the log: the write did not happen. */
    private static boolean neverAppended(Status status) {
        RaftError error = status.getRaftError();
        String message = status.getErrorMsg() == null ? "" : status.getErrorMsg();
        return error == RaftError.EBUSY
                || (error == RaftError.EPERM && (message.startsWith("Is not leader") || message.startsWith("expected_term")));
    }

    /** The requests that read or write the range's data, and so name a range. */
    private static boolean namesARange(byte op) {
        return switch (op) {
            case KvRequest.GET, KvRequest.MULTI_GET, KvRequest.SCAN, KvRequest.SNAPSHOT_OPEN, KvRequest.WRITE,
                 KvRequest.USER_COMMAND -> true;
            default -> false;
        };
    }

    /**
     * Whether a read that was just served may be answered: checked after the data was read, since the
     * generation only grows, the route held when the data was read if it holds now.
     */
    private KvResponse routeChecked(KvRequest request, KvResponse served) {
        if (served.status != KvResponse.OK || request.rangeId == RouteCheck.UNNAMED) {
            return served;
        }
        RangeDescriptor held = range.heldDescriptor();
        RouteCheck.Verdict verdict = switch (request.op) {
            case KvRequest.GET -> RouteCheck.read(held, request.rangeId, request.generation, request.key);
            case KvRequest.MULTI_GET -> multiGetRoute(held, request);
            case KvRequest.SCAN -> RouteCheck.read(held, request.rangeId, request.generation, request.from, request.to);
            case KvRequest.SNAPSHOT_OPEN -> RouteCheck.read(held, request.rangeId, request.generation, held.start(),
                    held.end());
            default -> RouteCheck.Verdict.SERVE;
        };
        return switch (verdict) {
            case SERVE -> served;
            case NO_RANGE -> noRange(request.rangeId);
            case STALE_ROUTE -> {
                if (request.op == KvRequest.SNAPSHOT_OPEN) {
                    snapshots.close(served.snapshot);
                }
                yield staleRoute("range " + request.rangeId + " generation " + request.generation
                        + " is not the route of this read");
            }
        };
    }

    /**
     * The answer to a request naming a range this replica's group does not replicate, with the range it does
     * (the group's range: after a split, a client of the new range's group learns its route from it).
     */
    private KvResponse noRange(long rangeId) {
        RangeDescriptor held = range.heldDescriptor();
        KvResponse r = KvResponse.of(KvResponse.NO_RANGE, "node " + node.getNodeId().getPeerId()
                + " hosts no replica of range " + rangeId + " in group " + group + ", which is " + held);
        r.descriptor = held.encode();
        return r;
    }

    /** A multi-get's route holds if it holds for each of its keys. */
    private static RouteCheck.Verdict multiGetRoute(RangeDescriptor held, KvRequest request) {
        for (byte[] key : request.keyList()) {
            RouteCheck.Verdict v = RouteCheck.read(held, request.rangeId, request.generation, key);
            if (v != RouteCheck.Verdict.SERVE) {
                return v;
            }
        }
        return RouteCheck.Verdict.SERVE;
    }

    /** A stale route's answer, with the descriptor this replica holds now. */
    private KvResponse staleRoute(String what) {
        RangeDescriptor held = range.heldDescriptor();
        KvResponse r = KvResponse.of(KvResponse.STALE_ROUTE, what + "; node " + node.getNodeId().getPeerId()
                + " holds " + held);
        r.descriptor = held.encode();
        return r;
    }

    private KvResponse read(KvRequest request) {
        return routeChecked(request, serve(request));
    }

    private KvResponse serve(KvRequest request) {
        if (request.op == KvRequest.MULTI_GET && request.keys == null) {
            return KvResponse.of(KvResponse.FAILED, "a multi-get without keys");
        }
        if (request.snapshot != 0 || request.op == KvRequest.SNAPSHOT_OPEN) {
            return snapshotRequest(request);
        }
        KvResponse r = KvResponse.ok();
        switch (request.op) {
            case KvRequest.GET -> r.value = data.get(request.key);
            case KvRequest.MULTI_GET -> r.page = MultiGetCodec.encodeAnswer(
                    data.getAll(request.keyList()), MultiGetCodec.ANSWER_BYTES);
            case KvRequest.SCAN -> r.page = PageCodec.encode(
                    data.page(request.from, request.to, Math.max(1, request.limit), request.descending));
            case KvRequest.LIST_USERS -> r.value = users.listUsers();
            case KvRequest.STATS -> {
                BitcaskStats s = data.stats();
                r.stats = new long[]{s.keys(), s.segments(), s.liveBytes(), s.deadBytes(), s.merges(), s.keydirBytes()};
            }
            case KvRequest.STATUS -> {
                String peers = null;
                if (node.isLeader()) {
                    try {
                        peers = node.listPeers().stream().map(PeerId::toString).collect(Collectors.joining(","));
                    } catch (IllegalStateException e) {
                        // stepped down meanwhile: no peer list from a follower
                    }
                }
                return KvResponse.status(status.get(), peers);
            }
            default -> {
                return KvResponse.of(KvResponse.FAILED, "unknown request " + request.op);
            }
        }
        if (request.watch != null) {
            watched(r, data.get(range.watchedKey(request.watch)));
        }
        return r;
    }

    /** Answers a request's watched key along, read after the request's own data. */
    private static void watched(KvResponse r, byte[] value) {
        r.watchedRead = true;
        r.watched = value;
    }

    /**
     * Opens, reads or closes a snapshot of this node's data. An open comes after a read index, so the
     * snapshot holds every write acknowledged before it; its reads then need none.
     */
    private KvResponse snapshotRequest(KvRequest request) {
        if (request.op == KvRequest.SNAPSHOT_OPEN) {
            KvResponse r = KvResponse.ok();
            KvSnapshot opened = data.snapshot();
            r.snapshot = snapshots.add(opened);
            r.node = node.getNodeId().getPeerId().toString();
            if (request.watch != null) {
                watched(r, opened.get(range.watchedKey(request.watch)));
            }
            return r;
        }
        if (request.op == KvRequest.SNAPSHOT_CLOSE) {
            snapshots.close(request.snapshot);
            return KvResponse.ok();
        }
        KvSnapshot snapshot = snapshots.get(request.snapshot);
        if (snapshot == null) {
            return KvResponse.of(KvResponse.SNAPSHOT_GONE, "snapshot " + request.snapshot + " is not open on "
                    + node.getNodeId().getPeerId() + " (closed after " + OpenSnapshots.IDLE_LIMIT_NANOS / 1_000_000_000L
                    + " s unused, or the node restarted)");
        }
        try {
            KvResponse r = KvResponse.ok();
            switch (request.op) {
                case KvRequest.GET -> r.value = snapshot.get(request.key);
                case KvRequest.MULTI_GET -> r.page = MultiGetCodec.encodeAnswer(
                        snapshot.getAll(request.keyList()), MultiGetCodec.ANSWER_BYTES);
                case KvRequest.SCAN -> r.page = PageCodec.encode(DataStore.page(
                        snapshot.scan(request.from, request.to, request.descending), Math.max(1, request.limit)));
                default -> {
                    return KvResponse.of(KvResponse.FAILED, "request " + request.op + " cannot read a snapshot");
                }
            }
            if (request.watch != null) {
                watched(r, snapshot.get(range.watchedKey(request.watch)));
            }
            return r;
        } catch (SnapshotTooOldException | IllegalStateException gone) {
            // Kept too much for too long, or the data store was replaced by a snapshot install.
            snapshots.close(request.snapshot);
            return KvResponse.of(KvResponse.SNAPSHOT_GONE, gone.getMessage());
        }
    }

    private KvResponse notLeader() {
        return withLeaderHint(KvResponse.NOT_LEADER, "node " + node.getNodeId().getPeerId() + " is not the leader");
    }

    private KvResponse unavailable(String message) {
        return withLeaderHint(KvResponse.UNAVAILABLE, message);
    }

    /** A refusal that names the leader as this node knows it, so the caller can retry there. */
    private KvResponse withLeaderHint(byte status, String message) {
        KvResponse r = KvResponse.of(status, message);
        r.leader = leaderHint();
        return r;
    }

    private String leaderHint() {
        PeerId leader = node.getLeaderId();
        return leader == null || leader.isEmpty() ? null : leader.toString();
    }
}
