package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.error.ConnectionFailureException;
import io.kegdb.engine.KeyValue;
import io.kegdb.raft.ReplicationException;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.RouteCheck;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The retry rules, against scripted node answers. */
class GroupCallerTest {

    private static final PeerId A = PeerId.parsePeer("127.0.0.1:1");
    private static final PeerId B = PeerId.parsePeer("127.0.0.1:2");
    /** A script step: the node takes the whole attempt's time and never answers. */
    private static final Object HANG = new Object();

    /** What one call carried, copied when it was sent (the caller reuses its request object). */
    private record Sent(PeerId target, byte op, SessionId session, long serial, long floor, long timeoutMs,
                        long rangeId, long generation) {
    }

    /** Answers from a script, one step per call, recording where each call went. */
    private static final class Script implements Transport {
        final List<Object> steps;
        final List<Sent> sent = new ArrayList<>();

        Script(Object... steps) {
            this.steps = new ArrayList<>(List.of(steps));
        }

        @Override
        public KvResponse send(PeerId target, KvRequest request, long timeoutMs) throws Exception {
            sent.add(new Sent(target, request.op, request.session(), request.serial, request.floor, timeoutMs,
                    request.rangeId, request.generation));
            Object step = steps.remove(0);
            if (step == HANG) {
                Thread.sleep(timeoutMs);
                throw new TimeoutException("no answer within " + timeoutMs + " ms");
            }
            if (step instanceof Exception e) {
                throw e;
            }
            return (KvResponse) step;
        }

        List<PeerId> targets() {
            return sent.stream().map(Sent::target).toList();
        }

        List<Sent> writes() {
            return sent.stream().filter(s -> s.op() == KvRequest.WRITE).toList();
        }
    }

    private static KvResponse notLeader(PeerId hint) {
        KvResponse r = KvResponse.of(KvResponse.NOT_LEADER, "not leader");
        r.leader = hint.toString();
        return r;
    }

    private static KvResponse ok() {
        return KvResponse.ok();
    }

    @Test
    void theFirstWriteOpensASessionAndEveryWriteCarriesItWithItsOwnSerial() {
        Script s = new Script(ok(), ok(), ok());
        GroupCaller caller = new GroupCaller("g", s, t -> A, 5000);
        caller.write(new byte[]{1});
        caller.write(new byte[]{2});
        assertEquals(KvRequest.OPEN_SESSION, s.sent.get(0).op());
        List<Sent> writes = s.writes();
        assertEquals(s.sent.get(0).session(), writes.get(0).session());
        assertEquals(writes.get(0).session(), writes.get(1).session());
        assertEquals(List.of(1L, 2L), writes.stream().map(Sent::serial).toList());
        assertEquals(List.of(1L, 2L), writes.stream().map(Sent::floor).toList(), "nothing else in progress");
    }

    private static KvResponse staleRoute(RangeDescriptor current) {
        KvResponse r = KvResponse.of(KvResponse.STALE_ROUTE, "stale");
        r.descriptor = current == null ? null : current.encode();
        return r;
    }

    private static KvResponse metaPage(RangeDescriptor d) {
        KvResponse r = ok();
        r.page = PageCodec.encode(List.of(new KeyValue(d.metaKey(), d.encode())));
        return r;
    }

    @Test
    void aStaleRouteIsRefreshedFromTheAnswerAndTheWriteResentUnderANewSerial() {
        RangeDescriptor gen4 = new RangeDescriptor(1, new byte[0], null, 4, 2, List.of("127.0.0.1:1"));
        Script s = new Script(ok(), staleRoute(gen4), ok());
        GroupCaller caller = new GroupCaller("g", s, t -> A, 5000);
        assertEquals(RangeDescriptor.initial(List.of()), caller.route(), "every cluster begins as range 1 generation 1");
        assertEquals(KvResponse.OK, caller.write(new byte[]{1}).status);
        List<Sent> writes = s.writes();
        assertEquals(List.of(1L, 4L), writes.stream().map(Sent::generation).toList());
        assertEquals(List.of(1L, 1L), writes.stream().map(Sent::rangeId).toList());
        assertEquals(List.of(1L, 2L), writes.stream().map(Sent::serial).toList(),
                "the stale request is remembered as answered: the resend is a new request");
        assertEquals(gen4, caller.route());
    }

    @Test
    void noRangeOrAnAnswerWithoutADescriptorLooksTheRouteUpInTheMetaRange() {
        RangeDescriptor gen2 = new RangeDescriptor(1, new byte[0], null, 2, 1, List.of());
        KvResponse noRange = KvResponse.of(KvResponse.NO_RANGE, "no range 9");
        Script s = new Script(noRange, metaPage(gen2), ok(), staleRoute(null), metaPage(gen2), ok());
        GroupCaller caller = new GroupCaller("g", s, t -> A, 5000);
        caller.route(new RangeDescriptor(9, new byte[0], null, 1, 1, List.of()));
        assertEquals(KvResponse.OK, caller.read(KvRequest.get("g", new byte[]{1}, false), null).status);
        assertEquals(KvRequest.SCAN, s.sent.get(1).op(), "the lookup");
        assertEquals(RouteCheck.UNNAMED, s.sent.get(1).rangeId(), "names no range");
        assertEquals(1L, s.sent.get(2).rangeId());
        assertEquals(2L, s.sent.get(2).generation());
        caller.route(RangeDescriptor.initial(List.of()));
        assertEquals(KvResponse.OK, caller.read(KvRequest.get("g", new byte[]{1}, false), null).status);
        assertEquals(gen2, caller.route());
    }

