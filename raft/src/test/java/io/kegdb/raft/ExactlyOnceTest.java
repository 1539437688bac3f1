package io.kegdb.raft;

import com.alipay.sofa.jraft.entity.PeerId;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyExistsException;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import io.kegdb.engine.WriteConflictException;
import io.kegdb.raft.replication.KvRequest;
import io.kegdb.raft.replication.KvResponse;
import io.kegdb.raft.replication.Transport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.kegdb.raft.TestBytes.b;
import static io.kegdb.raft.TestBytes.s;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A write whose first attempt commits but whose answer never reaches the client (the connection drops, the
 * leader is killed between commit and reply) is sent again; it must take effect once and its caller must get
 * the first attempt's result, whatever kind of write it is.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExactlyOnceTest {

    @TempDir
    Path dir;

    private TestCluster cluster;
    private LosingTransport transport;
    private KvStore client;
    private KvStore other;

    /** A client transport that, once armed, lets the next write reach its node, runs a step, then loses the answer. */
    static final class LosingTransport implements Transport {
        private final Transport real;
        private volatile Runnable armed;
        final AtomicInteger answersLost = new AtomicInteger();

        LosingTransport(Transport real) {
            this.real = real;
        }

        /** The next write is delivered and answered, then {@code between} runs, then the answer is lost. */
        void loseNextWriteAnswer(Runnable between) {
            armed = between;
        }

        @Override
        public KvResponse send(PeerId target, KvRequest request, long timeoutMs) throws Exception {
            KvResponse answer = real.send(target, request, timeoutMs);
            Runnable step = armed;
            if (request.isWrite() && step != null) {
                armed = null;
                step.run();
                answersLost.incrementAndGet();
                throw new IOException("connection reset (the answer of " + target + " was lost)");
            }
            return answer;
        }
    }

    @BeforeEach
    void start() throws Exception {
        cluster = new TestCluster(dir, 3);
        cluster.startAll();
        cluster.awaitLeader();
        client = RaftGroupClient.connect(TestCluster.GROUP, cluster.peers(), Duration.ofSeconds(20),
                ReadConsistency.LINEARIZABLE, null, real -> transport = new LosingTransport(real));
        other = RaftGroupClient.connect(TestCluster.GROUP, cluster.peers(), Duration.ofSeconds(20));
        client.put(b("warm-up"), b("1"), Durability.SYNC);
    }

    @AfterEach
    void stop() {
        for (AutoCloseable c : new AutoCloseable[]{client, other, cluster}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // the next one still closes
            }
        }
    }

    @Test
    void aBlindPutWhoseAnswerWasLostIsNotAppliedAgainAfterAnotherClientsWrite() {
        transport.loseNextWriteAnswer(() -> {
            other.put(b("k"), b("b"), Durability.SYNC);
            assertEquals("b", s(other.get(b("k"))));
        });
        client.put(b("k"), b("a"), Durability.SYNC);
        assertEquals(1, transport.answersLost.get());
        // "a" took effect before "b" (a read saw b after it): a second application would bring "a" back
        assertEquals("b", s(client.get(b("k"))));
        assertTrue(duplicatesAnswered() >= 1, "the resend was answered as a duplicate");
    }

    /** Requests the running nodes' state machines answered from their session tables. */
    private long duplicatesAnswered() {
        return cluster.nodes.stream().filter(n -> n != null).mapToLong(n -> n.stateMachine().duplicatesAnswered()).sum();
    }

    @Test
    void aPutWhoseLeaderWasKilledBetweenCommitAndReplyIsAppliedOnce() {
        transport.loseNextWriteAnswer(() -> {
            try {
                int leader = cluster.awaitLeader();
                cluster.stop(leader);
                cluster.awaitLeader();
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            other.put(b("k"), b("b"), Durability.SYNC);
        });
        client.put(b("k"), b("a"), Durability.SYNC);
        assertEquals(1, transport.answersLost.get());
        assertEquals("b", s(client.get(b("k"))));
        assertEquals("b", s(other.get(b("k"))));
        assertTrue(duplicatesAnswered() >= 1, "the resend was answered as a duplicate");
    }

    @Test
    void aDeleteWhoseAnswerWasLostReportsThatTheKeyExisted() {
        client.put(b("k"), b("v"), Durability.SYNC);
        transport.loseNextWriteAnswer(() -> { });
        assertTrue(client.delete(b("k"), Durability.SYNC), "the first attempt deleted an existing key");
        assertNull(client.get(b("k")));
    }

    @Test
    void anInsertWhoseAnswerWasLostSucceedsAndIsNotReportedAsADuplicate() {
        transport.loseNextWriteAnswer(() -> { });
        client.write(new WriteBatch().putIfAbsent(b("id"), b("first")), Durability.SYNC);
        assertEquals("first", s(client.get(b("id"))));
        // a new insert of the same key is still a duplicate
        assertThrows(KeyExistsException.class,
                () -> client.write(new WriteBatch().putIfAbsent(b("id"), b("second")), Durability.SYNC));
        assertEquals("first", s(client.get(b("id"))));
    }

    @Test
    void aTransactionWhoseAnswerWasLostCommitsOnceWithItsPreconditions() {
        client.put(b("balance"), b("10"), Durability.SYNC);
        transport.loseNextWriteAnswer(() -> other.put(b("audit"), b("seen"), Durability.SYNC));
        client.write(new WriteBatch().expect(b("balance"), b("10")).put(b("balance"), b("7")).put(b("log"), b("-3")),
                Durability.SYNC);
        assertEquals("7", s(client.get(b("balance"))));
        assertEquals("-3", s(client.get(b("log"))));

        // a conflict is remembered too: the resend answers it, it does not apply a second time
        transport.loseNextWriteAnswer(() -> { });
        assertThrows(WriteConflictException.class, () -> client.write(
                new WriteBatch().expect(b("balance"), b("10")).put(b("balance"), b("0")), Durability.SYNC));
        assertEquals("7", s(client.get(b("balance"))));
    }
}
