package io.kegdb.raft.range;

import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import io.kegdb.engine.WriteConflictException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The leader's duty to its range's descriptor, run after every election it wins (docs/SCALE.md,
 * "Descriptors and where they live"):
 * <ol>
 * <li>If the replica holds no descriptor (a new cluster, or one whose data was written before ranges), it
 * proposes the initial one ({@link RangeDescriptor#initial}: range 1 over the whole key space, generation 1,
 * replica version 1, the group's members) as a command in the range's own log. Applying it installs it only
 * where none is held, so a replay, or a second leader proposing it again, changes nothing.</li>
 * <li>It then makes the meta range's copy (under {@link RangeDescriptor#metaKey}) equal to the replica's,
 * with a conditional write that expects the copy it read: the meta range may lag the range's own log, never
 * lead it, and never goes back to an older generation or replica version.</li>
 * </ol>
 * Crash story: a kill between the two writes leaves the descriptor in the range's log and an old (or no) copy
 * in the meta range; the next leader, or this one on its next attempt, writes the copy. Both steps are
 * retried while this node leads, and stop when it no longer does.
 */
public final class DescriptorKeeper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(DescriptorKeeper.class);
    private static final long PROPOSAL_TIMEOUT_MS = 10_000;
    private static final int MAX_ATTEMPTS = 1000;

    /** The replica whose descriptor is kept. */
    public interface Replica {
        /** The descriptor the replica's state machine holds now, or null for none. */
        RangeDescriptor stored();

        boolean isLeader();

        /** The group's members, {@code host:port} each. */
        List<String> members();

        /** Proposes the initial descriptor in the range's log; completes once the entry is applied. */
        CompletableFuture<?> proposeInitial(RangeDescriptor initial);
    }

    private final String group;
    private final Replica replica;
    private final KvStore meta;
    private final ExecutorService worker;
    private volatile boolean closed;

    /** @param meta the meta range's store (for range 1: the group's own) */
    public DescriptorKeeper(String group, Replica replica, KvStore meta) {
        this.group = group;
        this.replica = replica;
        this.meta = meta;
        this.worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "kegdb-descriptor-" + group);
            t.setDaemon(true);
            return t;
        });
    }

    /** This node won an election: brings the descriptor and its meta copy up to date (on its own thread). */
    public void leaderStarted() {
        if (!closed) {
            worker.execute(this::keep);
        }
    }

    private void keep() {
        for (int attempt = 0; attempt < MAX_ATTEMPTS && !closed && replica.isLeader(); attempt++) {
            try {
                RangeDescriptor held = replica.stored();
                if (held == null) {
                    replica.proposeInitial(RangeDescriptor.initial(replica.members()))
                            .get(PROPOSAL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
                    continue; // read back what the log installed (another leader's proposal may have won)
                }
                if (publish(held)) {
                    return;
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                if (closed) {
                    return;
                }
                LOG.debug("group {}: keeping the range descriptor failed, trying again: {}", group, e.toString());
            }
            try {
                Thread.sleep(Math.min(50L << Math.min(attempt, 4), 500));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /** Makes the meta copy of {@code held} current; false if another write changed it meanwhile (try again). */
    boolean publish(RangeDescriptor held) {
        return publish(meta, List.of(held));
    }

    /**
     * Makes the meta range's copies of {@code held} current, in one conditional write (a split's two ranges
     * together, so no lookup ever finds one half's old copy beside the other's new one); copies that are
     * current already are left alone.
     *
     * @return false if another write changed one of them meanwhile (read again and try again)
     */
    public static boolean publish(KvStore meta, List<RangeDescriptor> held) {
        WriteBatch batch = new WriteBatch();
        for (RangeDescriptor d : held) {
            byte[] key = d.metaKey();
            byte[] current = meta.get(key);
            if (current == null || isOlder(current, d)) {
                batch.expect(key, current).put(key, d.encode());
            }
        }
        if (batch.isEmpty()) {
            return true;
        }
        try {
            meta.write(batch, Durability.SYNC);
            LOG.info("{} written to the meta range", held);
            return true;
        } catch (WriteConflictException changed) {
            return false;
        }
    }

    /**
     * Whether the stored copy is older than {@code held} (an unreadable copy is replaced): a lower generation,
     * whichever range it is (a split gives both halves the next generation, and the new half takes the old
     * range's key), or the same range at the same generation with an older replica version.
     */
    private static boolean isOlder(byte[] stored, RangeDescriptor held) {
        RangeDescriptor copy;
        try {
            copy = RangeDescriptor.decode(stored);
        } catch (IllegalArgumentException unreadable) {
            return true;
        }
        return copy.generation() < held.generation() || (copy.id() == held.id()
                && copy.generation() == held.generation() && copy.replicaVersion() < held.replicaVersion());
    }

    @Override
    public void close() {
        closed = true;
        worker.shutdownNow();
    }
}