    @Test
    void aRouteThatStaysStaleFailsTheCallAfterBoundedRefreshes() {
        RangeDescriptor initial = RangeDescriptor.initial(List.of());
        Object[] steps = new Object[GroupCaller.MAX_ROUTE_REFRESHES + 1];
        Arrays.fill(steps, staleRoute(initial));
        Script s = new Script(steps);
        ReplicationException e = assertThrows(ReplicationException.class,
                () -> new GroupCaller("g", s, t -> A, 5000).read(KvRequest.get("g", new byte[]{1}, false), null));
        assertEquals(ReplicationException.Kind.UNAVAILABLE, e.kind());
        assertEquals(GroupCaller.MAX_ROUTE_REFRESHES + 1, s.sent.size());
    }

    @Test
    void aWriteFollowsTheLeaderHint() {
        Script s = new Script(ok(), notLeader(B), ok());
        GroupCaller caller = new GroupCaller("g", s, t -> A, 5000);
        assertEquals(KvResponse.OK, caller.write(new byte[]{1}).status);
        assertEquals(List.of(A, A, B), s.targets());
    }

    @Test
    void aLostAnswerIsResentWithTheSameSerialForEveryKindOfWrite() {
        for (Object lost : List.of(new IllegalStateException("connection reset"),
                KvResponse.of(KvResponse.OUTCOME_UNKNOWN, "leader stepped down"))) {
            Script s = new Script(ok(), lost, ok());
            assertEquals(KvResponse.OK, new GroupCaller("g", s, t -> A, 5000).write(new byte[]{1}).status);
            List<Sent> writes = s.writes();
            assertEquals(2, writes.size());
            assertEquals(writes.get(0).serial(), writes.get(1).serial());
            assertEquals(writes.get(0).session(), writes.get(1).session());
        }
    }

    @Test
    void anAttemptIsBoundedAndTheCachedLeaderForgottenSoTheNextNodeIsTried() {
        Script s = new Script(ok(), HANG, ok());
        AtomicInteger lookups = new AtomicInteger();
        GroupCaller caller = new GroupCaller("g", s, t -> lookups.getAndIncrement() == 0 ? A : B, 20_000, 200);
        assertEquals(KvResponse.OK, caller.write(new byte[]{1}).status);
        assertEquals(List.of(A, A, B), s.targets());
        assertEquals(200, s.sent.get(1).timeoutMs(), "one attempt waits the attempt timeout, not the whole call's");
    }

    @Test
    void aForgottenSessionIsReplacedWhenNothingOfTheWriteCanHaveBeenApplied() {
        Script s = new Script(ok(), KvResponse.of(KvResponse.SESSION_UNKNOWN, null), ok(), ok());
        assertEquals(KvResponse.OK, new GroupCaller("g", s, t -> A, 5000).write(new byte[]{1}).status);
        assertEquals(KvRequest.OPEN_SESSION, s.sent.get(2).op());
        List<Sent> writes = s.writes();
        assertNotEquals(writes.get(0).session(), writes.get(1).session());
        assertEquals(s.sent.get(2).session(), writes.get(1).session());

        Script afterLoss = new Script(ok(), new IllegalStateException("connection reset"),
                KvResponse.of(KvResponse.SESSION_UNKNOWN, null));
        assertEquals(ReplicationException.Kind.OUTCOME_UNKNOWN, assertThrows(ReplicationException.class,
                () -> new GroupCaller("g", afterLoss, t -> A, 5000).write(new byte[]{1})).kind());
    }

    @Test
    void aRequestThatNeverLeftIsRetried() {
        Script s = new Script(ok(), new ConnectionFailureException("refused"), ok());
        assertEquals(KvResponse.OK, new GroupCaller("g", s, t -> A, 5000).write(new byte[]{1}).status);
    }

    /** {@code first}, then refused connections for as long as the caller keeps trying. */
    private static Script refusedAfter(Object... first) {
        List<Object> steps = new ArrayList<>(List.of(first));
        for (int i = 0; i < 1000; i++) {
            steps.add(new ConnectionFailureException("refused"));
        }
        return new Script(steps.toArray());
    }

    @Test
    void aWriteThatMayHaveBeenAppliedNeverEndsAsNotWritten() {
        KvResponse unknown = KvResponse.of(KvResponse.OUTCOME_UNKNOWN, "leader stepped down");
        for (Object first : List.of(unknown, new IllegalStateException("connection reset"))) {
            ReplicationException e = assertThrows(ReplicationException.class,
                    () -> new GroupCaller("g", refusedAfter(ok(), first), t -> A, 300).write(new byte[]{1}));
            assertEquals(ReplicationException.Kind.OUTCOME_UNKNOWN, e.kind(), e.getMessage());
            assertEquals("08007", e.kind().sqlState());
        }
        // never sent anywhere: nothing was written
        ReplicationException e = assertThrows(ReplicationException.class, () -> new GroupCaller("g",
                refusedAfter(ok(), new ConnectionFailureException("refused")), t -> A, 300).write(new byte[]{1}));
        assertEquals(ReplicationException.Kind.UNAVAILABLE, e.kind(), e.getMessage());
    }

    @Test
    void noLeaderEndsUnavailableWithinTheTimeout() {
        long start = System.nanoTime();
        ReplicationException e = assertThrows(ReplicationException.class,
                () -> new GroupCaller("g", new Script(), t -> null, 300).write(new byte[]{1}));
        assertEquals(ReplicationException.Kind.UNAVAILABLE, e.kind());
        assertEquals("08006", e.kind().sqlState());
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "bounded by the timeout");
    }
}
