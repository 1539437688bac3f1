package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.Closure;
import com.alipay.sofa.jraft.Iterator;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.core.StateMachineAdapter;
import com.alipay.sofa.jraft.error.RaftError;
import com.alipay.sofa.jraft.error.RaftException;
import com.alipay.sofa.jraft.storage.snapshot.SnapshotReader;
import com.alipay.sofa.jraft.storage.snapshot.SnapshotWriter;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvSnapshot;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.range.CatalogFence;
import io.kegdb.raft.range.MetaKeys;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.RouteCheck;
import io.kegdb.raft.range.SplitCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
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
 * like any other. In a range without the catalog, a write's catalog precondition is checked against the range's
 * catalog fence ({@link CatalogFence}), advanced by {@link LogEntry#FENCE} entries.
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
    private volatile RangeSplits splits;
    private volatile Runnable catalogChanged;
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
        } else if (entry.kind() == LogEntry.SPLIT) {
            applySplit(SplitCommand.decode(entry.batch()));
            outcome = OK;
        } else if (entry.kind() == LogEntry.FENCE) {
            applyFence(CatalogFence.Command.decode(entry.batch()));
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

    /**
     * Applies {@code batch} if it names this replica's range and generation, lies within its bounds and, in a
     * range without the catalog, names a catalog version the range's fence is not above ({@link ReplicaRange#admit}).
     */
    private DataStore.Outcome applyInRange(long rangeId, long generation, WriteBatch batch) {
        ReplicaRange.Admission admission = range.admit(rangeId, generation, batch);
        return switch (admission.verdict()) {
            case APPLY -> {
                DataStore.Outcome applied = data.apply(admission.batch());
                Runnable listener = catalogChanged;
                if (listener != null && applied.status() == KvResponse.OK && CatalogFence.changesVersion(batch)) {
                    listener.run();
                }
                yield applied;
            }
            case STALE_ROUTE -> STALE_ROUTE;
            // answered as the failed precondition on the version entry it is, so the SQL layer plans again
            case CATALOG_CHANGED -> CATALOG_CHANGED;
        };
    }

    private static final DataStore.Outcome CATALOG_CHANGED = new DataStore.Outcome(KvResponse.WRITE_CONFLICT,
            CatalogFence.VERSION_KEY, false);
    /** Pairs deleted per data store write when a fence or a split removes pairs. */
    private static final int DELETE_BATCH = 1000;

    /**
     * A fence command: where it moves the range's fence forward, the new fence is stored first, then the pairs
     * of the range in the spans the DDL deleted are deleted, all before the next entry. A read that meets a
     * deleted pair reads the new fence along (it is read after the data), so it fails as a catalog change
     * rather than see part of a dropped table; a write applied before this entry is deleted by it, one after it
     * is refused by the fence.
     */
    private void applyFence(CatalogFence.Command command) {
        WriteBatch advance = range.advanceFence(command);
        if (advance == null) {
            return;
        }
        data.apply(advance);
        RangeDescriptor held = range.held();
        long deleted = 0;
        for (byte[][] span : command.spans()) {
            byte[] from = max(span[0], held.start());
            byte[] to = held.end() == null ? span[1] : min(span[1], held.end());
            if (Arrays.compareUnsigned(from, to) >= 0 || MetaKeys.touchesRanges(from, to)) {
                continue; // outside this range; a range's own state is never a table's
            }
            deleted += deleteSpan(from, to);
        }
        LOG.info("catalog fence at version {}: {} pairs of dropped tables deleted", command.version(), deleted);
    }

    /** Deletes every pair of {@code [from, to)} (a null end: to the last key), some at a time; how many. */
    private long deleteSpan(byte[] from, byte[] to) {
        long deleted = 0;
        while (true) {
            List<io.kegdb.engine.KeyValue> page = data.page(from, to, DELETE_BATCH, false);
            if (page.isEmpty()) {
                return deleted;
            }
            WriteBatch delete = new WriteBatch();
            page.forEach(kv -> delete.delete(kv.key()));
            data.apply(delete);
            deleted += page.size();
        }
    }

    /**
     * Where this replica's splits make their new ranges; without it, a split entry stops the replica (its
     * new range's data would be lost on it).
     */
    public void splitsInto(RangeSplits splits) {
        this.splits = splits;
    }

    /**
     * A split (docs/SCALE.md, "Splits"), at its log index on every replica alike: the new range's replica is made
     * from the pairs of {@code [at, end)} first, then this range narrows to {@code [start, at)} (its descriptor
     * and a record of the new range, in the data store, so in every later snapshot), then those pairs are
     * deleted here, and the new range's group is started. A read of the moved keys that meets a deletion finds
     * the narrowed descriptor when it is checked after. A split naming another generation, or a key not strictly
     * inside the range, is a no-op.
     */
    private void applySplit(SplitCommand command) {
        RangeDescriptor held = range.stored();
        RangeDescriptor[] halves = range.halves(command);
        if (halves == null) {
            LOG.info("split into range {} at generation {} does not apply to {}: a no-op", command.newId(),
                    command.generation(), held);
            return;
        }
        RangeSplits into = splits;
        if (into == null) {
            throw new IllegalStateException("the log splits " + held + " but this replica has no range host to make"
                    + " range " + command.newId() + " in");
        }
        byte[] fence = data.get(CatalogFence.holdsCatalog(held) ? CatalogFence.VERSION_KEY : MetaKeys.LOCAL_FENCE);
        try (KvSnapshot now = data.snapshot(); KvIterator pairs = now.scan(command.at(), held.end(), false)) {
            into.make(command.group(), halves[1], fence, pairs);
        } catch (IOException e) {
            throw new UncheckedIOException("making range " + command.newId() + " of the split of " + held, e);
        }
        data.apply(new WriteBatch().put(MetaKeys.LOCAL_DESCRIPTOR, halves[0].encode())
                .put(MetaKeys.splitKey(command.newId()), SplitRecord.encode(command.group(), halves[1])));
        range.narrow(halves[0]);
        long moved = deleteSpan(command.at(), held.end());
        LOG.info("split: {} now, {} pairs moved to {} of group {}", halves[0], moved, halves[1], command.group());
        into.host(command.group(), halves[1]);
    }

    /** After a snapshot load: every range split off this one is hosted (made, or empty to catch up). */
    private void hostSplitRanges() {
        RangeSplits into = splits;
        if (into == null) {
            return;
        }
        for (io.kegdb.engine.KeyValue kv : data.page(MetaKeys.splitsStart(), MetaKeys.splitsEnd(), Integer.MAX_VALUE,
                false)) {
            SplitRecord record = SplitRecord.decode(kv.value());
            into.host(record.group(), record.range());
        }
    }

    private static byte[] max(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b) >= 0 ? a : b;
    }

    private static byte[] min(byte[] a, byte[] b) {
        return Arrays.compareUnsigned(a, b) <= 0 ? a : b;
    }

    /** The catalog fence's version applied so far (0: none, or a range holding the catalog). */
    long fenceVersion() {
        return range.fenceVersion();
    }

    /** The key a read's watched key is answered from at this replica (its fence, for the catalog's version). */
    byte[] watchedKey(byte[] watch) {
        return range.watchedKey(watch);
    }

    /** The descriptor of this replica's range as applied so far, or null before the log installed one. */
    public RangeDescriptor descriptor() {
        return range.stored();
    }

    /** The descriptor requests are checked by (the initial one until the log installed one). */
    RangeDescriptor heldDescriptor() {
        return range.held();
    }

    /**
     * Runs {@code listener} (on this machine's thread: it must not block) after each write this replica applies
     * that changes the catalog's version entry (a DDL, in the range holding the catalog): the ranges without
     * it then advance their fences. Without a listener no write is inspected.
     */
    public void whenCatalogChanges(Runnable listener) {
        this.catalogChanged = listener;
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
            range.load(data.get(MetaKeys.LOCAL_DESCRIPTOR), data.get(MetaKeys.LOCAL_FENCE));
            hostSplitRanges();
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
