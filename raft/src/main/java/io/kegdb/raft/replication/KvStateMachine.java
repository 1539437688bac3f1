package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.Closure;
import com.alipay.sofa.jraft.Iterator;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.core.StateMachineAdapter;
import com.alipay.sofa.jraft.error.RaftError;
import com.alipay.sofa.jraft.error.RaftException;
import com.alipay.sofa.jraft.storage.snapshot.SnapshotReader;
import com.alipay.sofa.jraft.storage.snapshot.SnapshotWriter;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.range.MetaKeys;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.RouteCheck;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.stream.Stream;

/**
 * Applies committed write batches, in log order, to the node's {@link DataStore}. Applying depends only on
 * the entry and the store, so every node reaches the same state; a put-if-absent conflict is decided here,
 * at apply time, and reported to the proposer through its {@link WriteClosure}.
 *
 * <p>Each client request is applied at most once: a {@link LogEntry} names its client session and serial,
 * and the {@link SessionTable} answers a request already applied (a resend whose first attempt committed)
 * with the result of that first application instead of applying it again.
 *
 * <p>The replica's range: its descriptor ({@link ReplicaRange}) is state of this machine, stored in the data
 * store under {@link MetaKeys#LOCAL_DESCRIPTOR} by an {@link LogEntry#INIT_DESCRIPTOR} entry of the log, so it
 * is in every snapshot and replayed after a crash. Every write is checked against it when it is applied
 * (docs/SCALE.md, "Routing"): a batch naming another range or generation, or with a key outside the bounds,
 * is applied as a no-op and answered {@link KvResponse#STALE_ROUTE}, a result the session table remembers
 * like any other.
 *
 * <p>A snapshot is a backup of the data store in the snapshot's {@value #SNAPSHOT_DATA} subdirectory and
 * the session table in its {@value #SNAPSHOT_SESSIONS} file, both taken on this thread between two entries,
 * so at the same log index.
 */
