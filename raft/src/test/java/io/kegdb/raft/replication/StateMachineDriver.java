package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.Closure;
import com.alipay.sofa.jraft.Status;
import com.alipay.sofa.jraft.entity.RaftOutter;
import com.alipay.sofa.jraft.storage.snapshot.SnapshotReader;
import com.alipay.sofa.jraft.storage.snapshot.SnapshotWriter;
import com.google.protobuf.Message;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.range.RangeDescriptor;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Feeds log entries to a {@link KvStateMachine} one at a time, as SOFAJRaft's apply loop does, and takes and
 * loads its snapshots through the same calls: the state machine's rules tested without a group around it.
 */
final class StateMachineDriver implements AutoCloseable {

    static final SessionId SESSION = new SessionId(7, 7);

    final DataStore data;
    final KvStateMachine fsm;
    private long index;
    private long serial;

    StateMachineDriver(Path dir) throws Exception {
        this.data = DataStore.openEmpty(dir);
        this.fsm = new KvStateMachine(data);
        apply(LogEntry.openSession(1, SESSION));
    }

    /** Applies one entry; returns what applying it answered. */
    DataStore.Outcome apply(LogEntry entry) {
        AtomicReference<DataStore.Outcome> outcome = new AtomicReference<>();
        AtomicReference<Status> failed = new AtomicReference<>();
        WriteClosure done = new WriteClosure((status, o) -> outcome.set(o));
        byte[] bytes = entry.encode();
        long at = ++index;
        fsm.onApply(new com.alipay.sofa.jraft.Iterator() {
            private boolean consumed;

            @Override
            public boolean hasNext() {
                return !consumed;
            }

            @Override
            public ByteBuffer next() {
                consumed = true;
                return null;
            }

            @Override
            public ByteBuffer getData() {
                return ByteBuffer.wrap(bytes);
            }

            @Override
            public long getIndex() {
                return at;
            }

            @Override
            public long getTerm() {
                return 1;
            }

            @Override
            public Closure done() {
                return done;
            }

            @Override
            public void setAutoCommitPerLog(boolean status) {
            }

            @Override
            public boolean commit() {
                return false;
            }

            @Override
            public void commitAndSnapshotSync(Closure done) {
            }

            @Override
            public void setErrorAndRollback(long ntail, Status st) {
                failed.set(st);
                consumed = true;
            }
        });
        if (failed.get() != null) {
            throw new IllegalStateException("entry " + at + " failed: " + failed.get());
        }
        return outcome.get();
    }

    /** A client write naming {@code range} (its id and generation). */
    DataStore.Outcome write(RangeDescriptor range, WriteBatch batch) {
        return apply(LogEntry.write(2, SESSION, ++serial, serial, range.id(), range.generation(), BatchCodec.encode(batch)));
    }

    void install(RangeDescriptor range) {
        apply(LogEntry.initDescriptor(2, range.encode()));
    }

    /** Saves a snapshot into {@code dir} (empty), as SOFAJRaft's snapshot executor asks for one. */
    void saveSnapshot(Path dir) {
        Set<String> files = new HashSet<>();
        AtomicReference<Status> result = new AtomicReference<>();
        fsm.onSnapshotSave(new SnapshotWriter() {
            @Override
            public boolean saveMeta(RaftOutter.SnapshotMeta meta) {
                return true;
            }

            @Override
            public boolean addFile(String fileName, Message fileMeta) {
                return files.add(fileName);
            }

            @Override
            public boolean removeFile(String fileName) {
                return files.remove(fileName);
            }

            @Override
            public void close(boolean keepDataOnError) {
            }

            @Override
            public void close() {
            }

            @Override
            public String getPath() {
                return dir.toString();
            }

            @Override
            public Set<String> listFiles() {
                return files;
            }

            @Override
            public Message getFileMeta(String fileName) {
                return null;
            }

            @Override
            public boolean init(Void opts) {
                return true;
            }

            @Override
            public void shutdown() {
            }
        }, result::set);
        if (!result.get().isOk()) {
            throw new IllegalStateException("snapshot not saved: " + result.get());
        }
    }

    /** Loads a snapshot {@link #saveSnapshot} saved in {@code dir}. */
    void loadSnapshot(Path dir) {
        boolean loaded = fsm.onSnapshotLoad(new SnapshotReader() {
            @Override
            public RaftOutter.SnapshotMeta load() {
                return RaftOutter.SnapshotMeta.newBuilder().setLastIncludedIndex(index).setLastIncludedTerm(1).build();
            }

            @Override
            public String generateURIForCopy() {
                return null;
            }

            @Override
            public void close() {
            }

            @Override
            public String getPath() {
                return dir.toString();
            }

            @Override
            public Set<String> listFiles() {
                return Set.of();
            }

            @Override
            public Message getFileMeta(String fileName) {
                return null;
            }

            @Override
            public boolean init(Void opts) {
                return true;
            }

            @Override
            public void shutdown() {
            }
        });
        if (!loaded) {
            throw new IllegalStateException("snapshot in " + dir + " not loaded");
        }
    }

    /** The pairs of {@code [from, to)} in the data store, keys only. */
    List<byte[]> keys(byte[] from, byte[] to) {
        return data.page(from, to, Integer.MAX_VALUE, false).stream().map(io.kegdb.engine.KeyValue::key).toList();
    }

    @Override
    public void close() {
        data.close();
    }
}
