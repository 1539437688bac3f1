package io.kegdb.raft.replication;

import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.range.MetaKeys;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.RouteCheck;

import java.util.List;

/**
 * The descriptor one replica holds, as its state machine applies the log (and as {@link LogReplay} replays
 * it): none until the log's {@link LogEntry#INIT_DESCRIPTOR} entry, which installs one only where none is
 * held. Until then the replica is what every cluster begins as, {@link RangeDescriptor#initial range 1 over
 * the whole key space at generation 1} (its replicas not yet recorded), and checks requests by that.
 *
 * <p>Used by the state machine's thread; {@link #held} is read by request threads too.
 */
final class ReplicaRange {

    /** What a replica without a stored descriptor checks by. */
    static final RangeDescriptor IMPLICIT = RangeDescriptor.initial(List.of());

    private volatile RangeDescriptor stored;

    /** The stored descriptor, or null before the log installed one. */
    RangeDescriptor stored() {
        return stored;
    }

    /** The descriptor requests are checked by. */
    RangeDescriptor held() {
        RangeDescriptor d = stored;
        return d == null ? IMPLICIT : d;
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

    /** The state of a data store just restored (a snapshot) or rebuilt: its stored descriptor, if any. */
    void load(byte[] encoded) {
        stored = encoded == null ? null : RangeDescriptor.decode(encoded);
    }

    /** Whether a write naming range {@code id} at {@code generation} applies here, at this log index. */
    boolean applies(long id, long generation, WriteBatch batch) {
        return RouteCheck.write(held(), id, generation, batch) == RouteCheck.Verdict.SERVE;
    }
}
