package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.error.ConnectionFailureException;
import io.kegdb.raft.ReplicationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * Sends requests to a Raft group and retries them across leader changes until they succeed or the timeout
 * passes. Writes go to the leader (found through a {@link LeaderFinder}, then through the hints nodes give
 * back); a write whose outcome became unknown is sent again only when it is repeatable (no put-if-absent),
 * otherwise the caller learns that the outcome is unknown. Every call ends within its timeout.
 */
public final class GroupCaller {

    private static final Logger LOG = LoggerFactory.getLogger(GroupCaller.class);

    /** Finds the current leader, or null if none is known yet. */
    public interface LeaderFinder {
        PeerId find(long timeoutMs) throws Exception;
    }

    private final String group;
    private final Transport transport;
    private final LeaderFinder finder;
    private final long timeoutMs;
    private volatile PeerId leader;

    public GroupCaller(String group, Transport transport, LeaderFinder finder, long timeoutMs) {
        this.group = group;
        this.transport = transport;
        this.finder = finder;
        this.timeoutMs = timeoutMs;
    }

    /** A write's answer, {@link KvResponse#OK}, {@link KvResponse#KEY_EXISTS} or {@link KvResponse#WRITE_CONFLICT}. */
    KvResponse write(byte[] batch, boolean repeatable) {
        return call(KvRequest.write(group, batch), null, repeatable);
    }

    /** A read's answer from {@code target}, or from the leader when {@code target} is null. */
    KvResponse read(KvRequest request, PeerId target) {
        return call(request, target, true);
    }

    private KvResponse call(KvRequest request, PeerId fixedTarget, boolean repeatable) {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        String lastFailure = "no leader known";
        // Set once a write may have reached a leader without an answer: a timeout after that cannot say
        // "nothing was written".
        boolean maybeWritten = false;
        for (int attempt = 0; ; attempt++) {
            long remaining = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
            if (remaining <= 0) {
                throw new ReplicationException(maybeWritten ? ReplicationException.Kind.OUTCOME_UNKNOWN
                        : ReplicationException.Kind.UNAVAILABLE, "group " + group + " did not answer within "
                        + timeoutMs + " ms" + (maybeWritten ? " (an earlier attempt may have been applied)" : "")
                        + ": " + lastFailure);
            }
            PeerId target = fixedTarget;
            try {
                if (target == null) {
                    target = leader != null ? leader : finder.find(Math.min(remaining, 1000));
                    leader = target;
                }
                if (target != null) {
                    KvResponse response = transport.send(target, request, remaining);
                    switch (response.status) {
                        case KvResponse.OK, KvResponse.KEY_EXISTS, KvResponse.WRITE_CONFLICT, KvResponse.SNAPSHOT_GONE -> {
                            return response;
                        }
                        case KvResponse.OUTCOME_UNKNOWN -> {
                            if (!repeatable) {
                                throw new ReplicationException(ReplicationException.Kind.OUTCOME_UNKNOWN,
                                        "group " + group + ": " + response.message);
                            }
                            maybeWritten = true;
                        }
                        case KvResponse.FAILED -> throw new ReplicationException(
                                ReplicationException.Kind.UNAVAILABLE, "group " + group + " at " + target + ": "
                                + response.message);
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
                lastFailure = (target == null ? "leader lookup" : target.toString()) + ": " + e;
                if (fixedTarget == null) {
                    leader = null;
                }
                if (request.isWrite() && target != null && !(e instanceof ConnectionFailureException)) {
                    if (!repeatable) {
                        throw new ReplicationException(ReplicationException.Kind.OUTCOME_UNKNOWN,
                                "group " + group + ": write sent to " + target + " got no answer: " + e, e);
                    }
                    maybeWritten = true;
                }
                LOG.debug("group {}: attempt {} failed: {}", group, attempt, lastFailure);
            }
            pause(attempt, deadline);
        }
    }

    /** One attempt at {@code target}, no retry. */
    KvResponse sendOnce(PeerId target, KvRequest request, long timeoutMs) throws Exception {
        return transport.send(target, request, timeoutMs);
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
