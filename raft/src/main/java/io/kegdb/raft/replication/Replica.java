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

import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
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
    private final OpenSnapshots snapshots = new OpenSnapshots();
    private final ConcurrentHashMap<InFlight, CompletableFuture<KvResponse>> inFlight = new ConcurrentHashMap<>();

    /** A client write proposed by this node and not answered yet. */
    private record InFlight(long sessionHigh, long sessionLow, long serial) {
    }

    public Replica(String group, Node node, DataStore data, Supplier<RaftStatus> status) {
        this.group = group;
        this.node = node;
        this.data = data;
        this.status = status;
    }

    public CompletableFuture<KvResponse> handle(KvRequest request) {
        CompletableFuture<KvResponse> answer = new CompletableFuture<>();
        if (!group.equals(request.group)) {
            answer.complete(KvResponse.of(KvResponse.FAILED,
                    "this node serves group " + group + ", not " + request.group));
            return answer;
        }
        try {
            if (request.isWrite()) {
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

    private void propose(KvRequest request, CompletableFuture<KvResponse> answer) {
        if (!node.isLeader()) {
            answer.complete(notLeader());
            return;
        }
        byte[] entry;
        if (request.version >= KvRequest.SESSION_VERSION) {
            // The leader's clock becomes the entry's log time, the one clock sessions expire by.
            long now = System.currentTimeMillis();
            entry = (request.op == KvRequest.OPEN_SESSION ? LogEntry.openSession(now, request.session())
                    : LogEntry.write(now, request.session(), request.serial, request.floor, request.batch)).encode();
        } else if (request.op == KvRequest.WRITE) {
            entry = request.batch; // a client from before sessions: logged and applied as it always was
        } else {
            answer.complete(KvResponse.of(KvResponse.FAILED, "request " + request.op + " needs wire version "
                    + KvRequest.SESSION_VERSION + ", not " + request.version));
            return;
        }
        if (request.op == KvRequest.WRITE && request.version >= KvRequest.SESSION_VERSION) {
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
            if (status.isOk() && outcome != null) {
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

    /** Failures jraft reports before the entry reaches the log: the write did not happen. */
    private static boolean neverAppended(Status status) {
        RaftError error = status.getRaftError();
        String message = status.getErrorMsg() == null ? "" : status.getErrorMsg();
        return error == RaftError.EBUSY
                || (error == RaftError.EPERM && (message.startsWith("Is not leader") || message.startsWith("expected_term")));
    }

    private KvResponse read(KvRequest request) {
        if (request.snapshot != 0 || request.op == KvRequest.SNAPSHOT_OPEN) {
            return snapshotRequest(request);
        }
        KvResponse r = KvResponse.ok();
        switch (request.op) {
            case KvRequest.GET -> r.value = data.get(request.key);
            case KvRequest.SCAN -> r.page = PageCodec.encode(
                    data.page(request.from, request.to, Math.max(1, request.limit), request.descending));
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
            watched(r, data.get(request.watch));
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
                watched(r, opened.get(request.watch));
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
                case KvRequest.SCAN -> r.page = PageCodec.encode(DataStore.page(
                        snapshot.scan(request.from, request.to, request.descending), Math.max(1, request.limit)));
                default -> {
                    return KvResponse.of(KvResponse.FAILED, "request " + request.op + " cannot read a snapshot");
                }
            }
            if (request.watch != null) {
                watched(r, snapshot.get(request.watch));
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
