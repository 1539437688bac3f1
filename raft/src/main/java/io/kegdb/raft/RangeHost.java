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
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.raft.range.CatalogFence;
import io.kegdb.raft.range.DescriptorKeeper;
import io.kegdb.raft.range.FenceKeeper;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.RangeIds;
import io.kegdb.raft.range.SplitCommand;
import io.kegdb.raft.replication.DataStore;
import io.kegdb.raft.replication.GroupCaller;
import io.kegdb.raft.replication.GroupStore;
import io.kegdb.raft.replication.KvRequestProcessor;
import io.kegdb.raft.replication.KvStateMachine;
import io.kegdb.raft.replication.RangeBootstrap;
import io.kegdb.raft.replication.RangeSplits;
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
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
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
 *
 * <p>Splits (docs/SCALE.md, "Splits"): {@link #split} by hand, {@link #splitWhenLarger} by size. The ranges a
 * split makes are hosted beside the range they came from ({@code groups/NAME_r<id>/}), each with the keepers of
 * its descriptor's meta copy and of its catalog fence.
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
    /** The state machine of each hosted replica (its range, for splits). */
    private final Map<String, KvStateMachine> machines = new ConcurrentHashMap<>();
    /** The meta range's group of each hosted replica's cluster. */
    private final Map<String, String> metaGroups = new ConcurrentHashMap<>();
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
        host(group, PeerList.parse(peers), electionTimeoutMs, group);
    }

    /**
     * Starts this process's replica of {@code group} with {@code conf} as its initial configuration (empty: it
     * waits to be sent the group's state by its leader); {@code metaGroup} is the group of its cluster's meta
     * range, where the ranges its splits make are registered.
     */
    private void host(String group, Configuration conf, int electionTimeoutMs, String metaGroup) throws IOException {
        if (closed) {
            throw new IllegalStateException("host " + self + " is closed");
        }
        if (!GROUP_ID.matcher(group).matches()) {
            // SOFAJRaft's own rule, checked before anything is made on disk
            throw new IllegalArgumentException("a group id is a letter, then letters, digits, '-' or '_', not " + group);
        }
        Path groupDir = groupDir(group);
        for (String sub : new String[]{"log", "meta", "snapshot"}) {
            Files.createDirectories(groupDir.resolve(sub));
        }
        DataStore data = DataStore.openEmpty(groupDir.resolve("data"));
        KvStateMachine fsm = new KvStateMachine(data);
        fsm.splitsInto(new Splits(metaGroup, electionTimeoutMs));
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
        List<PeerId> known = new ArrayList<>(conf.isEmpty() ? List.of(self) : conf.getPeers());
        GroupStore store = new GroupStore(group, caller, self, known, ReadConsistency.LINEARIZABLE, () -> { });
        processor.serve(replica);
        hosted.put(group, new Hosted(service, node, data, replica, store));
        machines.put(group, fsm);
        metaGroups.put(group, metaGroup);
        LOG.info("{} hosts a replica of group {} with peers {}", self, group, conf);
    }

    private Path groupDir(String group) {
        return dir.resolve("groups").resolve(group);
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

    // ---- Splits (docs/SCALE.md, "Splits") ----

    private static final long SPLIT_TIMEOUT_MS = 30_000;
    private static final long META_WAIT_MS = 10_000;
    /** Starts the replicas of the ranges splits make, off the state machines' threads. */
    private final ExecutorService splitStarts = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "kegdb-split-start");
        t.setDaemon(true);
        return t;
    });
    private final Set<String> starting = ConcurrentHashMap.newKeySet();
    /** The descriptor and fence keepers of the ranges splits made, by group. */
    private final Map<String, List<AutoCloseable>> keepers = new ConcurrentHashMap<>();
    private final Map<String, FenceKeeper> fences = new ConcurrentHashMap<>();

    /**
     * Splits the range of hosted group {@code group}, which this host's replica leads, at store key {@code at}
     * (docs/SCALE.md, "Splits"): takes a new range id from the meta range, proposes {@code SPLIT} in the range's
     * own log and waits until it is applied here (every replica then makes the new range's replica and starts
     * its group), then writes both descriptors into the meta range in one conditional write. Nothing is locked
     * across ranges: only this range's log waits for the copy.
     *
     * @return the two ranges, {@code [left, right]}
     * @throws IllegalArgumentException if this host has no replica of {@code group} or {@code at} cannot split
     *                                  its range (outside it, at its start, or in the system span)
     * @throws IllegalStateException    if this replica does not lead, the meta range is not hosted here, or the
     *                                  split did not apply (a concurrent split changed the range first)
     */
    public RangeDescriptor[] split(String group, byte[] at) {
        Hosted h = hosted.get(group);
        KvStateMachine fsm = machines.get(group);
        if (h == null || fsm == null) {
            throw new IllegalArgumentException(self + " hosts no replica of group " + group);
        }
        if (!h.node().isLeader()) {
            throw new IllegalStateException(self + " does not lead group " + group);
        }
        String metaGroup = metaGroups.get(group);
        Hosted meta = hosted.get(metaGroup);
        if (meta == null) {
            throw new IllegalStateException(self + " hosts no replica of the meta range " + metaGroup);
        }
        try {
            RangeDescriptor held = fsm.descriptor();
            if (held == null) {
                // a group that never installed its descriptor: the one every cluster begins with
                h.replica().proposeInitialDescriptor(RangeDescriptor.initial(members(h.node())))
                        .get(SPLIT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                held = fsm.descriptor();
            }
            held.checkSplit(at);
            long id = RangeIds.next(meta.store());
            SplitCommand command = new SplitCommand(at, id, held.generation(), SplitCommand.groupOf(metaGroup, id));
            h.replica().proposeSplit(command).get(SPLIT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            RangeDescriptor now = fsm.descriptor();
            RangeDescriptor[] halves = held.split(at, id);
            if (!halves[0].equals(now)) {
                throw new IllegalStateException("the split of " + held + " at its generation did not apply: the range"
                        + " is " + now + " now");
            }
            for (int attempt = 0; !DescriptorKeeper.publish(meta.store(), List.of(halves)); attempt++) {
                if (attempt >= 100) {
                    throw new IllegalStateException("the meta range's copies of " + List.of(halves)
                            + " kept changing; the ranges' leaders write them");
                }
            }
            return halves;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while splitting group " + group, e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("splitting group " + group + " failed: " + e, e);
        }
    }

    /**
     * Splits every range this host leads, at its middle key, once its replica's store holds more than
     * {@code maxKeys} keys or {@code maxBytes} live bytes (docs/SCALE.md, "Splits": the size trigger), checked
     * every {@code periodMs}; the halves are checked again at the next round, so a range far too large splits
     * until no half is. Only ranges whose cluster's meta range this host also holds are checked.
     */
    public void splitWhenLarger(long maxKeys, long maxBytes, long periodMs) {
        if (maxKeys <= 0 || maxBytes <= 0 || periodMs <= 0) {
            throw new IllegalArgumentException("split limits and period are positive: " + maxKeys + " keys, "
                    + maxBytes + " bytes, every " + periodMs + " ms");
        }
        sizeChecks.scheduleWithFixedDelay(() -> splitLargeRanges(maxKeys, maxBytes), periodMs, periodMs,
                TimeUnit.MILLISECONDS);
    }

    private final java.util.concurrent.ScheduledExecutorService sizeChecks =
            Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "kegdb-split-size");
                t.setDaemon(true);
                return t;
            });

    private void splitLargeRanges(long maxKeys, long maxBytes) {
        for (String group : List.copyOf(hosted.keySet())) {
            Hosted h = hosted.get(group);
            String metaGroup = metaGroups.get(group);
            if (closed || h == null || metaGroup == null || !hosted.containsKey(metaGroup) || !h.node().isLeader()) {
                continue;
            }
            try {
                byte[] at = h.replica().sizeSplitPoint(maxKeys, maxBytes);
                if (at != null) {
                    LOG.info("group {} is larger than {} keys or {} bytes: splitting it at {}", group, maxKeys, maxBytes,
                            RangeDescriptor.printable(at));
                    split(group, at);
                }
            } catch (RuntimeException e) {
                LOG.warn("splitting group {} by size failed, trying again later: {}", group, e.toString());
            }
        }
    }

    private static List<String> members(Node node) {
        return node.listPeers().stream().map(p -> p.getEndpoint().toString()).toList();
    }

    /** A hosted replica's splits: the new ranges' replicas made in this host's directory and hosted here. */
    private final class Splits implements RangeSplits {
        private final String metaGroup;
        private final int electionTimeoutMs;

        Splits(String metaGroup, int electionTimeoutMs) {
            this.metaGroup = metaGroup;
            this.electionTimeoutMs = electionTimeoutMs;
        }

        @Override
        public void make(String group, RangeDescriptor range, byte[] fence, KvIterator pairs) throws IOException {
            if (RangeBootstrap.make(groupDir(group), group, range, fence, pairs, new KegRaftServiceFactory())) {
                LOG.info("{} made its replica of {} (group {})", self, range, group);
            }
        }

        @Override
        public void host(String group, RangeDescriptor range) {
            if (!closed && range.replicas().contains(self.toString()) && !hosted.containsKey(group)) {
                splitStarts.execute(() -> hostSplitRange(group, range, metaGroup, electionTimeoutMs));
            }
        }
    }

    /**
     * Starts this host's replica of a range a split made: as made (its configuration in its bootstrap snapshot),
     * or, if this replica never made it (it caught up on the splitting range by a later snapshot), empty and
     * without a configuration, so that it stands in no election and is sent the group's snapshot by its leader.
     */
    private void hostSplitRange(String group, RangeDescriptor range, String metaGroup, int electionTimeoutMs) {
        if (closed || hosted.containsKey(group) || !starting.add(group)) {
            return;
        }
        try {
            Path groupDir = groupDir(group);
            Configuration conf;
            if (RangeBootstrap.isComplete(groupDir)) {
                conf = RangeBootstrap.configuration(range);
            } else {
                RangeBootstrap.prepareEmpty(groupDir);
                conf = new Configuration();
            }
            host(group, conf, electionTimeoutMs, metaGroup);
            keepSplitRange(group, metaGroup);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            LOG.warn("{} could not start its replica of {} (group {}): {}", self, range, group, e.toString());
        } finally {
            starting.remove(group);
        }
    }

    /**
     * The leader duties of a range a split made: its descriptor's copy in the meta range (step 4 of a split,
     * repeated by every leader) and its catalog fence, after every election, and the fence again after every
     * DDL this host's replica of the meta range applies.
     */
    private void keepSplitRange(String group, String metaGroup) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(META_WAIT_MS);
        while (!hosted.containsKey(metaGroup) && System.nanoTime() < deadline && !closed) {
            Thread.sleep(20); // the meta range's replica is still starting (it loads the snapshot naming this range)
        }
        Hosted h = hosted.get(group);
        Hosted meta = hosted.get(metaGroup);
        KvStateMachine fsm = machines.get(group);
        if (h == null || meta == null || fsm == null) {
            LOG.warn("{} hosts no replica of the meta range {}: nothing keeps group {}'s descriptor and fence here",
                    self, metaGroup, group);
            return;
        }
        DescriptorKeeper descriptor = new DescriptorKeeper(group, new DescriptorKeeper.Replica() {
            @Override
            public RangeDescriptor stored() {
                return fsm.descriptor();
            }

            @Override
            public boolean isLeader() {
                return h.node().isLeader();
            }

            @Override
            public List<String> members() {
                return RangeHost.members(h.node());
            }

            @Override
            public CompletableFuture<?> proposeInitial(RangeDescriptor initial) {
                return h.replica().proposeInitialDescriptor(initial);
            }
        }, meta.store());
        FenceKeeper fence = new FenceKeeper(group, new FenceKeeper.Replica() {
            @Override
            public RangeDescriptor held() {
                return fsm.descriptor();
            }

            @Override
            public long fenceVersion() {
                return h.replica().fenceVersion();
            }

            @Override
            public boolean isLeader() {
                return h.node().isLeader();
            }

            @Override
            public CompletableFuture<?> proposeFence(CatalogFence.Command command) {
                return h.replica().proposeFence(command);
            }
        }, meta.store());
        keepers.put(group, List.of(descriptor, fence));
        fences.put(group, fence);
        fsm.whenLeaderStarts(() -> {
            descriptor.leaderStarted();
            fence.advanceLater();
        });
        machines.get(metaGroup).whenCatalogChanges(() -> fences.values().forEach(FenceKeeper::advanceLater));
        if (h.node().isLeader()) {
            descriptor.leaderStarted(); // elected before the listener was set; a second run changes nothing
            fence.advanceLater();
        }
    }

    /** The SOFAJRaft node of hosted group {@code group} (tests take snapshots and read indexes by it). */
    Node node(String group) {
        Hosted h = hosted.get(group);
        return h == null ? null : h.node();
    }

    /** The state machine of hosted group {@code group} (tests). */
    KvStateMachine stateMachine(String group) {
        return machines.get(group);
    }

    /** Stops every hosted replica, then the RPC server. */
    @Override
    public void close() {
        closed = true;
        sizeChecks.shutdownNow();
        splitStarts.shutdownNow();
        for (List<AutoCloseable> kept : keepers.values()) {
            for (AutoCloseable k : kept) {
                try {
                    k.close();
                } catch (Exception e) {
                    LOG.debug("closing a keeper: {}", e.toString());
                }
            }
        }
        keepers.clear();
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
