package io.kegdb.raft.replication;

import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.range.CatalogFence;
import io.kegdb.raft.range.MetaKeys;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.RouteCheck;
import io.kegdb.raft.range.SplitCommand;

import java.util.Arrays;
import java.util.List;

/**
 * The descriptor one replica holds, as its state machine applies the log (and as {@link LogReplay} replays
 * it): none until the log's {@link LogEntry#INIT_DESCRIPTOR} entry, which installs one only where none is
 * held. Until then the replica is what every cluster begins as, {@link RangeDescriptor#initial range 1 over
 * the whole key space at generation 1} (its replicas not yet recorded), and checks requests by that.
 *
 * <p>A range without the catalog also holds its catalog fence ({@link CatalogFence}): the catalog version entry
 * as of the last {@link LogEntry#FENCE} entry applied, by which it admits or refuses a write's catalog
 * precondition. A range with the catalog (range 1) checks that precondition against the entry itself, as
 * every precondition is checked, and never holds a fence.
 *
 * <p>Used by the state machine's thread; {@link #held} is read by request threads too.
 */
final class ReplicaRange {

    /** What a replica without a stored descriptor checks by. */
    static final RangeDescriptor IMPLICIT = RangeDescriptor.initial(List.of());

    /** What a write decides at apply: apply {@code batch}, or refuse it as a stale route or a changed catalog. */
    record Admission(Verdict verdict, WriteBatch batch) {
    }

    enum Verdict { APPLY, STALE_ROUTE, CATALOG_CHANGED }

    private static final Admission STALE = new Admission(Verdict.STALE_ROUTE, null);
    private static final Admission FENCED = new Admission(Verdict.CATALOG_CHANGED, null);

    private volatile RangeDescriptor stored;
    private volatile byte[] fence;

    /** The stored descriptor, or null before the log installed one. */
    RangeDescriptor stored() {
        return stored;
    }

    /** The descriptor requests are checked by. */
    RangeDescriptor held() {
        RangeDescriptor d = stored;
        return d == null ? IMPLICIT : d;
    }

    /** The catalog version of this range's fence (0: none yet, or a range with the catalog). */
    long fenceVersion() {
        return CatalogFence.version(fence);
    }

    /**
     * Applies an {@link LogEntry#INIT_DESCRIPTOR} entry: installs {@code encoded} if no descriptor is held.
     *
     * @return the batch that stores it in the data store, or null if one was held already (nothing changes)
     */
    WriteBatch install(byte[] encoded) {
        if (stored != null) {
            return null;
        }
        stored = RangeDescriptor.decode(encoded);
        return new WriteBatch().put(MetaKeys.LOCAL_DESCRIPTOR, encoded);
    }

    /**
     * Applies a {@link LogEntry#FENCE} entry's first step: a fence above this range's is taken (and its spans
     * are then deleted by the caller); any other (a replay, a second proposal, a range with the catalog) changes
     * nothing.
     *
     * @return the batch that stores the new fence, or null if nothing changes
     */
    WriteBatch advanceFence(CatalogFence.Command command) {
        if (CatalogFence.holdsCatalog(held()) || command.version() <= fenceVersion()) {
            return null;
        }
        fence = command.entry();
        return new WriteBatch().put(MetaKeys.LOCAL_FENCE, command.entry());
    }

    /**
     * The two ranges {@code command} makes of this one, {@code [left, right]}, or null where it applies as a
     * no-op: no descriptor installed, another generation (a replay after the split, a second proposal), or a
     * split key not strictly inside the range or in the system span.
     */
    RangeDescriptor[] halves(SplitCommand command) {
        RangeDescriptor held = stored;
        if (held == null || held.generation() != command.generation()) {
            return null;
        }
        try {
            return held.split(command.at(), command.newId());
        } catch (IllegalArgumentException e) {
            return null;
        }
    }

    /** A split narrowed the range to {@code left} (its descriptor is stored by the caller). */
    void narrow(RangeDescriptor left) {
        stored = left;
    }

    /** The state of a data store just restored (a snapshot) or rebuilt: its stored descriptor and fence. */
    void load(byte[] encoded, byte[] storedFence) {
        stored = encoded == null ? null : RangeDescriptor.decode(encoded);
        fence = storedFence;
    }

    /**
     * Whether a write naming range {@code id} at {@code generation} applies here, at this log index, and what
     * it applies. With the catalog, the batch as it is (its catalog precondition is checked with the others).
     * Without, the catalog precondition is split off and checked against the fence: refused if the fence is
     * above the version it names, else the rest of the batch applies.
     */
    Admission admit(long id, long generation, WriteBatch batch) {
        RangeDescriptor held = held();
        if (CatalogFence.holdsCatalog(held)) {
            return RouteCheck.write(held, id, generation, batch) == RouteCheck.Verdict.SERVE
                    ? new Admission(Verdict.APPLY, batch) : STALE;
        }
        CatalogFence.Named named = CatalogFence.named(batch);
        if (RouteCheck.write(held, id, generation, named.rest()) != RouteCheck.Verdict.SERVE) {
            return STALE;
        }
        if (named.names() && CatalogFence.version(named.expected()) < fenceVersion()) {
            return FENCED;
        }
        return new Admission(Verdict.APPLY, named.rest());
    }

    /** Whether a write naming range {@code id} at {@code generation} applies here, at this log index. */
    boolean applies(long id, long generation, WriteBatch batch) {
        return admit(id, generation, batch).verdict() == Verdict.APPLY;
    }

    /**
     * The key a read's watched key is answered from: a range without the catalog answers the catalog version
     * entry with its fence.
     */
    byte[] watchedKey(byte[] watch) {
        return Arrays.equals(watch, CatalogFence.VERSION_KEY) && !CatalogFence.holdsCatalog(held())
                ? MetaKeys.LOCAL_FENCE : watch;
    }
}
