package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import io.kegdb.engine.BitcaskStats;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvSnapshot;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.StoreClosedException;
import io.kegdb.engine.UnsupportedStoreOperationException;
import io.kegdb.engine.WriteBatch;
import io.kegdb.engine.meter.Meter;
import io.kegdb.engine.meter.MeterUnit;
import io.kegdb.raft.ClusterUsers;
import io.kegdb.raft.RaftGroupView;
import io.kegdb.raft.RaftStatus;
import io.kegdb.raft.RangeSplitter;
import io.kegdb.raft.RangeStatus;
import io.kegdb.raft.RangeView;
import io.kegdb.raft.ReadConsistency;
import io.kegdb.raft.ReplicationException;
import io.kegdb.raft.UserCommand;
import io.kegdb.raft.UserInfo;
import io.kegdb.raft.range.CatalogFence;
import io.kegdb.raft.range.MetaKeys;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.RouteCache;
import io.kegdb.raft.range.SplitCommand;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The client's {@link KvStore} over every range of a cluster (docs/SCALE.md, "Routing"): each request goes to
 * the group of the range holding its keys ({@code NAME} for range 1, {@code NAME_r<id>} for the others), through
 * one {@link GroupStore} per range, all sharing one transport, and names the range and generation it was routed
 * by. Routes come from a {@link RouteCache}, which starts as the descriptor every cluster begins with (range 1
 * over every key), so a cluster of one range costs exactly what a {@link GroupStore} of its group costs: no
 * lookup, no extra round trip. A stale route ({@code STALE_ROUTE}, {@code NO_RANGE}) is learned from the answer
 * or looked up in the meta range, and the request routed again, invisibly and a bounded number of times.
 *
 * <p>Reads: a point read goes to its range; a multi-get groups its keys by range and asks several ranges in
 * parallel; scans visit the ranges in key order, lazily ({@link RangedScan}); counts add up per range. Writes:
 * a batch whose keys all lie in one range is one entry in that range's log, as on one group; one whose keys lie
 * in several is refused whole ({@link UnsupportedStoreOperationException}, nothing written), since cross-range
 * transactions are not built yet. The catalog's version precondition every SQL write carries is no key of the
 * batch for this purpose: every range checks it (against its catalog fence where it does not hold the catalog).
 * A snapshot reads one range ({@link RangedSnapshot}). The catalog, the users and the descriptors (the system
 * span) are always range 1's.
 */
public final class RangedStore implements KvStore, RaftGroupView, RangeView, ClusterUsers, RangeSplitter {

    /** Makes the leader finder of a range's group from the nodes known to host it. */
    public interface Finders {
        GroupCaller.LeaderFinder of(String group, Configuration peers);
    }

    /** One range's group: its store and the caller under it. */
    private record Range(GroupStore store, GroupCaller caller) {
    }

    /** Any key of the system span: it routes to range 1. */
    private static final byte[] SYSTEM_KEY = new byte[0];

