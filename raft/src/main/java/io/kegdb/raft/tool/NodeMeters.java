package io.kegdb.raft.tool;

import io.kegdb.engine.meter.Meter;
import io.kegdb.engine.meter.MeterUnit;
import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftStatus;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The meters of one Raft node ({@code kegdb.raft.*}), read from its status ({@link RaftNode#status()}), its
 * directories ({@code log/}, {@code snapshot/}) and the members' status as last polled ({@link MemberPoller}):
 * role, term, commit and applied index, log bounds and bytes, the latest snapshot, and for each peer whether
 * it answered and how many entries its log is behind the leader's.
 */
final class NodeMeters {

    /** Roles a node may have (SOFAJRaft's states without the {@code STATE_} prefix). */
    static final List<String> ROLES = List.of("LEADER", "TRANSFERRING", "CANDIDATE", "FOLLOWER", "ERROR",
            "UNINITIALIZED", "SHUTTING", "SHUTDOWN");

    private NodeMeters() {
    }

    static List<Meter> of(RaftNode node, Path dir, List<String> peers, MemberPoller members) {
        List<Meter> out = new ArrayList<>();
        for (String role : ROLES) {
            out.add(Meter.gauge("kegdb.raft.role", MeterUnit.NONE, "1 for the role this node has now, else 0.",
                    () -> role.equals(node.status().role()) ? 1 : 0).tagged("role", role.toLowerCase(java.util.Locale.ROOT)));
        }
        out.add(Meter.gauge("kegdb.raft.leader.known", MeterUnit.NONE, "1 while this node knows a leader, else 0.",
                () -> node.status().leader() == null ? 0 : 1));
        out.add(Meter.gauge("kegdb.raft.term", MeterUnit.NONE, "The current term.", () -> node.status().term()));
        out.add(Meter.gauge("kegdb.raft.commit.index", MeterUnit.NONE, "The last log index known committed.",
                () -> node.status().commitIndex()));
        out.add(Meter.gauge("kegdb.raft.applied.index", MeterUnit.NONE,
                "The last log index applied to the data store.", () -> node.status().appliedIndex()));
        out.add(Meter.gauge("kegdb.raft.log.first.index", MeterUnit.NONE,
                "The first index still in the log (moves up when a snapshot truncates it).",
                () -> node.status().firstLogIndex()));
        out.add(Meter.gauge("kegdb.raft.log.last.index", MeterUnit.NONE, "The last index in the log.",
                () -> node.status().lastLogIndex()));
        out.add(Meter.gauge("kegdb.raft.log.entries", MeterUnit.NONE, "Entries the log holds.", () -> {
            RaftStatus s = node.status();
            return Math.max(0, s.lastLogIndex() - s.firstLogIndex() + 1);
        }));
        out.add(Meter.gauge("kegdb.raft.log.bytes", MeterUnit.BYTES, "Bytes of the log's files on disk.",
                () -> bytesUnder(dir.resolve("log"))));
        out.add(Meter.gauge("kegdb.raft.snapshot.index", MeterUnit.NONE,
                "The last log index the newest snapshot covers; 0 before the first.",
                () -> latestSnapshot(dir.resolve("snapshot"))));
        for (String peer : peers) {
            out.add(Meter.gauge("kegdb.raft.peer.reachable", MeterUnit.NONE,
                    "1 if the peer answered the last status poll, else 0.",
                    () -> member(members, peer) == null ? 0 : 1).tagged("peer", peer));
            out.add(Meter.gauge("kegdb.raft.peer.lag.entries", MeterUnit.NONE,
                    "Entries the peer's log is behind the leader's, as last polled; NaN when either did not answer.",
                    () -> lag(members, peer)).tagged("peer", peer));
        }
        return List.copyOf(out);
    }

    private static RaftStatus member(MemberPoller members, String peer) {
        for (RaftStatus s : members.members()) {
            if (s.node().equals(peer) && s.answered()) {
                return s;
            }
        }
        return null;
    }

    private static double lag(MemberPoller members, String peer) {
        RaftStatus p = member(members, peer);
        if (p == null) {
            return Double.NaN;
        }
        for (RaftStatus s : members.members()) {
            if (s.answered() && "LEADER".equals(s.role())) {
                return Math.max(0, s.lastLogIndex() - p.lastLogIndex());
            }
        }
        return Double.NaN;
    }

    private static long bytesUnder(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> {
                try {
                    return Files.size(f);
                } catch (IOException gone) {
                    return 0; // removed by a truncation meanwhile
                }
            }).sum();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SOFAJRaft keeps each snapshot in a directory {@code snapshot_<last included index>}. */
    private static long latestSnapshot(Path dir) {
        if (!Files.isDirectory(dir)) {
            return 0;
        }
        long latest = 0;
        try (DirectoryStream<Path> ds = Files.newDirectoryStream(dir, "snapshot_*")) {
            for (Path p : ds) {
                try {
                    latest = Math.max(latest, Long.parseLong(p.getFileName().toString().substring("snapshot_".length())));
                } catch (NumberFormatException notOne) {
                    // a temporary directory of a snapshot being written
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return latest;
    }
}
