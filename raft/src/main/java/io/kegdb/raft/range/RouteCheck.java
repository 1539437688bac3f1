package io.kegdb.raft.range;

import io.kegdb.engine.WriteBatch;

/**
 * Whether a replica serves a request that names range {@code id} at {@code generation} (docs/SCALE.md,
 * "Routing"). A replica decides by the descriptor it holds: for a read when it serves it, for a write when
 * it applies the log entry, at that entry's index, so a write proposed under old bounds and applied after
 * they changed is refused rather than applied to the wrong range.
 *
 * <p>Compatibility: a request from a client older than ranges names range {@link #UNNAMED} (0). Its reads
 * are served as range 1's without a check (they reach the group {@code NAME}, which is range 1); its writes
 * are checked at apply against the bounds alone, as are log entries written before ranges.
 */
public final class RouteCheck {

    /** The range id of a request or log entry that names none (older than ranges). */
    public static final long UNNAMED = 0;

    /** What a replica does with a request. */
    public enum Verdict {
        /** Serve (or apply) it. */
        SERVE,
        /** This node hosts no replica of the named range: the client looks the range up in the meta range. */
        NO_RANGE,
        /** The route is stale (another generation, or a key outside the bounds): answered with the descriptor. */
        STALE_ROUTE
    }

    private RouteCheck() {
    }

    /** A read of {@code [from, to)} (null bounds open; a point read passes its key and its successor). */
    public static Verdict read(RangeDescriptor held, long id, long generation, byte[] from, byte[] to) {
        if (id == UNNAMED) {
            return Verdict.SERVE;
        }
        if (id != held.id()) {
            return Verdict.NO_RANGE;
        }
        return generation == held.generation() && held.containsSpan(from, to) ? Verdict.SERVE : Verdict.STALE_ROUTE;
    }

    /** A read of one key. */
    public static Verdict read(RangeDescriptor held, long id, long generation, byte[] key) {
        if (id == UNNAMED) {
            return Verdict.SERVE;
        }
        if (id != held.id()) {
            return Verdict.NO_RANGE;
        }
        return generation == held.generation() && held.contains(key) ? Verdict.SERVE : Verdict.STALE_ROUTE;
    }

    /**
     * A write batch at apply: every key it writes or expects, and every span it validates, inside the bounds,
     * and (unless it names no range) the range and generation the replica holds. Never {@link Verdict#NO_RANGE}:
     * an entry in this range's log that names another range is stale.
     */
    public static Verdict write(RangeDescriptor held, long id, long generation, WriteBatch batch) {
        if (id != UNNAMED && (id != held.id() || generation != held.generation())) {
            return Verdict.STALE_ROUTE;
        }
        return withinBounds(held, batch) ? Verdict.SERVE : Verdict.STALE_ROUTE;
    }

    /** Whether every key and span of {@code batch} lies within {@code held}'s bounds. */
    static boolean withinBounds(RangeDescriptor held, WriteBatch batch) {
        boolean[] inside = {true};
        batch.replay(new WriteBatch.KeyHandler() {
            @Override
            protected void key(byte[] key) {
                inside[0] &= held.contains(key);
            }

            @Override
            protected void span(byte[] fromInclusive, byte[] toExclusive) {
                inside[0] &= held.containsSpan(fromInclusive, toExclusive);
            }
        });
        return inside[0];
    }
}
