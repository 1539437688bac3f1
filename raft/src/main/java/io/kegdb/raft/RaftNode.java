package io.kegdb.raft;

import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.RaftGroupService;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.CliOptions;
import com.alipay.sofa.jraft.option.NodeOptions;
import com.alipay.sofa.jraft.rpc.RaftRpcServerFactory;
import com.alipay.sofa.jraft.rpc.RpcServer;
import com.alipay.sofa.jraft.rpc.impl.BoltRpcServer;
import com.alipay.sofa.jraft.rpc.impl.cli.CliClientServiceImpl;
import io.kegdb.engine.BitcaskStats;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyExistsException;
import io.kegdb.engine.KvCursor;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvSnapshot;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.range.DescriptorKeeper;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.replication.DataStore;
import io.kegdb.raft.replication.GroupCaller;
import io.kegdb.raft.replication.GroupStore;
import io.kegdb.raft.replication.KvRequestProcessor;
import io.kegdb.raft.replication.KvStateMachine;
import io.kegdb.raft.replication.Replica;
import io.kegdb.raft.replication.RpcTransport;
import io.kegdb.raft.replication.TrackingServiceFactory;
import io.kegdb.raft.replication.Transport;
import io.kegdb.raft.security.TransportSecurity;
import io.kegdb.raft.users.Authorizer;
import io.kegdb.raft.storage.KegRaftServiceFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * A member of a Raft group, and the {@link KvStore} of that group as seen from it. Writes from this node
 * reach the leader (applied here when this node leads, forwarded to the leader otherwise) and return once
 * committed on a majority and applied; reads are served from this node's replica, linearizable by default
 * (a read index round with the leader) or local.
 *
 * <p>On disk, in the options' directory: {@code log/} and {@code meta/} (Bitcask stores, see
 * {@link KegRaftServiceFactory}), {@code snapshot/} (backups of the data store) and {@code data/} (the data
 * store, rebuilt at each start from the latest snapshot and the log after it). The RPC server binds exactly
 * the {@code self} address.
 */
public final class RaftNode implements KvStore, RaftGroupView, RangeView, ClusterUsers {

    private static final Logger LOG = LoggerFactory.getLogger(RaftNode.class);

    static {
        SuspendSignal.loadNodeClass();
    }

    private final String group;
    private final PeerId self;
    private final RaftGroupService service;
    private final Node node;
    private final DataStore data;
    private final KvStateMachine fsm;
    private final TrackingServiceFactory factory;
    private final CliClientServiceImpl client;
    private final GroupStore store;
    private final DescriptorKeeper keeper;

