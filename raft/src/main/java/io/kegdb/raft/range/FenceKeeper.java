package io.kegdb.raft.range;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A range leader's duty to its catalog fence (docs/SCALE.md, "The catalog version across ranges"): bring it up
 * to the catalog version the meta range holds, after every election this replica wins and whenever asked (after
 * a DDL). It reads the version entry from the meta range, then the drop records of every version above the
 * fence up to it (written in the same batches as those versions, so all there once the entry is read), and
 * proposes one {@link CatalogFence.Command} in the range's own log. A range holding the catalog has no fence
 * and nothing to do.
 *
 * <p>Crash story: the DDL is committed in the meta range before any fence moves; a coordinator (or a leader)
 * that dies before the fence command commits leaves the fence behind, which is safe (a write of a dropped
 * table admitted meanwhile is deleted when the fence does move) and is repaired by the range's next leader,
 * which runs this on its election, or by the next DDL's request. A fence proposed twice is applied once.
 */
public final class FenceKeeper implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FenceKeeper.class);
    private static final long PROPOSAL_TIMEOUT_MS = 10_000;
    private static final int MAX_ATTEMPTS = 100;

    /** The replica whose fence is kept. */
    public interface Replica {
        /** The descriptor the replica holds (null: none installed yet, so it is range 1, holding the catalog). */
        RangeDescriptor held();

        /** The version of the fence the replica has applied. */
        long fenceVersion();

        boolean isLeader();

        /** Proposes a fence command in the range's log; completes once it is applied. */
        CompletableFuture<?> proposeFence(CatalogFence.Command command);
    }

    private final String group;
    private final Replica replica;
    private final KvStore meta;
    private final ExecutorService worker;
    private final AtomicBoolean queued = new AtomicBoolean();
    private volatile boolean closed;

    /** @param meta the meta range's store */
    public FenceKeeper(String group, Replica replica, KvStore meta) {
        this.group = group;
        this.replica = replica;
        this.meta = meta;
        this.worker = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "kegdb-fence-" + group);
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Brings the fence up to the meta range's catalog version on this keeper's thread (after an election, or a
     * DDL); calls that arrive while one is queued join it.
     */
    public void advanceLater() {
        if (!closed && queued.compareAndSet(false, true)) {
            worker.execute(() -> {
                queued.set(false);
                keep();
            });
        }
    }

    private void keep() {
        for (int attempt = 0; attempt < MAX_ATTEMPTS && !closed && replica.isLeader(); attempt++) {
            try {
                advance();
                return;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                if (closed) {
                    return;
                }
                LOG.debug("group {}: advancing the catalog fence failed, trying again: {}", group, e.toString());
            }
            try {
                Thread.sleep(Math.min(50L << Math.min(attempt, 4), 500));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Proposes the fence command that brings this range to the meta range's catalog version, if it is behind,
     * and waits until it is applied (on the caller's thread).
     *
     * @return the command proposed, or null if the fence was current (or the range holds the catalog)
     */
    public CatalogFence.Command advance() throws Exception {
        RangeDescriptor held = replica.held();
        if (held == null || CatalogFence.holdsCatalog(held)) {
            return null;
        }
        long fence = replica.fenceVersion();
        byte[] entry = meta.get(CatalogFence.VERSION_KEY);
        long version = CatalogFence.version(entry);
        if (version <= fence) {
            return null;
        }
        List<byte[][]> spans = new ArrayList<>();
        try (KvIterator drops = meta.scan(CatalogFence.dropKey(fence + 1), CatalogFence.dropKey(version + 1))) {
            while (drops.hasNext()) {
                KeyValue kv = drops.next();
                spans.add(CatalogFence.decodeSpan(kv.value()));
            }
        }
        CatalogFence.Command command = new CatalogFence.Command(entry, spans);
        replica.proposeFence(command).get(PROPOSAL_TIMEOUT_MS, TimeUnit.MILLISECONDS);
        LOG.info("group {}: catalog fence advanced from version {} to {} ({} dropped spans)", group, fence, version,
                spans.size());
        return command;
    }

    @Override
    public void close() {
        closed = true;
        worker.shutdownNow();
    }
}
