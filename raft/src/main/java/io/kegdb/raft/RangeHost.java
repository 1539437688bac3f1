package io.kegdb.raft;

import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.RaftGroupService;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.CliOptions;
import com.alipay.sofa.jraft.option.NodeOptions;
import com.alipay.sofa.jraft.rpc.RaftRpcServerFactory;
import com.alipay.sofa.jraft.rpc.RpcServer;
import com.alipay.sofa.jraft.rpc.impl.BoltRpcServer;
import com.alipay.sofa.jraft.rpc.impl.cli.CliClientServiceImpl;
import io.kegdb.engine.KvStore;
import io.kegdb.raft.replication.DataStore;
import io.kegdb.raft.replication.GroupCaller;
import io.kegdb.raft.replication.GroupStore;
import io.kegdb.raft.replication.KvRequestProcessor;
import io.kegdb.raft.replication.KvStateMachine;
import io.kegdb.raft.replication.Replica;
import io.kegdb.raft.replication.RpcTransport;
import io.kegdb.raft.replication.TrackingServiceFactory;
import io.kegdb.raft.replication.Transport;
import io.kegdb.raft.storage.KegRaftServiceFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Many Raft groups' replicas in one process on one RPC server (docs/SCALE.md, "Many ranges on one node"): one
 * SOFAJRaft {@link RpcServer} bound to {@code self}, a {@link RaftGroupService} per hosted group sharing it,
 * and SOFAJRaft's shared election, vote, step-down and snapshot timers, so that many replicas do not mean four
 * timer threads each. Requests reach the replica of the group they name.
 *
 * <p>On disk, each hosted group in {@code dir/groups/<group id>/} with {@code log/}, {@code meta/},
 * {@code snapshot/} and {@code data/} as a {@link RaftNode}'s directory has, and the same crash story. Plain
 * text only so far (TLS and users are {@link RaftNode}'s).
 */
public final class RangeHost implements AutoCloseable {

    static {
        SuspendSignal.loadNodeClass();
    }

    private static final Logger LOG = LoggerFactory.getLogger(RangeHost.class);
    private static final Pattern GROUP_ID = Pattern.compile("[a-zA-Z][a-zA-Z0-9_-]*");

    private final PeerId self;
    private final Path dir;
    private final RpcServer rpcServer;
    private final KvRequestProcessor processor = new KvRequestProcessor();
    private final CliClientServiceImpl client = new CliClientServiceImpl();
    private final RpcTransport remote;
    private final Map<String, Hosted> hosted = new ConcurrentHashMap<>();
    private volatile boolean closed;

    /** One hosted replica. */
    private record Hosted(RaftGroupService service, Node node, DataStore data, Replica replica, GroupStore store) {
    }

    private RangeHost(PeerId self, Path dir) {
        this.self = self;
        this.dir = dir;
        this.rpcServer = new BoltRpcServer(new com.alipay.remoting.rpc.RpcServer(self.getIp(), self.getPort(), true));
        RaftRpcServerFactory.addRaftRequestProcessors(rpcServer);
        rpcServer.registerProcessor(processor);
        if (!rpcServer.init(null)) {
            throw new IllegalStateException("the RPC server of " + self + " did not start");
        }
        client.init(new CliOptions());
        this.remote = new RpcTransport(client.getRpcClient());
    }

    /**
     * Binds the RPC server to {@code self} ({@code host:port}); groups are added with {@link #host}.
     *
     * @throws IOException if {@code dir} cannot be made or the server does not bind
     */
    public static RangeHost start(String self, Path dir) throws IOException {
        PeerId peer = PeerId.parsePeer(self);
        if (peer == null || peer.getPort() <= 0) {
            throw new IllegalArgumentException("self must be host:port, not " + self);
        }
        Files.createDirectories(dir);
        try {
            return new RangeHost(peer, dir);
        } catch (RuntimeException e) {
            throw new IOException("cannot serve on " + self + ": " + e.getMessage(), e);
        }
    }

    /**
     * Starts this process's replica of group {@code group}, whose members are {@code peers}, on the shared
     * RPC server.
     *
     * @throws IOException if its directories cannot be prepared or its node does not start
     */
    public void host(String group, String peers, int electionTimeoutMs) throws IOException {
        if (closed) {
            throw new IllegalStateException("host " + self + " is closed");
        }
        if (!GROUP_ID.matcher(group).matches()) {
            // SOFAJRaft's own rule, checked before anything is made on disk
            throw new IllegalArgumentException("a group id is a letter, then letters, digits, '-' or '_', not " + group);
        }
        Configuration conf = PeerList.parse(peers);
        Path groupDir = dir.resolve("groups").resolve(group);
        for (String sub : new String[]{"log", "meta", "snapshot"}) {
            Files.createDirectories(groupDir.resolve(sub));
        }
        DataStore data = DataStore.openEmpty(groupDir.resolve("data"));
        KvStateMachine fsm = new KvStateMachine(data);
        NodeOptions options = new NodeOptions();
        options.setElectionTimeoutMs(electionTimeoutMs);
        options.setInitialConf(conf);
        options.setFsm(fsm);
        options.setLogUri(groupDir.resolve("log").toString());
        options.setRaftMetaUri(groupDir.resolve("meta").toString());
        options.setSnapshotUri(groupDir.resolve("snapshot").toString());
        TrackingServiceFactory factory = new TrackingServiceFactory(new KegRaftServiceFactory());
        options.setServiceFactory(factory);
        options.getRaftOptions().setMaxElectionDelayMs(Math.max(50, electionTimeoutMs / 2));
        // One timer pool each for the whole process, not four timer threads per replica.
        options.setSharedElectionTimer(true);
        options.setSharedVoteTimer(true);
        options.setSharedStepDownTimer(true);
        options.setSharedSnapshotTimer(true);
        RaftGroupService service = new RaftGroupService(group, self, options, rpcServer, true);
        Node node;
        try {
            node = service.start(false);
        } catch (RuntimeException e) {
            data.close();
            throw new IOException("replica " + self + " of group " + group + " failed to start: " + e, e);
        }
        if (node == null) {
            service.shutdown();
            data.close();
            throw new IOException("replica " + self + " of group " + group + " failed to start (see the log)");
        }
        Replica replica = new Replica(group, node, data, fsm, () -> status(group, node, factory), false);
        Transport transport = (target, request, timeoutMs) -> target.equals(self)
                ? replica.handle(request).get(timeoutMs, TimeUnit.MILLISECONDS)
                : remote.send(target, request, timeoutMs);
        GroupCaller caller = new GroupCaller(group, transport, timeoutMs -> leaderOf(node), 15_000,
                Math.max(GroupCaller.DEFAULT_ATTEMPT_TIMEOUT_MS, electionTimeoutMs));
        List<PeerId> known = new ArrayList<>(conf.getPeers());
        GroupStore store = new GroupStore(group, caller, self, known, ReadConsistency.LINEARIZABLE, () -> { });
        processor.serve(replica);
        hosted.put(group, new Hosted(service, node, data, replica, store));
        LOG.info("{} hosts a replica of group {} with peers {}", self, group, peers);
    }

    private static PeerId leaderOf(Node node) {
        PeerId leader = node.getLeaderId();
        return leader == null || leader.isEmpty() ? null : leader;
    }

    private RaftStatus status(String group, Node node, TrackingServiceFactory factory) {
        PeerId leader = leaderOf(node);
        return new RaftStatus(self.toString(), group, node.getNodeState().name().replace("STATE_", ""), factory.term(),
                leader == null ? null : leader.toString(), node.getLastCommittedIndex(), node.getLastAppliedLogIndex(),
                factory.firstLogIndex(), node.getLastLogIndex());
    }

    /** The store of hosted group {@code group} as seen from this process (reads from this replica). */
    public KvStore store(String group) {
        Hosted h = hosted.get(group);
        if (h == null) {
            throw new IllegalArgumentException(self + " hosts no replica of group " + group);
        }
        return h.store();
    }

    /** Whether this process's replica of {@code group} leads it. */
    public boolean isLeader(String group) {
        Hosted h = hosted.get(group);
        return h != null && h.node().isLeader();
    }

    /** The groups this process hosts a replica of. */
    public List<String> groups() {
        return List.copyOf(hosted.keySet());
    }

    /** Stops every hosted replica, then the RPC server. */
    @Override
    public void close() {
        closed = true;
        for (Hosted h : hosted.values()) {
            h.service().shutdown();
        }
        for (Hosted h : hosted.values()) {
            try {
                h.service().join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            h.data().close();
        }
        hosted.clear();
        client.shutdown();
        rpcServer.shutdown();
        LOG.info("host {} stopped", self);
    }
}