    private RaftNode(RaftNodeOptions options, PeerId self, Configuration peers, UnaryOperator<RpcServer> serverHook)
            throws IOException {
        this.group = options.group();
        this.self = self;
        Path dir = options.dir();
        TransportSecurity security = TransportSecurity.node(options.tls(), options.clientCertificates());
        if (security.isTls()) {
            LOG.info("{}", security.describe(self.toString()));
        } else {
            LOG.warn("{}", security.describe(self.toString()));
        }
        for (String sub : new String[]{"log", "meta", "snapshot"}) {
            Files.createDirectories(dir.resolve(sub));
        }
        this.data = DataStore.openEmpty(dir.resolve("data"));
        this.fsm = new KvStateMachine(data);
        this.factory = new TrackingServiceFactory(options.serviceFactory());

        NodeOptions nodeOptions = new NodeOptions();
        nodeOptions.setElectionTimeoutMs(options.electionTimeoutMs());
        nodeOptions.setSnapshotIntervalSecs(options.snapshotIntervalSecs());
        // A node not listed in peers joins later through CliService.addPeer: it starts with no configuration.
        nodeOptions.setInitialConf(peers.contains(self) ? peers : new Configuration());
        nodeOptions.setFsm(fsm);
        nodeOptions.setLogUri(dir.resolve("log").toString());
        nodeOptions.setRaftMetaUri(dir.resolve("meta").toString());
        nodeOptions.setSnapshotUri(dir.resolve("snapshot").toString());
        nodeOptions.setServiceFactory(factory);
        security.configureClient(nodeOptions); // SOFAJRaft's own replication client: TLS with the node's certificate
        nodeOptions.getRaftOptions().setSync(options.logSync());
        // The election timer's period is random in [T, 1.5 T) (SOFAJRaft adds up to 1 s by default, whatever T
        // is); a follower stands when a firing finds no heartbeat for T: a lost leader is replaced within
        // about 2.5 T plus one vote round.
        nodeOptions.getRaftOptions().setMaxElectionDelayMs(Math.max(50, options.electionTimeoutMs() / 2));

        // Bound to the given host only (SOFAJRaft's default server listens on every interface).
        com.alipay.remoting.rpc.RpcServer bolt = new com.alipay.remoting.rpc.RpcServer(self.getIp(), self.getPort(), true);
        security.configureServer(bolt, self.toString());
        // With TLS every processor registered here checks the caller's certificate before it runs.
        RpcServer rpcServer = serverHook.apply(security.guard(new BoltRpcServer(bolt)));
        RaftRpcServerFactory.addRaftRequestProcessors(rpcServer);
        KvRequestProcessor processor = new KvRequestProcessor();
        rpcServer.registerProcessor(processor);

        this.service = new RaftGroupService(group, self, nodeOptions, rpcServer);
        Node started;
        try {
            started = service.start();
        } catch (RuntimeException e) {
            data.close();
            throw new IOException("raft node " + self + " of group " + group + " failed to start: " + e, e);
        }
        if (started == null) {
            service.shutdown();
            data.close();
            throw new IOException("raft node " + self + " of group " + group + " failed to start (see the log)");
        }
        this.node = started;
        Replica replica = new Replica(group, node, data, fsm, this::status, security.isTls());
        processor.identify(security.callers());
        processor.serve(replica);

        this.client = new CliClientServiceImpl();
        client.init(security.configureClient(new CliOptions()));
        RpcTransport remote = new RpcTransport(security.calls(client.getRpcClient()).client());
        Transport transport = (target, request, timeoutMs) -> target.equals(self)
                ? replica.handle(request).get(timeoutMs, TimeUnit.MILLISECONDS)
                : remote.send(target, request, timeoutMs);
        GroupCaller caller = new GroupCaller(group, transport, timeoutMs -> leader(),
                options.requestTimeout().toMillis(),
                Math.max(GroupCaller.DEFAULT_ATTEMPT_TIMEOUT_MS, options.electionTimeoutMs()));
        List<PeerId> known = new ArrayList<>(List.of(self));
        known.addAll(peers.getPeers());
        this.store = new GroupStore(group, caller, self, known, options.readConsistency(), this::shutdown);
        this.keeper = keepDescriptor(replica, transport, known, options);
        LOG.info("raft node {} of group {} started in {} with peers {}", self, group, dir, peers);
        if (options.adminPassword() != null) {
            Thread first = new Thread(() -> createFirstAdmin(options.adminPassword()), "kegdb-first-admin");
            first.setDaemon(true);
            first.start();
        }
    }

    /**
     * Creates the first admin through the group (from any node: this node's own store sends it to the leader)
     * unless the cluster has had users already; retried until the group has a leader or this node stops.
     */
    private void createFirstAdmin(String password) {
        while (!closed) {
            try {
                store.write(Authorizer.bootstrap(password), Durability.SYNC);
                LOG.info("created the first admin, {}, of group {}", Authorizer.FIRST_ADMIN, group);
                return;
            } catch (KeyExistsException e) {
                LOG.info("group {} has users already: the admin password given to {} is not used", group, self);
                return;
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                LOG.debug("creating the first admin of group {} failed, trying again: {}", group, e.toString());
                try {
                    Thread.sleep(200);
                } catch (InterruptedException interrupted) {
                    return;
                }
            }
        }
    }

    private volatile boolean closed;

    /**
     * The range descriptor's keeper (docs/SCALE.md): after each election this node wins, it makes sure the
     * group (range 1) holds its descriptor and the meta range (the group itself) a copy. Its writes go through
     * a store of their own, so the node's store counts only its users' requests.
     */
    private DescriptorKeeper keepDescriptor(Replica replica, Transport transport, List<PeerId> known,
                                            RaftNodeOptions options) {
        GroupCaller metaCaller = new GroupCaller(group, transport, timeoutMs -> leader(),
                options.requestTimeout().toMillis(),
                Math.max(GroupCaller.DEFAULT_ATTEMPT_TIMEOUT_MS, options.electionTimeoutMs()));
        GroupStore meta = new GroupStore(group, metaCaller, self, known, ReadConsistency.LINEARIZABLE, () -> { });
        DescriptorKeeper kept = new DescriptorKeeper(group, new DescriptorKeeper.Replica() {
            @Override
            public RangeDescriptor stored() {
                return fsm.descriptor();
            }

            @Override
            public boolean isLeader() {
                return node.isLeader();
            }

            @Override
            public List<String> members() {
                return node.listPeers().stream().map(p -> p.getEndpoint().toString()).toList();
            }

            @Override
            public CompletableFuture<?> proposeInitial(RangeDescriptor initial) {
                return replica.proposeInitialDescriptor(initial);
            }
        }, meta);
        fsm.whenLeaderStarts(kept::leaderStarted);
        if (node.isLeader()) {
            kept.leaderStarted(); // elected before the listener was set; a second run changes nothing
        }
        return kept;
    }

