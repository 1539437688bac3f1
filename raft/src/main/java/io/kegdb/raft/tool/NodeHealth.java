package io.kegdb.raft.tool;

import io.kegdb.raft.RaftStatus;

import java.util.function.Supplier;

/**
 * Whether a node should get traffic, as {@code GET /health} says it: once it has applied its log (its applied
 * index reached the commit index it knew, latched from then on so that a busy node does not flap) and while it
 * knows a leader. Otherwise it says why not.
 */
final class NodeHealth {

    /** The answer: healthy or not, and a one-line reason. */
    record Verdict(boolean healthy, String reason) {
    }

    private final Supplier<RaftStatus> status;
    private volatile boolean caughtUp;

    NodeHealth(Supplier<RaftStatus> status) {
        this.status = status;
    }

    Verdict check() {
        RaftStatus s = status.get();
        if ("ERROR".equals(s.role()) || s.role().startsWith("SHUTTING") || "SHUTDOWN".equals(s.role())) {
            return new Verdict(false, "node is " + s.role());
        }
        if (s.leader() == null) {
            return new Verdict(false, "no leader known (role " + s.role() + ", term " + s.term() + ")");
        }
        if (!caughtUp) {
            if (s.commitIndex() <= 0 || s.appliedIndex() < s.commitIndex()) {
                return new Verdict(false, "applying the log: applied " + s.appliedIndex() + " of committed "
                        + s.commitIndex());
            }
            caughtUp = true;
        }
        return new Verdict(true, "ok: " + s.role() + ", leader " + s.leader() + ", term " + s.term()
                + ", applied " + s.appliedIndex());
    }
}
