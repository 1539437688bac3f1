package io.kegdb.raft;

import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.RaftGroupService;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.NodeOptions;
import com.alipay.sofa.jraft.rpc.RpcServer;
import io.kegdb.engine.BitcaskStats;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyExistsException;
import io.kegdb.engine.KvCursor;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvSnapshot;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.range.CatalogFence;
import io.kegdb.raft.range.DescriptorKeeper;
import io.kegdb.raft.range.FenceKeeper;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.replication.DataStore;
import io.kegdb.raft.replication.GroupCaller;
import io.kegdb.raft.replication.GroupStore;
import io.kegdb.raft.replication.KvStateMachine;
import io.kegdb.raft.replication.RangeSplits;
import io.kegdb.raft.replication.Replica;
import io.kegdb.raft.replication.TrackingServiceFactory;
import io.kegdb.raft.replication.Transport;
import io.kegdb.raft.storage.KegRaftServiceFactory;
import io.kegdb.raft.users.Authorizer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * One replica hosted by a {@link RangeHost}: a member of one Raft group (one range), and the {@link KvStore} of
 * that group as seen from it. Writes from this node reach the leader (applied here when this node leads,
 * forwarded to the leader otherwise) and return once committed on a majority and applied; reads are served from
 * this node's replica, linearizable by default (a read index round with the leader) or local.
 *
 * <p>{@link #start} is a node of one group: a host of its own, bound exactly to the {@code self} address with the
 * options' TLS, hosting the group as range 1; closing it stops that host. On disk, in the replica's directory:
 * {@code log/} and {@code meta/} (Bitcask stores, see {@link KegRaftServiceFactory}), {@code snapshot/} (backups
 * of the data store) and {@code data/} (the data store, rebuilt at each start from the latest snapshot and the
 * log after it). The RPC server, its TLS and guard, and the timers are the host's.
 */
public final class RaftNode implements KvStore, RaftGroupView, RangeView, ClusterUsers {

    private static final Logger LOG = LoggerFactory.getLogger(RaftNode.class);

    static {
        SuspendSignal.loadNodeClass();
    }

    /**
     * What a host gives the replica it starts.
     *
     * @param dir           the replica's directory
     * @param conf          its initial configuration (empty: it waits to be added, or to be sent the group's state)
     * @param known         the nodes its store asks first
     * @param splits        where the ranges its splits make are made and hosted
     * @param users         the checks of clients' requests; null: this replica holds its cluster's users itself
     *                      (the meta range)
     * @param adminPassword the first admin's password, or null
     * @param onClose       what {@link #close} does
     */
    record Setup(String group, Path dir, Configuration conf, List<PeerId> known, ReplicaSettings settings,
                 RangeSplits splits, Authorizer users, String adminPassword, Runnable onClose) {
    }

    private final String group;
    private final PeerId self;
    private final RaftGroupService service;
    private final Node node;
    private final DataStore data;
    private final KvStateMachine fsm;
    private final TrackingServiceFactory factory;
    private final Authorizer users;
    private final Replica replica;
    private final GroupStore store;
    /** The node's own requests (descriptor and fence keepers, range ids), so that {@link #store} counts only its
     *  users'. */
    private final GroupStore duties;
    private final List<AutoCloseable> keepers = new CopyOnWriteArrayList<>();
    private volatile FenceKeeper fence;
    private final Runnable onClose;
    private volatile boolean closed;

    /** Starts the replica on {@code host}'s RPC server (already serving). */
    RaftNode(RangeHost host, Setup setup) throws IOException {
        this.group = setup.group();
        this.self = host.self();
        this.onClose = setup.onClose();
        ReplicaSettings settings = setup.settings();
        Path dir = setup.dir();
        for (String sub : new String[]{"log", "meta", "snapshot"}) {
            Files.createDirectories(dir.resolve(sub));
        }
        this.data = DataStore.openEmpty(dir.resolve("data"));
        this.fsm = new KvStateMachine(data);
        fsm.splitsInto(setup.splits());
        this.factory = new TrackingServiceFactory(settings.serviceFactory());

        NodeOptions nodeOptions = new NodeOptions();
        nodeOptions.setElectionTimeoutMs(settings.electionTimeoutMs());
        nodeOptions.setSnapshotIntervalSecs(settings.snapshotIntervalSecs());
        nodeOptions.setInitialConf(setup.conf());
        nodeOptions.setFsm(fsm);
        nodeOptions.setLogUri(dir.resolve("log").toString());
        nodeOptions.setRaftMetaUri(dir.resolve("meta").toString());
        nodeOptions.setSnapshotUri(dir.resolve("snapshot").toString());
        nodeOptions.setServiceFactory(factory);
        host.security().configureClient(nodeOptions); // SOFAJRaft's own replication client: TLS with the node's certificate
        nodeOptions.getRaftOptions().setSync(settings.logSync());
        // The election timer's period is random in [T, 1.5 T) (SOFAJRaft adds up to 1 s by default, whatever T
        // is); a follower stands when a firing finds no heartbeat for T: a lost leader is replaced within
        // about 2.5 T plus one vote round.
        nodeOptions.getRaftOptions().setMaxElectionDelayMs(Math.max(50, settings.electionTimeoutMs() / 2));
        // One timer pool each for the whole process, not four timer threads per replica.
        nodeOptions.setSharedElectionTimer(true);
        nodeOptions.setSharedVoteTimer(true);
        nodeOptions.setSharedStepDownTimer(true);
        nodeOptions.setSharedSnapshotTimer(true);

        this.service = new RaftGroupService(group, self, nodeOptions, host.rpcServer(), true);
        Node started;
        try {
            started = service.start(false); // the host's server serves already
        } catch (RuntimeException e) {
            data.close();
            throw new IOException("replica " + self + " of group " + group + " failed to start: " + e, e);
        }
        if (started == null) {
            service.shutdown();
            data.close();
            throw new IOException("replica " + self + " of group " + group + " failed to start (see the log)");
        }
        this.node = started;
        this.users = setup.users() != null ? setup.users() : Replica.usersOf(data, host.security().isTls());
        this.replica = new Replica(group, node, data, fsm, this::status, users);
        Transport transport = (target, request, timeoutMs) -> target.equals(self)
                ? replica.handle(request).get(timeoutMs, TimeUnit.MILLISECONDS)
                : host.remote().send(target, request, timeoutMs);
        this.store = new GroupStore(group, caller(transport, settings), self, setup.known(),
                settings.readConsistency(), () -> { });
        this.duties = new GroupStore(group, caller(transport, settings), self, setup.known(),
                ReadConsistency.LINEARIZABLE, () -> { });
        LOG.info("replica {} of group {} started in {} with peers {}", self, group, dir, setup.conf());
        if (setup.adminPassword() != null) {
            Thread first = new Thread(() -> createFirstAdmin(setup.adminPassword()), "kegdb-first-admin");
            first.setDaemon(true);
            first.start();
        }
    }

    private GroupCaller caller(Transport transport, ReplicaSettings settings) {
        return new GroupCaller(group, transport, timeoutMs -> leader(), settings.requestTimeout().toMillis(),
                Math.max(GroupCaller.DEFAULT_ATTEMPT_TIMEOUT_MS, settings.electionTimeoutMs()));
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

    /**
     * Takes up the leader's duties to this range (docs/SCALE.md): after each election this replica wins, the
     * range holds its descriptor and the meta range a copy ({@link DescriptorKeeper}); a range other than the
     * meta range also keeps its catalog fence up to the meta range's catalog version ({@link FenceKeeper}), and
     * again after each DDL ({@link #catalogChanged}). Their writes go through {@code meta}'s own store.
     *
     * @param meta this host's replica of the cluster's meta range (this replica itself for range 1)
     */
    void keepRange(RaftNode meta) {
        DescriptorKeeper descriptor = new DescriptorKeeper(group, new DescriptorKeeper.Replica() {
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
                return memberList();
            }

            @Override
            public CompletableFuture<?> proposeInitial(RangeDescriptor initial) {
                return replica.proposeInitialDescriptor(initial);
            }
        }, meta.duties);
        keepers.add(descriptor);
        FenceKeeper fenced = meta == this ? null : new FenceKeeper(group, new FenceKeeper.Replica() {
            @Override
            public RangeDescriptor held() {
                return fsm.descriptor();
            }

            @Override
            public long fenceVersion() {
                return replica.fenceVersion();
            }

            @Override
            public boolean isLeader() {
                return node.isLeader();
            }

            @Override
            public CompletableFuture<?> proposeFence(CatalogFence.Command command) {
                return replica.proposeFence(command);
            }
        }, meta.duties);
        if (fenced != null) {
            keepers.add(fenced);
            this.fence = fenced;
        }
        Runnable duty = () -> {
            descriptor.leaderStarted();
            if (fenced != null) {
                fenced.advanceLater();
            }
        };
        fsm.whenLeaderStarts(duty);
        if (node.isLeader()) {
            duty.run(); // elected before the listener was set; a second run changes nothing
        }
    }

    /** A DDL was applied in the meta range on this node: a range with a catalog fence brings it up. */
    void catalogChanged() {
        FenceKeeper f = fence;
        if (f != null) {
            f.advanceLater();
        }
    }

    /** The group's members, {@code host:port} each, as this replica's node knows them. */
    List<String> memberList() {
        return node.listPeers().stream().map(p -> p.getEndpoint().toString()).toList();
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
     * Starts a node of one group: a {@link RangeHost} bound exactly to {@code self} with the options' TLS, hosting
     * the group as range 1 in the options' directory; {@link #close} stops the host with it.
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
        return RangeHost.startNode(options, serverHook, true).replica(options.group());
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

    /**
     * For a node of {@link #start}: stops its host (every replica it hosts, then the RPC server). For a replica
     * of a longer-lived host: leaves the group's elections and closes the storages; the host goes on.
     */
    @Override
    public void close() {
        onClose.run();
    }

    /** Leaves the group's elections (the host then waits for {@link #awaitStopped}). */
    void stopElections() {
        if (closed) {
            return;
        }
        closed = true;
        store.close();
        duties.close();
        for (AutoCloseable k : keepers) {
            try {
                k.close();
            } catch (Exception e) {
                LOG.debug("closing a keeper of group {}: {}", group, e.toString());
            }
        }
        service.shutdown();
    }

    /** Waits until the replica stopped, then closes its data store. */
    void awaitStopped() {
        try {
            service.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        data.close();
        LOG.info("replica {} of group {} stopped", self, group);
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

    Replica replicaServed() {
        return replica;
    }

    /** The checks of clients' requests this replica makes (the meta range's are its split ranges'). */
    Authorizer authorizer() {
        return users;
    }

    /** The node's own store of this group (not counted as its users' requests). */
    GroupStore duties() {
        return duties;
    }

    String group() {
        return group;
    }
}
