package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.error.ConnectionFailureException;
import io.kegdb.raft.ReplicationException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The retry rules, against scripted node answers. */
class GroupCallerTest {

    private static final PeerId A = PeerId.parsePeer("127.0.0.1:1");
    private static final PeerId B = PeerId.parsePeer("127.0.0.1:2");

    /** Answers from a script, one step per call, recording where each call went. */
    private static final class Script implements Transport {
        final List<Object> steps;
        final List<PeerId> targets = new ArrayList<>();

        Script(Object... steps) {
            this.steps = new ArrayList<>(List.of(steps));
        }

        @Override
        public KvResponse send(PeerId target, KvRequest request, long timeoutMs) throws Exception {
            targets.add(target);
            Object step = steps.remove(0);
            if (step instanceof Exception e) {
                throw e;
            }
            return (KvResponse) step;
        }
    }

    private static KvResponse notLeader(PeerId hint) {
        KvResponse r = KvResponse.of(KvResponse.NOT_LEADER, "not leader");
        r.leader = hint.toString();
        return r;
    }

    @Test
    void aWriteFollowsTheLeaderHint() {
        Script s = new Script(notLeader(B), KvResponse.ok());
        GroupCaller caller = new GroupCaller("g", s, t -> A, 5000);
        assertEquals(KvResponse.OK, caller.write(new byte[]{1}, false).status);
        assertEquals(List.of(A, B), s.targets);
    }

    @Test
    void aLostAnswerIsRetriedOnlyForRepeatableWrites() {
        Script repeatable = new Script(new IllegalStateException("connection reset"), KvResponse.ok());
        assertEquals(KvResponse.OK, new GroupCaller("g", repeatable, t -> A, 5000).write(new byte[]{1}, true).status);

        Script conditional = new Script(new IllegalStateException("connection reset"), KvResponse.ok());
        ReplicationException e = assertThrows(ReplicationException.class,
                () -> new GroupCaller("g", conditional, t -> A, 5000).write(new byte[]{1}, false));
        assertEquals(ReplicationException.Kind.OUTCOME_UNKNOWN, e.kind());
        assertEquals("08007", e.kind().sqlState());

        KvResponse unknown = KvResponse.of(KvResponse.OUTCOME_UNKNOWN, "leader stepped down");
        assertEquals(ReplicationException.Kind.OUTCOME_UNKNOWN, assertThrows(ReplicationException.class,
                () -> new GroupCaller("g", new Script(unknown), t -> A, 5000).write(new byte[]{1}, false)).kind());
    }

    @Test
    void aRequestThatNeverLeftIsRetriedEvenWhenConditional() {
        Script s = new Script(new ConnectionFailureException("refused"), KvResponse.ok());
        assertEquals(KvResponse.OK, new GroupCaller("g", s, t -> A, 5000).write(new byte[]{1}, false).status);
    }

    /** {@code first}, then refused connections for as long as the caller keeps trying. */
    private static Script refusedAfter(Object first) {
        List<Object> steps = new ArrayList<>(List.of(first));
        for (int i = 0; i < 1000; i++) {
            steps.add(new ConnectionFailureException("refused"));
        }
        return new Script(steps.toArray());
    }

    @Test
    void aRepeatableWriteThatMayHaveBeenAppliedNeverEndsAsNotWritten() {
        KvResponse unknown = KvResponse.of(KvResponse.OUTCOME_UNKNOWN, "leader stepped down");
        for (Object first : List.of(unknown, new IllegalStateException("connection reset"))) {
            ReplicationException e = assertThrows(ReplicationException.class,
                    () -> new GroupCaller("g", refusedAfter(first), t -> A, 300).write(new byte[]{1}, true));
            assertEquals(ReplicationException.Kind.OUTCOME_UNKNOWN, e.kind(), e.getMessage());
        }
        // never sent anywhere: nothing was written
        ReplicationException e = assertThrows(ReplicationException.class, () -> new GroupCaller("g",
                refusedAfter(new ConnectionFailureException("refused")), t -> A, 300).write(new byte[]{1}, true));
        assertEquals(ReplicationException.Kind.UNAVAILABLE, e.kind(), e.getMessage());
    }

    @Test
    void noLeaderEndsUnavailableWithinTheTimeout() {
        long start = System.nanoTime();
        ReplicationException e = assertThrows(ReplicationException.class,
                () -> new GroupCaller("g", new Script(), t -> null, 300).write(new byte[]{1}, true));
        assertEquals(ReplicationException.Kind.UNAVAILABLE, e.kind());
        assertEquals("08006", e.kind().sqlState());
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "bounded by the timeout");
    }
}
