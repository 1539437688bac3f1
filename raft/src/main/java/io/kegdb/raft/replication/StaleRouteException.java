package io.kegdb.raft.replication;

import io.kegdb.raft.range.RangeDescriptor;

/**
 * A replica refused a request of a {@link RangedStore}'s range caller because the route it named is not the
 * replica's (another generation, a key outside the bounds, or no replica of that range on the node): nothing
 * was done, and the store routes the request again. Never leaves the store.
 */
final class StaleRouteException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final transient RangeDescriptor routed;
    private final transient RangeDescriptor answered;
    private final boolean noRange;

    /**
     * @param routed   the route the request named
     * @param answered the descriptor the replica holds (null: the answer carried none)
     * @param noRange  whether the node hosts no replica of the named range
     */
    StaleRouteException(String group, RangeDescriptor routed, RangeDescriptor answered, boolean noRange,
                        String message) {
        super("group " + group + " refused the route " + routed + ": " + message, null, false, false);
        this.routed = routed;
        this.answered = answered;
        this.noRange = noRange;
    }

    RangeDescriptor routed() {
        return routed;
    }

    /** The descriptor the answering replica holds, or null. */
    RangeDescriptor answered() {
        return answered;
    }

    boolean noRange() {
        return noRange;
    }
}
