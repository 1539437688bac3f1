package io.kegdb.raft.tool;

import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftStatus;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Asks the group's members for their status ({@link RaftNode#members()}) every period on a thread of its own
 * and keeps the last answer, so that a scrape of {@code /metrics} reads the replication lag without waiting
 * for a node that does not answer (each may take a second to give up on).
 */
final class MemberPoller implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(MemberPoller.class);

    private final RaftNode node;
    private final ScheduledExecutorService thread;
    private volatile List<RaftStatus> members = List.of();

    MemberPoller(RaftNode node, long periodMillis) {
        this.node = node;
        this.thread = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "kegdb-member-poll");
            t.setDaemon(true);
            return t;
        });
        thread.scheduleWithFixedDelay(this::poll, 0, periodMillis, TimeUnit.MILLISECONDS);
    }

    private void poll() {
        try {
            members = List.copyOf(node.members());
        } catch (RuntimeException e) {
            LOG.debug("asking the members for their status failed", e);
            members = List.of();
        }
    }

    /** The members as last asked; empty before the first answer. */
    List<RaftStatus> members() {
        return members;
    }

    @Override
    public void close() {
        thread.shutdownNow();
    }
}