public final class KvStateMachine extends StateMachineAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(KvStateMachine.class);
    static final String SNAPSHOT_DATA = "data";
    static final String SNAPSHOT_SESSIONS = "sessions";

    private final DataStore data;
    private final SessionTable sessions = new SessionTable();
    private final ReplicaRange range = new ReplicaRange();
    private volatile Runnable leaderStarted = () -> { };
    private volatile long snapshotsLoaded;
    private volatile long duplicatesAnswered;
    private volatile int sessionCount;

    public KvStateMachine(DataStore data) {
        this.data = data;
    }

    @Override
    public void onApply(Iterator iter) {
        while (iter.hasNext()) {
            Closure done = iter.done();
            DataStore.Outcome outcome;
            try {
                ByteBuffer buf = iter.getData();
                byte[] bytes = new byte[buf.remaining()];
                buf.duplicate().get(bytes);
                outcome = apply(bytes);
            } catch (RuntimeException e) {
                // A store that cannot apply an entry must not apply later ones: stop the node.
                LOG.error("applying log entry {} failed", iter.getIndex(), e);
                iter.setErrorAndRollback(1, new Status(RaftError.ESTATEMACHINE,
                        "applying log entry %d failed: %s", iter.getIndex(), e));
                return;
            }
            if (done instanceof WriteClosure w) {
                w.setOutcome(outcome);
            }
            if (done != null) {
                done.run(Status.OK());
            }
            iter.next();
        }
    }

    private DataStore.Outcome apply(byte[] bytes) {
        if (!LogEntry.isSessionEntry(bytes)) {
            // written before sessions: no duplicate detection; before ranges: checked against the bounds only
            return applyInRange(RouteCheck.UNNAMED, 0, BatchCodec.decode(bytes));
        }
        LogEntry entry = LogEntry.decode(bytes);
        sessions.advance(entry.time());
        DataStore.Outcome outcome;
        if (entry.kind() == LogEntry.OPEN_SESSION) {
            sessions.open(entry.session());
            outcome = OK;
        } else if (entry.kind() == LogEntry.INIT_DESCRIPTOR) {
            WriteBatch install = range.install(entry.batch());
            if (install != null) {
                data.apply(install);
                LOG.info("range descriptor installed: {}", range.stored());
            }
            outcome = OK;
        } else {
            outcome = sessions.answerWithoutApplying(entry.session(), entry.serial(), entry.floor());
            if (outcome == null) {
                outcome = applyInRange(entry.range(), entry.generation(), BatchCodec.decode(entry.batch()));
                sessions.record(entry.session(), entry.serial(), outcome);
            } else {
                duplicatesAnswered++;
            }
        }
        sessionCount = sessions.size();
        return outcome;
    }

    private static final DataStore.Outcome OK = new DataStore.Outcome(KvResponse.OK, null, false);
    static final DataStore.Outcome STALE_ROUTE = new DataStore.Outcome(KvResponse.STALE_ROUTE, null, false);

    /** Applies {@code batch} if it names this replica's range and generation and lies within its bounds. */
    private DataStore.Outcome applyInRange(long rangeId, long generation, WriteBatch batch) {
        if (!range.applies(rangeId, generation, batch)) {
            return STALE_ROUTE;
        }
        return data.apply(batch);
    }

    /** The descriptor of this replica's range as applied so far, or null before the log installed one. */
    public RangeDescriptor descriptor() {
        return range.stored();
    }

    /** The descriptor requests are checked by (the initial one until the log installed one). */
    RangeDescriptor heldDescriptor() {
        return range.held();
    }

    /** Runs {@code listener} (on this machine's thread: it must not block) each time this node becomes leader. */
    public void whenLeaderStarts(Runnable listener) {
        this.leaderStarted = listener;
    }

    @Override
    public void onLeaderStart(long term) {
        leaderStarted.run();
    }

    @Override
    public void onSnapshotSave(SnapshotWriter writer, Closure done) {
        Path target = Paths.get(writer.getPath(), SNAPSHOT_DATA);
        try {
            DataStore.deleteTree(target);
            data.backupTo(target);
            try (Stream<Path> files = Files.list(target)) {
                for (Path f : (Iterable<Path>) files::iterator) {
                    String name = f.getFileName().toString();
                    if (Files.isRegularFile(f) && !name.equals("LOCK") && !writer.addFile(SNAPSHOT_DATA + "/" + name)) {
                        throw new IOException(writer.getPath() + ": snapshot refused file " + name);
                    }
                }
            }
            saveSessions(Paths.get(writer.getPath(), SNAPSHOT_SESSIONS));
            if (!writer.addFile(SNAPSHOT_SESSIONS)) {
                throw new IOException(writer.getPath() + ": snapshot refused file " + SNAPSHOT_SESSIONS);
            }
            done.run(Status.OK());
        } catch (IOException | RuntimeException e) {
            LOG.error("saving a snapshot into {} failed", target, e);
            done.run(new Status(RaftError.EIO, "saving a snapshot into %s failed: %s", target, e));
        }
    }

    @Override
    public boolean onSnapshotLoad(SnapshotReader reader) {
        Path source = Paths.get(reader.getPath(), SNAPSHOT_DATA);
        try {
            if (Files.isDirectory(source)) {
                data.restoreFrom(source);
            } else {
                // A snapshot of a store that was still empty has no files.
                data.restoreFrom(Files.createDirectories(source));
            }
            loadSessions(Paths.get(reader.getPath(), SNAPSHOT_SESSIONS));
            range.load(data.get(MetaKeys.LOCAL_DESCRIPTOR));
            snapshotsLoaded++;
            LOG.info("loaded the snapshot at log index {} from {}", reader.load().getLastIncludedIndex(), source);
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.error("loading the snapshot in {} failed", source, e);
            return false;
        }
    }

    /** Written and fsynced before the snapshot's meta names it, like the data store's backup. */
    private void saveSessions(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING);
             DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel)))) {
            sessions.writeTo(out);
            out.flush();
            channel.force(true);
        }
    }

    /** A snapshot taken before sessions existed has no such file: no session is open. */
    private void loadSessions(Path file) throws IOException {
        if (!Files.exists(file)) {
            sessions.clear();
        } else {
            try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file)))) {
                sessions.readFrom(in);
            }
        }
        sessionCount = sessions.size();
    }

    @Override
    public void onError(RaftException e) {
        LOG.error("the raft node stopped on an error: {}", e.getStatus(), e);
    }

    public long snapshotsLoaded() {
        return snapshotsLoaded;
    }

    /** How many requests were answered from the session table instead of being applied again. */
    public long duplicatesAnswered() {
        return duplicatesAnswered;
    }

    /** How many client sessions are open. */
    public int sessionCount() {
        return sessionCount;
    }
}
