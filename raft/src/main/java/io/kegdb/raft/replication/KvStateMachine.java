package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.Closure;
import com.alipay.sofa.jraft.Iterator;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.core.StateMachineAdapter;
import com.alipay.sofa.jraft.error.RaftError;
import com.alipay.sofa.jraft.error.RaftException;
import com.alipay.sofa.jraft.storage.snapshot.SnapshotReader;
import com.alipay.sofa.jraft.storage.snapshot.SnapshotWriter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.stream.Stream;

/**
 * Applies committed write batches, in log order, to the node's {@link DataStore}. Applying depends only on
 * the entry and the store, so every node reaches the same state; a put-if-absent conflict is decided here,
 * at apply time, and reported to the proposer through its {@link WriteClosure}.
 *
 * <p>A snapshot is a backup of the data store in the snapshot's {@value #SNAPSHOT_DATA} subdirectory.
 */
public final class KvStateMachine extends StateMachineAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(KvStateMachine.class);
    static final String SNAPSHOT_DATA = "data";

    private final DataStore data;
    private volatile long snapshotsLoaded;

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
                outcome = data.apply(BatchCodec.decode(bytes));
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
            snapshotsLoaded++;
            LOG.info("loaded the snapshot at log index {} from {}", reader.load().getLastIncludedIndex(), source);
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.error("loading the snapshot in {} failed", source, e);
            return false;
        }
    }

    @Override
    public void onError(RaftException e) {
        LOG.error("the raft node stopped on an error: {}", e.getStatus(), e);
    }

    public long snapshotsLoaded() {
        return snapshotsLoaded;
    }
}
