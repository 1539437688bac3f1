package io.kegdb.raft;

import com.alipay.sofa.jraft.Node;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.CliOptions;
import com.alipay.sofa.jraft.rpc.RaftRpcServerFactory;
import com.alipay.sofa.jraft.rpc.RpcServer;
import com.alipay.sofa.jraft.rpc.impl.BoltRpcServer;
import com.alipay.sofa.jraft.rpc.impl.cli.CliClientServiceImpl;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.raft.range.DescriptorKeeper;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.RangeIds;
import io.kegdb.raft.range.SplitCommand;
import io.kegdb.raft.replication.KvRequestProcessor;
import io.kegdb.raft.replication.KvStateMachine;
import io.kegdb.raft.replication.RangeBootstrap;
import io.kegdb.raft.replication.RangeSplits;
import io.kegdb.raft.replication.RpcTransport;
import io.kegdb.raft.security.TransportSecurity;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * The replicas of many Raft groups in one process, and the process's RPC side (docs/SCALE.md, "Many ranges on
 * one node"): one SOFAJRaft {@link RpcServer} bound to {@code self} with the node's TLS and, with TLS, the guard
 * that checks each caller's certificate ({@link TransportSecurity}); the CLI client the replicas call other nodes
 * through; one {@link KvRequestProcessor} answering each request by the replica of the group it names; and
 * SOFAJRaft's shared election, vote, step-down and snapshot timers, so that many replicas do not mean four timer
 * threads each. Each replica is a {@link RaftNode}.
 *
 * <p>{@link #start(RaftNodeOptions)} is what {@code kegdb node} runs: the node's group is range 1 (the meta
 * range), in the node's directory as a node of one group always had it ({@code log/}, {@code meta/},
 * {@code snapshot/}, {@code data/}), so an existing directory opens unchanged. Every other hosted group lives
 * in {@code dir/groups/<group id>/} with the same four directories and the same crash story. Every replica runs
 * with the host's security: its calls to other nodes with the host's certificate, its clients' requests checked
 * against the users of the meta range this host holds.
 *
 * <p>Splits (docs/SCALE.md, "Splits"): {@link #split} by hand, {@link #splitWhenLarger} by size. The ranges a
 * split makes are hosted beside the range they came from ({@code groups/NAME_r<id>/}), each keeping its
 * descriptor's meta copy and its catalog fence.
 */
public final class RangeHost implements AutoCloseable {

    static {
        SuspendSignal.loadNodeClass();
    }

    private static final Logger LOG = LoggerFactory.getLogger(RangeHost.class);
    private static final Pattern GROUP_ID = Pattern.compile("[a-zA-Z][a-zA-Z0-9_-]*");

    private final PeerId self;
    private final Path dir;
    private final TransportSecurity security;
    private final ReplicaSettings settings;
    private final RpcServer rpcServer;
    private final KvRequestProcessor processor = new KvRequestProcessor();
    private final CliClientServiceImpl client = new CliClientServiceImpl();
    private final RpcTransport remote;
    private final Map<String, RaftNode> hosted = new ConcurrentHashMap<>();
    /** The meta range's group of each hosted replica's cluster. */
    private final Map<String, String> metaGroups = new ConcurrentHashMap<>();
    private volatile boolean closed;

    private RangeHost(PeerId self, Path dir, TransportSecurity security, ReplicaSettings settings,
                      UnaryOperator<RpcServer> serverHook) {
        this.self = self;
        this.dir = dir;
        this.security = security;
        this.settings = settings;
        if (security.isTls()) {
            LOG.info("{}", security.describe(self.toString()));
        } else {
            LOG.warn("{}", security.describe(self.toString()));
        }
        // Bound to the given host only (SOFAJRaft's default server listens on every interface).
        com.alipay.remoting.rpc.RpcServer bolt = new com.alipay.remoting.rpc.RpcServer(self.getIp(), self.getPort(), true);
        security.configureServer(bolt, self.toString());
        // With TLS every processor registered here checks the caller's certificate before it runs.
        this.rpcServer = serverHook.apply(security.guard(new BoltRpcServer(bolt)));
        RaftRpcServerFactory.addRaftRequestProcessors(rpcServer);
        processor.identify(security.callers());
        rpcServer.registerProcessor(processor);
        if (!rpcServer.init(null)) {
            throw new IllegalStateException("the RPC server of " + self + " did not start");
        }
        client.init(security.configureClient(new CliOptions()));
        this.remote = new RpcTransport(security.calls(client.getRpcClient()).client());
    }

    /**
     * A host without TLS bound to {@code self} ({@code host:port}), with the default replica settings; groups are
     * added with {@link #host}.
     *
     * @throws IOException if {@code dir} cannot be made or the server does not bind
     */
    public static RangeHost start(String self, Path dir) throws IOException {
        return open(self, dir, TransportSecurity.open(), ReplicaSettings.defaults(), UnaryOperator.identity());
    }

    /**
     * A node ({@code kegdb node}): a host bound exactly to the options' {@code self} with their TLS, hosting the
     * options' group as range 1 in the options' directory (the layout of a node of one group); the ranges its
     * splits make run with the same settings and security.
     *
     * @throws IOException if a directory cannot be prepared, the server does not bind or the node does not start
     * @throws IllegalArgumentException if an address does not parse
     */
    public static RangeHost start(RaftNodeOptions options) throws IOException {
        return startNode(options, UnaryOperator.identity(), false);
    }

    /**
     * As {@link #start(RaftNodeOptions)}, every request passing through {@code serverHook}'s server (tests cut a
     * node off or pause it); with {@code nodeClosesHost}, closing the group's {@link RaftNode} closes the host.
     */
    static RangeHost startNode(RaftNodeOptions options, UnaryOperator<RpcServer> serverHook, boolean nodeClosesHost)
            throws IOException {
        RangeHost host = open(options.self(), options.dir(),
                TransportSecurity.node(options.tls(), options.clientCertificates()), ReplicaSettings.of(options),
                serverHook);
        try {
            Configuration peers = PeerList.parse(options.peers());
            List<PeerId> known = new ArrayList<>(List.of(host.self));
            known.addAll(peers.getPeers());
            String group = options.group();
            // A node not listed in peers joins later through CliService.addPeer: it starts with no configuration.
            Configuration conf = peers.contains(host.self) ? peers : new Configuration();
            host.host(group, options.dir(), conf, known, host.settings, group, options.adminPassword(),
                    nodeClosesHost ? host::close : null);
            return host;
        } catch (IOException | RuntimeException e) {
            host.close();
            throw e;
        }
    }

    private static RangeHost open(String self, Path dir, TransportSecurity security, ReplicaSettings settings,
                                  UnaryOperator<RpcServer> serverHook) throws IOException {
        PeerId peer = PeerId.parsePeer(self);
        if (peer == null || peer.getPort() <= 0) {
            throw new IllegalArgumentException("self must be host:port, not " + self);
        }
        Files.createDirectories(dir);
        try {
            return new RangeHost(peer, dir, security, settings, serverHook);
        } catch (RuntimeException e) {
            throw new IOException("cannot serve on " + self + ": " + e.getMessage(), e);
        }
    }

    /**
     * Starts this process's replica of group {@code group}, whose members are {@code peers}, on the shared
     * RPC server, in {@code dir/groups/<group>/}; the group is its own meta range.
     *
     * @throws IOException if its directories cannot be prepared or its node does not start
     */
    public void host(String group, String peers, int electionTimeoutMs) throws IOException {
        Configuration conf = PeerList.parse(peers);
        host(group, groupDir(group), conf, conf.getPeers(), settings.withElectionTimeoutMs(electionTimeoutMs), group,
                null, null);
    }

    /**
     * Starts this process's replica of {@code group} in {@code groupDir} with {@code conf} as its initial
     * configuration (empty: it waits to be sent the group's state by its leader); {@code metaGroup} is the group
     * of its cluster's meta range, hosted here (or this group itself), whose users it checks its clients by and
     * where the ranges its splits make are registered.
     *
     * @param onClose what closing the replica does; null: it stops this replica only
     */
    private RaftNode host(String group, Path groupDir, Configuration conf, List<PeerId> known, ReplicaSettings with,
                          String metaGroup, String adminPassword, Runnable onClose) throws IOException {
        if (closed) {
            throw new IllegalStateException("host " + self + " is closed");
        }
        if (!GROUP_ID.matcher(group).matches()) {
            // SOFAJRaft's own rule, checked before anything is made on disk
            throw new IllegalArgumentException("a group id is a letter, then letters, digits, '-' or '_', not " + group);
        }
        RaftNode meta = metaGroup.equals(group) ? null : hosted.get(metaGroup);
        if (!metaGroup.equals(group) && meta == null) {
            // Its clients' requests are checked against the meta range's users: never served unchecked.
            throw new IllegalStateException(self + " hosts no replica of the meta range " + metaGroup + " of group "
                    + group);
        }
        List<PeerId> peers = new ArrayList<>(known.isEmpty() ? List.of(self) : known);
        RaftNode replica = new RaftNode(this, new RaftNode.Setup(group, groupDir, conf, peers, with,
                new Splits(metaGroup, with), meta == null ? null : meta.authorizer(), adminPassword,
                onClose != null ? onClose : () -> unhost(group)));
        hosted.put(group, replica);
        metaGroups.put(group, metaGroup);
        if (closed) { // closed while this replica started: close() did not see it
            unhost(group);
            throw new IllegalStateException("host " + self + " is closed");
        }
        replica.replicaServed().splitsBy(at -> split(group, at)[1]);
        processor.serve(replica.replicaServed());
        replica.keepRange(meta == null ? replica : meta);
        if (meta == null) {
            // A DDL applied here moves the catalog fences of the ranges hosted here without the catalog.
            replica.stateMachine().whenCatalogChanges(() -> hosted.values().forEach(RaftNode::catalogChanged));
        }
        LOG.info("{} hosts a replica of group {} with peers {}", self, group, conf);
        return replica;
    }

    /** Stops this host's replica of {@code group}; the host goes on. */
    private void unhost(String group) {
        RaftNode replica = hosted.remove(group);
        if (replica != null) {
            processor.stopServing(replica.replicaServed());
            replica.stopElections();
            replica.awaitStopped();
        }
    }

    private Path groupDir(String group) {
        return dir.resolve("groups").resolve(group);
    }

    PeerId self() {
        return self;
    }

    TransportSecurity security() {
        return security;
    }

    RpcServer rpcServer() {
        return rpcServer;
    }

    RpcTransport remote() {
        return remote;
    }

    /** This host's replica of {@code group}: a member of the group, and its store as seen from here. */
    public RaftNode replica(String group) {
        RaftNode h = hosted.get(group);
        if (h == null) {
            throw new IllegalArgumentException(self + " hosts no replica of group " + group);
        }
        return h;
    }

    /** The store of hosted group {@code group} as seen from this process (reads from this replica). */
    public KvStore store(String group) {
        return replica(group);
    }

    /** Whether this process's replica of {@code group} leads it. */
    public boolean isLeader(String group) {
        RaftNode h = hosted.get(group);
        return h != null && h.isLeader();
    }

    /** The groups this process hosts a replica of. */
    public List<String> groups() {
        return List.copyOf(hosted.keySet());
    }

    // ---- Splits (docs/SCALE.md, "Splits") ----

    /** The size trigger's key limit when only a byte limit is given ({@code --split-bytes}). */
    public static final long DEFAULT_SPLIT_KEYS = 1_000_000;
    /** The size trigger's byte limit when only a key limit is given ({@code --split-keys}): 256 MiB. */
    public static final long DEFAULT_SPLIT_BYTES = 256L << 20;
    private static final long SPLIT_TIMEOUT_MS = 30_000;
    private static final long META_WAIT_MS = 10_000;
    /** Starts the replicas of the ranges splits make, off the state machines' threads. */
    private final ExecutorService splitStarts = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "kegdb-split-start");
        t.setDaemon(true);
        return t;
    });
    private final Set<String> starting = ConcurrentHashMap.newKeySet();

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
        RaftNode h = replica(group);
        KvStateMachine fsm = h.stateMachine();
        if (!h.isLeader()) {
            throw new IllegalStateException(self + " does not lead group " + group);
        }
        String metaGroup = metaGroups.get(group);
        RaftNode meta = hosted.get(metaGroup);
        if (meta == null) {
            throw new IllegalStateException(self + " hosts no replica of the meta range " + metaGroup);
        }
        try {
            RangeDescriptor held = fsm.descriptor();
            if (held == null) {
                // a group that never installed its descriptor: the one every cluster begins with
                h.replicaServed().proposeInitialDescriptor(RangeDescriptor.initial(h.memberList()))
                        .get(SPLIT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                held = fsm.descriptor();
            }
            held.checkSplit(at);
            long id = RangeIds.next(meta.duties());
            SplitCommand command = new SplitCommand(at, id, held.generation(), SplitCommand.groupOf(metaGroup, id));
            h.replicaServed().proposeSplit(command).get(SPLIT_TIMEOUT_MS, TimeUnit.MILLISECONDS);
            RangeDescriptor now = fsm.descriptor();
            RangeDescriptor[] halves = held.split(at, id);
            if (!halves[0].equals(now)) {
                throw new IllegalStateException("the split of " + held + " at its generation did not apply: the range"
                        + " is " + now + " now");
            }
            for (int attempt = 0; !DescriptorKeeper.publish(meta.duties(), List.of(halves)); attempt++) {
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
            RaftNode h = hosted.get(group);
            String metaGroup = metaGroups.get(group);
            if (closed || h == null || metaGroup == null || !hosted.containsKey(metaGroup) || !h.isLeader()) {
                continue;
            }
            try {
                byte[] at = h.replicaServed().sizeSplitPoint(maxKeys, maxBytes);
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

    /** A hosted replica's splits: the new ranges' replicas made in this host's directory and hosted here. */
    private final class Splits implements RangeSplits {
        private final String metaGroup;
        private final ReplicaSettings settings;

        Splits(String metaGroup, ReplicaSettings settings) {
            this.metaGroup = metaGroup;
            this.settings = settings;
        }

        @Override
        public void make(String group, RangeDescriptor range, byte[] fence, KvIterator pairs) throws IOException {
            if (RangeBootstrap.make(groupDir(group), group, range, fence, pairs, settings.serviceFactory())) {
                LOG.info("{} made its replica of {} (group {})", self, range, group);
            }
        }

        @Override
        public void host(String group, RangeDescriptor range) {
            if (!closed && range.replicas().contains(self.toString()) && !hosted.containsKey(group)) {
                splitStarts.execute(() -> hostSplitRange(group, range, metaGroup, settings));
            }
        }
    }

    /**
     * Starts this host's replica of a range a split made: as made (its configuration in its bootstrap snapshot),
     * or, if this replica never made it (it caught up on the splitting range by a later snapshot), empty and
     * without a configuration, so that it stands in no election and is sent the group's snapshot by its leader.
     * It waits for the meta range's replica, which may still be starting (loading the snapshot naming this range):
     * the new range checks its clients by the meta range's users, and keeps its descriptor and fence there.
     */
    private void hostSplitRange(String group, RangeDescriptor range, String metaGroup, ReplicaSettings with) {
        if (closed || hosted.containsKey(group) || !starting.add(group)) {
            return;
        }
        try {
            // As long as it takes (a large snapshot of the meta range loads first), never without it.
            long sayAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(META_WAIT_MS);
            boolean said = false;
            while (!hosted.containsKey(metaGroup) && !closed) {
                if (!said && System.nanoTime() > sayAt) {
                    LOG.warn("{} waits for its replica of the meta range {} to start group {}", self, metaGroup,
                            group);
                    said = true;
                }
                Thread.sleep(20);
            }
            Path groupDir = groupDir(group);
            Configuration conf;
            if (RangeBootstrap.isComplete(groupDir)) {
                conf = RangeBootstrap.configuration(range);
            } else {
                RangeBootstrap.prepareEmpty(groupDir);
                conf = new Configuration();
            }
            host(group, groupDir, conf, conf.getPeers(), with, metaGroup, null, null);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            LOG.warn("{} could not start its replica of {} (group {}): {}", self, range, group, e.toString());
        } finally {
            starting.remove(group);
        }
    }

    /** The SOFAJRaft node of hosted group {@code group} (tests take snapshots and read indexes by it). */
    Node node(String group) {
        RaftNode h = hosted.get(group);
        return h == null ? null : h.node();
    }

    /** The state machine of hosted group {@code group} (tests). */
    KvStateMachine stateMachine(String group) {
        RaftNode h = hosted.get(group);
        return h == null ? null : h.stateMachine();
    }

    /** Stops every hosted replica, then the RPC server. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        sizeChecks.shutdownNow();
        splitStarts.shutdownNow();
        List<RaftNode> replicas = List.copyOf(hosted.values());
        replicas.forEach(RaftNode::stopElections);
        replicas.forEach(RaftNode::awaitStopped);
        hosted.clear();
        client.shutdown();
        rpcServer.shutdown();
        LOG.info("host {} stopped", self);
    }
}