    @Override
    public void login(String user, String password) {
        store.login(user, password);
    }

    @Override
    public void manage(UserCommand command) {
        store.manage(command);
    }

    @Override
    public List<UserInfo> users() {
        return store.users();
    }

    /**
     * Starts a node: opens its storages, binds its RPC server to {@code self} and joins the group's elections.
     *
     * @throws IOException if a directory cannot be prepared or the node does not start
     * @throws IllegalArgumentException if an address does not parse
     */
    public static RaftNode start(RaftNodeOptions options) throws IOException {
        return start(options, UnaryOperator.identity());
    }

    /** As above, with every request this node receives passing through {@code serverHook}'s server (tests cut
     *  a node off or pause it). */
    static RaftNode start(RaftNodeOptions options, UnaryOperator<RpcServer> serverHook) throws IOException {
        PeerId self = PeerId.parsePeer(options.self());
        if (self == null || self.getPort() <= 0) {
            throw new IllegalArgumentException("self must be host:port, not " + options.self());
        }
        return new RaftNode(options, self, PeerList.parse(options.peers()), serverHook);
    }

    /** This node's view of the group. */
    public RaftStatus status() {
        PeerId leader = leader();
        long term = factory.term();
        String role = node.getNodeState().name().replace("STATE_", "");
        return new RaftStatus(self.toString(), group, role, term,
                leader == null ? null : leader.toString(), node.getLastCommittedIndex(),
                node.getLastAppliedLogIndex(), factory.firstLogIndex(), node.getLastLogIndex());
    }

    /** The leader this node knows of, or null while there is none. */
    private PeerId leader() {
        PeerId leader = node.getLeaderId();
        return leader == null || leader.isEmpty() ? null : leader;
    }

    @Override
    public List<RaftStatus> members() {
        return store.members();
    }

    @Override
    public List<RangeStatus> ranges() {
        return store.ranges();
    }

    /** True while this node is the group's leader. */
    public boolean isLeader() {
        return node.isLeader();
    }

    @Override
    public byte[] get(byte[] key) {
        return store.get(key);
    }

    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        return store.getAll(keys);
    }

    @Override
    public void put(byte[] key, byte[] value, Durability durability) {
        store.put(key, value, durability);
    }

    @Override
    public boolean delete(byte[] key, Durability durability) {
        return store.delete(key, durability);
    }

    /** One Raft log entry; returns once committed on a majority and applied on this group's leader. */
    @Override
    public void write(WriteBatch batch, Durability durability) {
        store.write(batch, durability);
    }

    @Override
    public KvSnapshot snapshot() {
        return store.snapshot();
    }

    @Override
    public KvIterator scan(byte[] fromInclusive, byte[] toExclusive) {
        return store.scan(fromInclusive, toExclusive);
    }

    @Override
    public KvIterator scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        return store.scanDescending(fromInclusive, toExclusive);
    }

    /** The group store's cursor: its pages come over the node's RPC, as its scans do. */
    @Override
    public KvCursor cursor(byte[] fromInclusive, byte[] toExclusive) {
        return store.cursor(fromInclusive, toExclusive);
    }

    @Override
    public KvCursor cursorDescending(byte[] fromInclusive, byte[] toExclusive) {
        return store.cursorDescending(fromInclusive, toExclusive);
    }

    @Override
    public void flush() {
        store.flush();
    }

    @Override
    public BitcaskStats stats() {
        return store.stats();
    }

    /** Leaves the group's elections, stops the RPC server and closes the storages. */
    @Override
    public void close() {
        closed = true;
        store.close();
    }

    private void shutdown() {
        keeper.close();
        client.shutdown();
        service.shutdown();
        try {
            service.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        data.close();
        LOG.info("raft node {} of group {} stopped", self, group);
    }

    /** Takes a snapshot now and waits for it (tests). */
    Status snapshotNow(long timeoutMs) throws Exception {
        CompletableFuture<Status> done = new CompletableFuture<>();
        node.snapshot(done::complete);
        return done.get(timeoutMs, TimeUnit.MILLISECONDS);
    }

    Node node() {
        return node;
    }

    KvStateMachine stateMachine() {
        return fsm;
    }
}
