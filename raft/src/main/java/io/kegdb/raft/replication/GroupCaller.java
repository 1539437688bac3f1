package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.error.ConnectionFailureException;
import io.kegdb.engine.AccessDeniedException;
import io.kegdb.engine.KeyValue;
import io.kegdb.raft.range.MetaKeys;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.RefusedException;
import io.kegdb.raft.ReplicationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Sends requests to a Raft group and retries them across leader changes until they succeed or the timeout
 * passes. Writes go to the leader (found through a {@link LeaderFinder}, then through the hints nodes give
 * back). Every write carries this client's session and a serial number, the same in every resend, so the
 * state machine applies it at most once and answers a resend with the first application's result: any
 * write may be sent again, conditional or not. Each attempt waits at most the attempt timeout (about an
 * election timeout); then the cached leader is forgotten and the next attempt looks again, so a client
 * leaves a paused or cut-off leader about as fast as the group does. Every call ends within its timeout.
 */
public final class GroupCaller {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCaller.class);

    /** The default bound of one attempt: above an election timeout (600 ms by default), well under a request timeout. */
    public static final long DEFAULT_ATTEMPT_TIMEOUT_MS = 1000;

    /** Finds the current leader, or null if none is known yet. */
    public interface LeaderFinder {
        PeerId find(long timeoutMs) throws Exception;
    }

    private final String group;
    private final Transport transport;
    private final LeaderFinder finder;
    private final long timeoutMs;
    private final long attemptTimeoutMs;
    /** See {@link #forRange}: a stale route is handed back to the caller's owner instead of refreshed here. */
    private final boolean handsBackStaleRoutes;
    private final ClientSession session = new ClientSession();
    private final ReentrantLock opening = new ReentrantLock();
    private volatile PeerId leader;
    /** See {@link #route()}. */
    private volatile RangeDescriptor route = ReplicaRange.IMPLICIT;
    /** Refreshes of the route one call makes at most before it gives up (a route keeps changing under it). */
    static final int MAX_ROUTE_REFRESHES = 8;
    /** The credentials of the last successful {@link #login} (null: none), and the ticket it returned. */
    private volatile String user;
    private volatile String password;
    private volatile byte[] ticket;
    /** Requests sent to a node (each attempt of each call), for {@link #requestsSent()}. */
    private final LongAdder sent = new LongAdder();

    /**
     * @param timeoutMs        how long one call may take, retries included
     * @param attemptTimeoutMs how long one attempt at one node may take
     */
    public GroupCaller(String group, Transport transport, LeaderFinder finder, long timeoutMs, long attemptTimeoutMs) {
        this(group, transport, finder, timeoutMs, attemptTimeoutMs, false);
    }

    private GroupCaller(String group, Transport transport, LeaderFinder finder, long timeoutMs, long attemptTimeoutMs,
                        boolean handsBackStaleRoutes) {
        if (timeoutMs <= 0 || attemptTimeoutMs <= 0) {
            throw new IllegalArgumentException("timeouts must be positive, not " + timeoutMs + " and " + attemptTimeoutMs);
        }
        this.group = group;
        this.transport = transport;
        this.finder = finder;
        this.timeoutMs = timeoutMs;
        this.attemptTimeoutMs = Math.min(attemptTimeoutMs, timeoutMs);
        this.handsBackStaleRoutes = handsBackStaleRoutes;
    }

    /**
     * A caller of one range's group for a store over many ranges ({@link RangedStore}): it routes by
     * {@code route}, and a {@link KvResponse#STALE_ROUTE} or {@link KvResponse#NO_RANGE} answer fails the call
     * with a {@link StaleRouteException} (nothing was done: a write so answered was applied as a no-op), since
     * the keys may now belong to another range, which only the owner can route to.
     */
    static GroupCaller forRange(String group, Transport transport, LeaderFinder finder, long timeoutMs,
                                RangeDescriptor route) {
        GroupCaller caller = new GroupCaller(group, transport, finder, timeoutMs, DEFAULT_ATTEMPT_TIMEOUT_MS, true);
        caller.route = route;
        return caller;
    }

    public GroupCaller(String group, Transport transport, LeaderFinder finder, long timeoutMs) {
        this(group, transport, finder, timeoutMs, DEFAULT_ATTEMPT_TIMEOUT_MS);
    }

    /** Whether an attempt may have reached a leader that did not answer: the outcome is then unknown. */
    private static final class Progress {
        boolean maybeWritten;
    }

    /**
     * A write's answer, {@link KvResponse#OK}, {@link KvResponse#KEY_EXISTS} or {@link KvResponse#WRITE_CONFLICT}.
     * A write answered {@link KvResponse#STALE_ROUTE} was applied as a no-op (and any resend of it is answered
     * the same from the session table): it is sent again under a new serial once the route is refreshed.
     */
    KvResponse write(byte[] batch) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (int refreshes = 0; ; refreshes++) {
            RangeDescriptor routed = route;
            KvResponse r = writeOnce(batch, routed, deadline);
            if (r.status != KvResponse.STALE_ROUTE && r.status != KvResponse.NO_RANGE) {
                return r;
            }
            staleRoute(routed, r, refreshes, deadline);
        }
    }

    private KvResponse writeOnce(byte[] batch, RangeDescriptor routed, long deadline) {
        long serial = session.begin();
        try {
            SessionId id = openedSession(null, deadline);
            KvRequest request = KvRequest.write(group, batch, id, serial).routedBy(routed);
            Progress progress = new Progress();
            while (true) {
                KvResponse r = callAs(request, null, deadline, progress);
                if (r.status != KvResponse.SESSION_UNKNOWN) {
                    return r;
                }
                if (progress.maybeWritten) {
                    // Cannot happen while sessions outlive request timeouts by far; refuse to guess if it does.
                    throw new ReplicationException(ReplicationException.Kind.OUTCOME_UNKNOWN, "group " + group
                            + " forgot session " + id + " while an earlier attempt's outcome was unknown");
                }
                // The group forgot the session (idle for a long time): nothing of this write was applied.
                id = openedSession(id, deadline);
                request.in(id);
            }
        } finally {
            session.end(serial);
        }
    }

    /**
     * The session writes go in: the open one, or a new one opened now when there is none yet or the group
     * forgot {@code forgotten}.
     */
    private SessionId openedSession(SessionId forgotten, long deadline) {
        SessionId id = session.id();
        if (id != null && !id.equals(forgotten)) {
            return id;
        }
        try {
            if (!opening.tryLock(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                throw timeout(false, "opening a client session took too long");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReplicationException(ReplicationException.Kind.UNAVAILABLE,
                    "interrupted while opening a session with group " + group, e);
        }
        try {
            id = session.id();
            if (id == null || id.equals(forgotten)) {
                SessionId fresh = SessionId.random();
                // Opening is nothing but a write of no data: whether it happened or not, no data changed.
                callAs(KvRequest.openSession(group, fresh), null, deadline, new Progress());
                session.opened(fresh);
                id = fresh;
                LOG.debug("group {}: opened client session {}", group, fresh);
            }
            return id;
        } catch (ReplicationException e) {
            // An unknown outcome of the opening wrote no data; a refusal (TLS, authorization) stays what it is.
            throw e.kind() != ReplicationException.Kind.OUTCOME_UNKNOWN ? e
                    : new ReplicationException(ReplicationException.Kind.UNAVAILABLE, e.getMessage(), e);
        } finally {
            opening.unlock();
        }
    }

    /**
     * A read's answer from {@code target}, or from the leader when {@code target} is null; sent again, invisibly,
     * after a refresh of the route when the replica answers that the route is stale.
     */
    KvResponse read(KvRequest request, PeerId target) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (int refreshes = 0; ; refreshes++) {
            RangeDescriptor routed = route;
            KvResponse r = callAs(request.routedBy(routed), target, deadline, new Progress());
            if (r.status != KvResponse.STALE_ROUTE && r.status != KvResponse.NO_RANGE) {
                return r;
            }
            staleRoute(routed, r, refreshes, deadline);
        }
    }

    /**
     * The route this caller sends requests by: the descriptor of range 1, which holds every key until ranges
     * split (docs/SCALE.md). It starts as the descriptor every cluster begins with, so that no request waits for
     * a lookup, and is corrected by the first {@link KvResponse#STALE_ROUTE} or {@link KvResponse#NO_RANGE}.
     */
    RangeDescriptor route() {
        return route;
    }

    /** Routes by {@code descriptor} from now on (tests give a caller a stale route this way). */
    void route(RangeDescriptor descriptor) {
        this.route = descriptor;
    }

    /**
     * Routes by {@code descriptor} from now on if it is newer than the route held (a higher generation, or the
     * same with a higher replica version): routes only move forward, whichever thread learns one first.
     */
    void advanceRoute(RangeDescriptor descriptor) {
        if (!newer(descriptor, route)) {
            return; // every request of a settled route: no lock taken
        }
        synchronized (this) {
            if (newer(descriptor, route)) {
                route = descriptor;
            }
        }
    }

    private static boolean newer(RangeDescriptor a, RangeDescriptor b) {
        return a.generation() > b.generation()
                || (a.generation() == b.generation() && a.replicaVersion() > b.replicaVersion());
    }

    /** After a stale answer: hands it back (see {@link #forRange}), or refreshes this caller's own route. */
    private void staleRoute(RangeDescriptor routed, KvResponse answer, int refreshes, long deadline) {
        if (handsBackStaleRoutes) {
            throw new StaleRouteException(group, routed, answer.descriptor == null ? null
                    : RangeDescriptor.decode(answer.descriptor), answer.status == KvResponse.NO_RANGE, answer.message);
        }
        refresh(routed, answer, refreshes, deadline);
    }

    /**
     * A new route after {@code routed} was answered stale: the descriptor the replica answered with (every
     * replica of a group holds its one range's; a split's new range is its own group), else, when the answer
     * carries none, the meta range's (a lookup of the range holding the first key).
     */
    private void refresh(RangeDescriptor routed, KvResponse answer, int refreshes, long deadline) {
        if (refreshes >= MAX_ROUTE_REFRESHES) {
            throw new ReplicationException(ReplicationException.Kind.UNAVAILABLE, "group " + group + ": the route "
                    + routed + " was still stale after " + refreshes + " refreshes: " + answer);
        }
        RangeDescriptor fresh = null;
        if (answer.descriptor != null) {
            // A replica of this caller's group answers with the descriptor of the group's range: the route.
            fresh = RangeDescriptor.decode(answer.descriptor);
        }
        if (fresh == null) {
            fresh = lookUpRoute(deadline);
        }
        LOG.debug("group {}: route {} refreshed to {} ({})", group, routed, fresh, answer);
        route = fresh;
    }

    /**
     * The descriptor of the range holding the first key, from the meta range. The lookup names no range: the
     * meta range is range 1 of group {@code NAME} whatever its generation (the system span never splits), so
     * it cannot itself be answered stale. Before the meta range has a copy, the initial descriptor.
     */
    private RangeDescriptor lookUpRoute(long deadline) {
        List<RangeDescriptor> found = descriptors(MetaKeys.lookupFrom(new byte[0]), 1, null, false, deadline);
        return found.isEmpty() ? ReplicaRange.IMPLICIT : found.get(0);
    }

    /**
     * Up to {@code limit} descriptors stored in the meta range from meta key {@code from} on, in key order (by
     * their ranges' ends), read linearizably from this caller's group, which must be the meta range's. The
     * lookup names no range, so it is never answered stale (see {@link #lookUpRoute}).
     */
    List<RangeDescriptor> descriptors(byte[] from, int limit) {
        return descriptors(from, limit, null, false, System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs));
    }

    /**
     * Every descriptor stored in the meta range, in key order, a page at a time (see {@link #descriptors}), read
     * from {@code target} (null: the leader), at that node's own state when {@code local}.
     */
    List<RangeDescriptor> allDescriptors(PeerId target, boolean local) {
        List<RangeDescriptor> all = new ArrayList<>();
        byte[] from = MetaKeys.descriptorKey(new byte[0]);
        while (true) {
            List<RangeDescriptor> page = descriptors(from, GroupStore.PAGE_SIZE, target, local,
                    System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs));
            all.addAll(page);
            if (page.size() < GroupStore.PAGE_SIZE) {
                return all;
            }
            byte[] last = page.get(page.size() - 1).metaKey();
            from = java.util.Arrays.copyOf(last, last.length + 1); // the least key after the last one
        }
    }

    private List<RangeDescriptor> descriptors(byte[] from, int limit, PeerId target, boolean local, long deadline) {
        KvRequest lookup = KvRequest.scan(group, from, MetaKeys.descriptorsEnd(), limit, false, local);
        KvResponse r = callAs(lookup, target, deadline, new Progress());
        if (r.status != KvResponse.OK) {
            throw new ReplicationException(ReplicationException.Kind.UNAVAILABLE, "group " + group
                    + " answered a lookup in the meta range with " + r);
        }
        List<KeyValue> found = PageCodec.decode(r.page);
        List<RangeDescriptor> out = new ArrayList<>(found.size());
        for (KeyValue kv : found) {
            out.add(RangeDescriptor.decode(kv.value()));
        }
        return out;
    }

    /**
     * Logs in at the leader; later requests carry the ticket it returns (null from a cluster without users).
     *
     * @throws ReplicationException of kind NOT_AUTHORIZED when the login fails
     */
    void login(String user, String password) {
        KvResponse r = call(KvRequest.login(group, user, password), null,
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs), new Progress());
        if (r.status != KvResponse.OK) {
            throw new ReplicationException(ReplicationException.Kind.NOT_AUTHORIZED, r.message);
        }
        loggedInAs(user, password, r.value);
    }

    /**
     * Carries {@code other}'s login from now on (its credentials and ticket, which any node of the cluster
     * checks with the cluster's secret): the callers of one store's ranges log in once.
     */
    void loginOf(GroupCaller other) {
        if (other.password != null || other.ticket != null) {
            loggedInAs(other.user, other.password, other.ticket);
        }
    }

    private void loggedInAs(String user, String password, byte[] ticket) {
        this.user = user;
        this.password = password;
        this.ticket = ticket;
    }

    /** A split of the group's range at {@code at}, run by its leader: the new range's stored descriptor, or null. */
    byte[] split(byte[] at) {
        KvResponse r = callAs(KvRequest.split(group, at), null,
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs), new Progress());
        if (r.status != KvResponse.OK) {
            throw new ReplicationException(ReplicationException.Kind.UNAVAILABLE, "group " + group
                    + " answered a split with " + r);
        }
        return r.descriptor;
    }

    /** A user command: a write whose batch the leader makes (a password is hashed there). */
    KvResponse userCommand(byte[] command) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        for (int refreshes = 0; ; refreshes++) {
            RangeDescriptor routed = route;
            long serial = session.begin();
            KvResponse r;
            try {
                SessionId id = openedSession(null, deadline);
                r = callAs(KvRequest.userCommand(group, command, id, serial).routedBy(routed), null, deadline,
                        new Progress());
            } finally {
                session.end(serial);
            }
            if (r.status != KvResponse.STALE_ROUTE && r.status != KvResponse.NO_RANGE) {
                return r;
            }
            staleRoute(routed, r, refreshes, deadline);
        }
    }

    /**
     * {@link #call} as the logged-in user: a request refused for want of a (valid) ticket is sent again once
     * after a new login with the same credentials (a ticket expires, a node restarted with users made
     * meanwhile); a refusal becomes its exception.
     */
    private KvResponse callAs(KvRequest request, PeerId target, long deadline, Progress progress) {
        KvResponse r = call(request, target, deadline, progress);
        if (r.status == KvResponse.LOGIN_REQUIRED && password != null) {
            KvResponse login = call(KvRequest.login(group, user, password), null, deadline, new Progress());
            if (login.status == KvResponse.OK) {
                ticket = login.value;
                r = call(request, target, deadline, progress);
            }
        }
        switch (r.status) {
            case KvResponse.LOGIN_REQUIRED, KvResponse.LOGIN_FAILED ->
                    throw new ReplicationException(ReplicationException.Kind.NOT_AUTHORIZED, r.message);
            case KvResponse.REFUSED -> throw "42501".equals(r.sqlState) ? new AccessDeniedException(r.message)
                    : new RefusedException(r.sqlState, r.message);
            default -> {
                return r;
            }
        }
    }

    private KvResponse call(KvRequest request, PeerId fixedTarget, long deadline, Progress progress) {
        String lastFailure = "no leader known";
        for (int attempt = 0; ; attempt++) {
            long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (remaining <= 0) {
                throw timeout(progress.maybeWritten, lastFailure);
            }
            long attemptMs = Math.min(remaining, attemptTimeoutMs);
            PeerId target = fixedTarget;
            try {
                if (target == null) {
                    target = leader != null ? leader : finder.find(attemptMs);
                    leader = target;
                }
                if (target != null) {
                    if (request.op == KvRequest.WRITE || request.op == KvRequest.USER_COMMAND) {
                        request.floor = session.floor();
                    }
                    request.ticket = ticket;
                    sent.increment();
                    KvResponse response = transport.send(target, request, attemptMs);
                    switch (response.status) {
                        case KvResponse.OK, KvResponse.KEY_EXISTS, KvResponse.WRITE_CONFLICT, KvResponse.SNAPSHOT_GONE,
                             KvResponse.SESSION_UNKNOWN, KvResponse.LOGIN_REQUIRED, KvResponse.LOGIN_FAILED,
                             KvResponse.REFUSED, KvResponse.STALE_ROUTE, KvResponse.NO_RANGE -> {
                            return response;
                        }
                        case KvResponse.OUTCOME_UNKNOWN -> progress.maybeWritten = true;
                        case KvResponse.REQUEST_DISCARDED -> throw new ReplicationException(
                                ReplicationException.Kind.OUTCOME_UNKNOWN, "group " + group
                                + " discarded a resend of a write whose first attempt's outcome is unknown");
                        case KvResponse.FAILED -> throw new ReplicationException(progress.maybeWritten
                                ? ReplicationException.Kind.OUTCOME_UNKNOWN : ReplicationException.Kind.UNAVAILABLE,
                                "group " + group + " at " + target + ": " + response.message);
                        default -> {
                        }
                    }
                    lastFailure = target + " answered " + response;
                    if (fixedTarget == null) {
                        leader = response.leader == null ? null : parse(response.leader, target);
                        if (leader != null && !leader.equals(target)) {
                            continue; // a hint to a different node: try it at once
                        }
                        leader = null;
                    }
                }
            } catch (ReplicationException e) {
                throw e;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new ReplicationException(ReplicationException.Kind.UNAVAILABLE,
                        "interrupted while calling group " + group, e);
            } catch (Exception e) {
                // Down, paused, cut off or too slow: forget it, the next attempt looks for the leader again.
                lastFailure = (target == null ? "leader lookup" : target.toString()) + ": " + e;
                if (fixedTarget == null) {
                    leader = null;
                }
                if (request.isWrite() && target != null && !(e instanceof ConnectionFailureException)) {
                    progress.maybeWritten = true;
                }
                LOG.debug("group {}: attempt {} failed: {}", group, attempt, lastFailure);
            }
            pause(attempt, deadline);
        }
    }

    private ReplicationException timeout(boolean maybeWritten, String lastFailure) {
        return new ReplicationException(maybeWritten ? ReplicationException.Kind.OUTCOME_UNKNOWN
                : ReplicationException.Kind.UNAVAILABLE, "group " + group + " did not answer within "
                + timeoutMs + " ms" + (maybeWritten ? " (an earlier attempt may have been applied, once at most)" : "")
                + ": " + lastFailure);
    }

    /** One attempt at {@code target}, no retry. */
    KvResponse sendOnce(PeerId target, KvRequest request, long timeoutMs) throws Exception {
        request.ticket = ticket;
        sent.increment();
        return transport.send(target, request, timeoutMs);
    }

    /**
     * How many requests this caller has sent to nodes: every attempt of every read, write and status call,
     * resends included (the round trips its store paid); the leader lookups of a {@link LeaderFinder} not.
     */
    public long requestsSent() {
        return sent.sum();
    }

    private static PeerId parse(String text, PeerId fallback) {
        PeerId p = new PeerId();
        return p.parse(text) ? p : fallback;
    }

    private static void pause(int attempt, long deadline) {
        long ms = Math.min(10L << Math.min(attempt, 4), 100);
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        try {
            Thread.sleep(Math.max(0, Math.min(ms, left)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReplicationException(ReplicationException.Kind.UNAVAILABLE, "interrupted while waiting for a leader", e);
        }
    }
}