    private final String name;
    private final Transport transport;
    private final Finders finders;
    private final List<PeerId> peers;
    private final long timeoutMs;
    private final ReadConsistency consistency;
    private final Runnable onClose;
    private final RouteCache routes = new RouteCache(ReplicaRange.IMPLICIT);
    private final Map<Long, Range> groups = new ConcurrentHashMap<>();
    private final Range meta;
    /** Reads of a multi-get's other ranges, beside the calling thread's own. */
    private final ExecutorService parallelReads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "kegdb-ranged-read");
        t.setDaemon(true);
        return t;
    });
    private volatile boolean closed;
    private volatile byte[] watchKey;
    /** Per thread: the watched key's value as the ranges read by that thread's latest call answered it. */
    private final ThreadLocal<GroupStore.Watched> lastWatched = new ThreadLocal<>();

    /**
     * @param name      the cluster's name: range 1's group, and the prefix of the others'
     * @param peers     the nodes given to reach the cluster (range 1's group; other ranges' nodes are read
     *                  from their descriptors)
     * @param timeoutMs how long one request to one group may take, retries included
     * @param onClose   run once when the store closes (the transport's shutdown)
     */
    public RangedStore(String name, List<PeerId> peers, Transport transport, Finders finders, long timeoutMs,
                       ReadConsistency consistency, Runnable onClose) {
        this.name = Objects.requireNonNull(name, "name");
        this.peers = List.copyOf(peers);
        this.transport = transport;
        this.finders = finders;
        this.timeoutMs = timeoutMs;
        this.consistency = consistency;
        this.onClose = onClose;
        this.meta = range(ReplicaRange.IMPLICIT);
    }

    // ---- routing ----

    /** The group of {@code d}'s range, made on first use, routing by {@code d} or by a newer route it holds. */
    private Range range(RangeDescriptor d) {
        Range r = groups.computeIfAbsent(d.id(), id -> open(d));
        r.caller().advanceRoute(d);
        return r;
    }

    private Range open(RangeDescriptor d) {
        checkOpen();
        String group = SplitCommand.groupOf(name, d.id());
        List<PeerId> known = d.id() == RangeDescriptor.META_RANGE_ID || d.replicas().isEmpty() ? peers
                : d.replicas().stream().map(PeerId::parsePeer).filter(Objects::nonNull).toList();
        Configuration conf = new Configuration(known);
        GroupCaller caller = GroupCaller.forRange(group, transport, finders.of(group, conf), timeoutMs, d);
        if (meta != null) {
            caller.loginOf(meta.caller());
        }
        GroupStore store = new GroupStore(group, caller, null, known, consistency, () -> { });
        byte[] watching = watchKey;
        if (watching != null) {
            store.watch(watching);
        }
        return new Range(store, caller);
    }

    private RouteRetry retry() {
        return new RouteRetry(timeoutMs);
    }

    /**
     * The range holding {@code key} (with {@code below}: holding the keys just below {@code key}, null meaning
     * the end of the key space), from the cache, else looked up in the meta range and cached.
     */
    private RangeDescriptor route(byte[] key, boolean below, RouteRetry retry) {
        while (true) {
            RangeDescriptor d = below ? routes.holdingBelow(key) : routes.holding(key);
            if (d != null) {
                return d;
            }
            // Keyed by end: the first descriptor key at or above this one belongs to the range sought.
            byte[] from = below ? MetaKeys.descriptorKey(key) : MetaKeys.lookupFrom(key);
            for (RangeDescriptor found : meta.caller().descriptors(from, 1)) {
                learn(found);
            }
            d = below ? routes.holdingBelow(key) : routes.holding(key);
            if (d != null) {
                return d;
            }
            // The meta range lags a split until the split's leader writes the new copies.
            retry.await("the meta range describes no newer range holding key "
                    + (key == null ? "end" : RangeDescriptor.printable(key)) + (below ? " (below)" : ""));
        }
    }

    private boolean learn(RangeDescriptor d) {
        if (!routes.learn(d)) {
            return false;
        }
        Range r = groups.get(d.id());
        if (r != null) {
            r.caller().advanceRoute(d);
        }
        return true;
    }

    /**
     * After a stale answer to a request routed by {@code used}: a newer descriptor of the same range is
     * learned (the request is then routed again at once); anything else forgets the routes found wrong, so that
     * the next routing reads the meta range.
     */
    private void stale(StaleRouteException e, RangeDescriptor used, RouteRetry retry) {
        RangeDescriptor answered = e.answered();
        boolean learned = !e.noRange() && answered != null && answered.id() == used.id() && !answered.equals(used)
                && learn(answered);
        if (!learned) {
            routes.forget(used);
            routes.forget(e.routed());
        }
        retry.stale(e, learned);
    }

    /** {@code op} on the group of the range holding {@code key}, routed again after a stale answer. */
    private <T> T atKey(byte[] key, Function<GroupStore, T> op) {
        checkOpen();
        RouteRetry retry = retry();
        while (true) {
            RangeDescriptor d = route(key, false, retry);
            Range r = range(d);
            try {
                return op.apply(r.store());
            } catch (StaleRouteException e) {
                stale(e, d, retry);
            }
        }
    }

    /** The ranges over {@code [from, to)} (null bounds open), in key order. */
    private List<RangeDescriptor> rangesOver(byte[] from, byte[] to, RouteRetry retry) {
        List<RangeDescriptor> out = new ArrayList<>();
        byte[] at = from == null ? SYSTEM_KEY : from;
        while (true) {
            RangeDescriptor d = route(at, false, retry);
            out.add(d);
            byte[] end = d.end();
            if (end == null || (to != null && Arrays.compareUnsigned(end, to) >= 0)) {
                return out;
            }
            at = end;
        }
    }

    // ---- reads ----

    @Override
    public byte[] get(byte[] key) {
        Objects.requireNonNull(key, "key");
        return atKey(key, s -> {
            byte[] value = s.get(key);
            noteWatched(s);
            return value;
        });
    }

    /**
     * The keys grouped by range: one range's keys are one multi-get of its group, as on one group; several
     * ranges are asked in parallel (the calling thread asks the first). A range answering stale has its keys
     * routed again.
     */
    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        Objects.requireNonNull(keys, "keys");
        MultiGetCodec.checkKeys(keys);
        checkOpen();
        byte[][] values = new byte[keys.size()][];
        List<Integer> pending = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            pending.add(i);
        }
        RouteRetry retry = retry();
        List<GroupStore.Watched> watched = new ArrayList<>();
        while (!pending.isEmpty()) {
            pending.sort(null); // in the caller's order: all of them are the caller's list itself
            Map<RangeDescriptor, List<Integer>> byRange = byRange(keys, pending, retry);
            List<Part> parts = new ArrayList<>(byRange.size());
            byRange.forEach((d, positions) -> parts.add(new Part(d, positions, keys)));
            runInParallel(parts);
            pending = new ArrayList<>();
            for (Part p : parts) {
                if (p.stale != null) {
                    stale(p.stale, p.range, retry);
                    pending.addAll(p.positions);
                    continue;
                }
                for (int i = 0; i < p.positions.size(); i++) {
                    values[p.positions.get(i)] = p.values.get(i);
                }
                if (p.watched != null) {
                    watched.add(p.watched);
                }
            }
        }
        noteWatched(watched);
        return Arrays.asList(values);
    }

    /** The positions of {@code keys} at {@code positions}, by the range holding each, in the ranges' key order. */
    private Map<RangeDescriptor, List<Integer>> byRange(List<byte[]> keys, List<Integer> positions, RouteRetry retry) {
        Map<RangeDescriptor, List<Integer>> byRange = new LinkedHashMap<>();
        RangeDescriptor last = null;
        for (int i : positions) {
            byte[] key = keys.get(i);
            RangeDescriptor d = last != null && last.contains(key) ? last : route(key, false, retry);
            byRange.computeIfAbsent(d, x -> new ArrayList<>()).add(i);
            last = d;
        }
        return byRange;
    }

    /** One range's share of a multi-get, and what its group answered. */
    private final class Part implements Runnable {
        final RangeDescriptor range;
        final List<Integer> positions;
        final List<byte[]> keys;
        List<byte[]> values;
        GroupStore.Watched watched;
        StaleRouteException stale;

        Part(RangeDescriptor range, List<Integer> positions, List<byte[]> all) {
            this.range = range;
            this.positions = positions;
            // positions ascend, so as many as there are keys are all of them in order
            this.keys = positions.size() == all.size() ? all : positions.stream().map(all::get).toList();
        }

        @Override
        public void run() {
            GroupStore store = range(range).store();
            try {
                values = store.getAll(keys);
                watched = watchKey == null ? null : store.watchedRead();
            } catch (StaleRouteException e) {
                stale = e;
            }
        }
    }

    /** Runs every part, the first on this thread and the others beside it, and waits for all. */
    private void runInParallel(List<Part> parts) {
        List<Future<?>> others = new ArrayList<>(parts.size() - 1);
        for (Part p : parts.subList(1, parts.size())) {
            others.add(parallelReads.submit(p));
        }
        RuntimeException failure = null;
        try {
            parts.get(0).run();
        } catch (RuntimeException e) {
            failure = e;
        }
        for (Future<?> f : others) {
            try {
                f.get();
            } catch (ExecutionException e) {
                if (failure == null) {
                    failure = e.getCause() instanceof RuntimeException r ? r
                            : new ReplicationException(ReplicationException.Kind.UNAVAILABLE, e.getCause().toString(),
                            e.getCause());
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                others.forEach(o -> o.cancel(true));
                throw new ReplicationException(ReplicationException.Kind.UNAVAILABLE, "interrupted in a multi-get", e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    @Override
    public KvIterator scan(byte[] fromInclusive, byte[] toExclusive) {
        checkOpen();
        return new RangedScan(scans, fromInclusive, toExclusive, false);
    }

    @Override
    public KvIterator scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        checkOpen();
        return new RangedScan(scans, fromInclusive, toExclusive, true);
    }

    /** Scans read each range on its group's store. */
    private final RangedScan.Ranges scans = new RangedScan.Ranges() {
        @Override
        public RangeDescriptor route(byte[] key, boolean below, RouteRetry retry) {
            return RangedStore.this.route(key, below, retry);
        }

        @Override
        public KvIterator open(RangeDescriptor range, byte[] from, byte[] to, boolean descending) {
            GroupStore store = range(range).store();
            return descending ? store.scanDescending(from, to) : store.scan(from, to);
        }

        @Override
        public void stale(StaleRouteException e, RangeDescriptor used, RouteRetry retry) {
            RangedStore.this.stale(e, used, retry);
        }

        @Override
        public void afterRead(RangeDescriptor range) {
            noteWatched(range(range).store());
        }

        @Override
        public RouteRetry retry() {
            return RangedStore.this.retry();
        }
    };

    /** Counted per range (each range's group counts its part of the span) and added up. */
    @Override
    public long countKeys(byte[] fromInclusive, byte[] toExclusive) {
        checkOpen();
        long total = 0;
        byte[] at = fromInclusive;
        RouteRetry retry = retry();
        while (true) {
            RangeDescriptor d = route(at == null ? SYSTEM_KEY : at, false, retry);
            byte[] end = d.end();
            boolean last = end == null || (toExclusive != null && Arrays.compareUnsigned(end, toExclusive) >= 0);
            byte[] partTo = last ? toExclusive : end;
            byte[] partFrom = at;
            try {
                total += range(d).store().countKeys(partFrom, partTo);
            } catch (StaleRouteException e) {
                stale(e, d, retry);
                continue;
            }
            if (last) {
                return total;
            }
            at = end;
        }
    }

    /**
     * A snapshot of one range (see {@link RangedSnapshot}): a cluster of one range takes it at once on range 1,
     * as one group does; otherwise on the range of its first read.
     */
    @Override
    public KvSnapshot snapshot() {
        checkOpen();
        List<RangeDescriptor> known = routes.all();
        RangeDescriptor whole = known.size() == 1 && known.get(0).start().length == 0 && known.get(0).end() == null
                ? known.get(0) : null;
        return new RangedSnapshot(snapshots, whole);
    }

    /** Snapshots open on a range's group, routed as everything else. */
    private final RangedSnapshot.Ranges snapshots = new RangedSnapshot.Ranges() {
        @Override
        public RangeDescriptor route(byte[] key) {
            return RangedStore.this.route(key, false, retry());
        }

        @Override
        public RangedSnapshot.Opened open(RangeDescriptor range) {
            RouteRetry retry = retry();
            RangeDescriptor d = range;
            while (true) {
                try {
                    return new RangedSnapshot.Opened(d, range(d).store().snapshot());
                } catch (StaleRouteException e) {
                    stale(e, d, retry);
                    d = RangedStore.this.route(d.start(), false, retry);
                }
            }
        }

        @Override
        public void afterRead(RangeDescriptor range) {
            noteWatched(range(range).store());
        }
    };

    // ---- the watched key ----

    @Override
    public void watch(byte[] key) {
        this.watchKey = key.clone();
        for (Range r : groups.values()) {
            r.store().watch(key);
        }
    }

    @Override
    public byte[] watched(byte[] key) {
        GroupStore.Watched w = lastWatched.get();
        return w != null && Arrays.equals(w.key(), key) ? w.value() : get(key);
    }

    /** Notes what {@code store} answered for the watched key with this thread's read just made. */
    private void noteWatched(GroupStore store) {
        if (watchKey != null) {
            lastWatched.set(store.watchedRead());
        }
    }

    /**
     * Notes the highest of the catalog versions several ranges answered for one call: the version only moves
     * forward, so the call's reads were all made at that version at most.
     */
    private void noteWatched(List<GroupStore.Watched> answers) {
        if (watchKey == null || answers.isEmpty()) {
            return;
        }
        GroupStore.Watched highest = answers.get(0);
        for (GroupStore.Watched w : answers) {
            if (CatalogFence.version(w.value()) > CatalogFence.version(highest.value())) {
                highest = w;
            }
        }
        lastWatched.set(highest);
    }

    @Override
    public boolean readsAreRoundTrips() {
        return true;
    }

    // ---- writes ----

    @Override
    public void put(byte[] key, byte[] value, Durability durability) {
        write(new WriteBatch().put(key, value), durability);
    }

    @Override
    public boolean delete(byte[] key, Durability durability) {
        Objects.requireNonNull(key, "key");
        return atKey(key, s -> s.delete(key, durability));
    }

    /**
     * One entry in the log of the range holding every key of the batch.
     *
     * @throws UnsupportedStoreOperationException if the batch's keys lie in several ranges; nothing is written
     */
    @Override
    public void write(WriteBatch batch, Durability durability) {
        Objects.requireNonNull(batch, "batch");
        checkOpen();
        if (batch.isEmpty() && !batch.hasExpectations()) {
            return;
        }
        RouteRetry retry = retry();
        while (true) {
            RangeDescriptor d = rangeOf(batch, retry);
            try {
                range(d).store().write(batch, durability);
                return;
            } catch (StaleRouteException e) {
                stale(e, d, retry);
            }
        }
    }

    /**
     * The one range holding every key and span of {@code batch} but its catalog precondition (which every range
     * checks); range 1 for a batch of that precondition alone.
     */
    private RangeDescriptor rangeOf(WriteBatch batch, RouteRetry retry) {
        Map<Long, RangeDescriptor> touched = new LinkedHashMap<>();
        RangeDescriptor[] last = {null};
        CatalogFence.named(batch).rest().replay(new WriteBatch.KeyHandler() {
            @Override
            protected void key(byte[] key) {
                if (last[0] == null || !last[0].contains(key)) {
                    last[0] = route(key, false, retry);
                    touched.putIfAbsent(last[0].id(), last[0]);
                }
            }

            @Override
            protected void span(byte[] fromInclusive, byte[] toExclusive) {
                for (RangeDescriptor d : rangesOver(fromInclusive, toExclusive, retry)) {
                    touched.putIfAbsent(d.id(), d);
                }
            }
        });
        if (touched.isEmpty()) {
            return route(SYSTEM_KEY, false, retry);
        }
        if (touched.size() > 1) {
            throw new UnsupportedStoreOperationException(UnsupportedStoreOperationException.WRITE_ACROSS_RANGES,
                    "a write whose keys lie in " + touched.size() + " ranges ("
                    + touched.values().stream().map(RangedStore::bounds).collect(Collectors.joining(", "))
                    + ") cannot be applied atomically yet (transactions across ranges are not built);"
                    + " nothing was written");
        }
        return touched.values().iterator().next();
    }

    /** A range as a message names it: its id and bounds. */
    static String bounds(RangeDescriptor d) {
        byte[] end = d.end();
        return "range " + d.id() + " [" + RangeDescriptor.printable(d.start()) + ", "
                + (end == null ? "end" : RangeDescriptor.printable(end)) + ")";
    }

    /** Acknowledged writes are committed on a majority of their range's logs already. */
    @Override
    public void flush() {
        checkOpen();
    }

    // ---- the cluster ----

    /** The counters of every range the meta range describes, added up (range 1's alone before it has any). */
    @Override
    public BitcaskStats stats() {
        checkOpen();
        List<RangeDescriptor> all = meta.caller().allDescriptors(null, false);
        if (all.isEmpty()) {
            return meta.store().stats();
        }
        long keys = 0;
        long segments = 0;
        long live = 0;
        long dead = 0;
        long merges = 0;
        long keydir = 0;
        for (RangeDescriptor d : all) {
            BitcaskStats s = range(d).store().stats();
            keys += s.keys();
            segments += s.segments();
            live += s.liveBytes();
            dead += s.deadBytes();
            merges += s.merges();
            keydir += s.keydirBytes();
        }
        return new BitcaskStats(keys, (int) Math.min(Integer.MAX_VALUE, segments), live, dead, merges, keydir,
                List.of());
    }

    /** The defaults, and {@code kegdb.raft.client.requests}: the round trips paid to every range's group. */
    @Override
    public List<Meter> meters() {
        List<Meter> all = new ArrayList<>(KvStore.super.meters());
        all.add(Meter.counter("kegdb.raft.client.requests", MeterUnit.NONE,
                "Requests this store sent to the cluster's nodes (every attempt; reads, writes, route lookups and"
                        + " status calls, to every range's group).", this::requestsSent));
        return List.copyOf(all);
    }

    /** Requests sent to every range's group so far (each attempt; route lookups included). */
    private long requestsSent() {
        long n = 0;
        for (Range r : groups.values()) {
            n += r.caller().requestsSent();
        }
        return n;
    }

    /** The members of range 1's group (the group {@code NAME}). */
    @Override
    public List<RaftStatus> members() {
        checkOpen();
        return meta.store().members();
    }

    /** A split by hand at store key {@code at}, asked of the group of the range holding it (its leader runs it). */
    @Override
    public RangeDescriptor split(byte[] at) {
        Objects.requireNonNull(at, "at");
        return atKey(at, s -> s.split(at));
    }

    /** Every range the meta range describes, each with the leader its own group names. */
    @Override
    public List<RangeStatus> ranges() {
        checkOpen();
        List<RangeStatus> rows = new ArrayList<>();
        for (RangeDescriptor d : meta.caller().allDescriptors(null, false)) {
            String leader;
            try {
                leader = range(d).store().leader();
            } catch (ReplicationException unreachable) {
                leader = null;
            }
            rows.add(RangeStatus.of(d, leader));
        }
        return rows;
    }

    /** Logs in at range 1; every range's group carries the same login. */
    @Override
    public void login(String user, String password) {
        checkOpen();
        meta.store().login(user, password);
        for (Range r : groups.values()) {
            if (r != meta) {
                r.caller().loginOf(meta.caller());
            }
        }
    }

    @Override
    public void manage(UserCommand command) {
        atKey(SYSTEM_KEY, s -> {
            s.manage(command);
            return null;
        });
    }

    @Override
    public List<UserInfo> users() {
        checkOpen();
        return meta.store().users();
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        parallelReads.shutdownNow();
        for (Range r : groups.values()) {
            r.store().close();
        }
        onClose.run();
    }

    private void checkOpen() {
        if (closed) {
            throw new StoreClosedException("the store of cluster " + name + " is closed");
        }
    }
}
