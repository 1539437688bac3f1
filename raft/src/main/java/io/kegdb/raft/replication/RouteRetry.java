package io.kegdb.raft.replication;

import io.kegdb.raft.ReplicationException;

import java.util.concurrent.TimeUnit;

/**
 * The bound on routing one call of a {@link RangedStore} again: at most {@link GroupCaller#MAX_ROUTE_REFRESHES}
 * stale answers (a route that keeps changing under the call), and no longer than the request timeout while the
 * meta range does not describe the keys yet (its copies lag a split by the time its leader takes to write them).
 */
final class RouteRetry {

    private final long deadline;
    private final long timeoutMs;
    private int stale;
    private int waits;

    RouteRetry(long timeoutMs) {
        this.timeoutMs = timeoutMs;
        this.deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    }

    /**
     * Counts a stale answer; {@code learned} says whether it taught a newer route (then the call is routed again
     * at once), else the call waits a little for the replicas or the meta range to catch up.
     *
     * @throws ReplicationException of kind UNAVAILABLE after too many
     */
    void stale(StaleRouteException e, boolean learned) {
        if (++stale > GroupCaller.MAX_ROUTE_REFRESHES) {
            throw new ReplicationException(ReplicationException.Kind.UNAVAILABLE, "the route was still stale after "
                    + GroupCaller.MAX_ROUTE_REFRESHES + " refreshes: " + e.getMessage());
        }
        if (!learned) {
            pause(e.getMessage());
        }
    }

    /**
     * Waits a little before the meta range is asked again for a range {@code what} names.
     *
     * @throws ReplicationException of kind UNAVAILABLE once the request timeout has passed
     */
    void await(String what) {
        pause(what);
    }

    private void pause(String what) {
        long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
        if (left <= 0) {
            throw new ReplicationException(ReplicationException.Kind.UNAVAILABLE, "no route within " + timeoutMs
                    + " ms: " + what);
        }
        long ms = Math.min(Math.min(5L << Math.min(waits++, 5), 100), left);
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReplicationException(ReplicationException.Kind.UNAVAILABLE, "interrupted while routing: " + what, e);
        }
    }
}
