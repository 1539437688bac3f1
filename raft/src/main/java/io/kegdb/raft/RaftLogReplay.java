package io.kegdb.raft;

import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.replication.LogReplay;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a stopped node's Raft log back for checks of a cluster's history (tests, post-mortems): every
 * client write in it, in log order, and whether applying the log applied it or answered it as a duplicate
 * of an earlier entry of the same request (a resend). The log must be complete from entry 1.
 */
public final class RaftLogReplay {

    /**
     * One client write entry.
     *
     * @param index   its log index
     * @param request its client session and serial number ({@code session/serial}), the same in every resend,
     *                or null for an entry written before client sessions
     * @param applied whether it was applied (false: a duplicate, or refused)
     * @param batch   what it writes
     */
    public record Write(long index, String request, boolean applied, WriteBatch batch) {
    }

    private RaftLogReplay() {
    }

    /** The writes in entries 1..{@code upTo} of the node whose directory is {@code nodeDir}. */
    public static List<Write> writes(Path nodeDir, long upTo) throws IOException {
        return LogReplay.replay(nodeDir.resolve("log"), upTo).stream()
                .map(w -> new Write(w.index(), w.session() == null ? null : w.session() + "/" + w.serial(),
                        w.applied(), w.batch()))
                .toList();
    }
}
