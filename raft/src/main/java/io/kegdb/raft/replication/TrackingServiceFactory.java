package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.JRaftServiceFactory;
import com.alipay.sofa.jraft.entity.codec.LogEntryCodecFactory;
import com.alipay.sofa.jraft.option.NodeOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import com.alipay.sofa.jraft.storage.RaftMetaStorage;
import com.alipay.sofa.jraft.storage.SnapshotStorage;

/**
 * Delegates to another factory and keeps the log and meta storages it creates: the node exposes neither the
 * log's first index nor the current term.
 */
public final class TrackingServiceFactory implements JRaftServiceFactory {

    private final JRaftServiceFactory delegate;
    private volatile LogStorage logStorage;
    private volatile RaftMetaStorage metaStorage;

    public TrackingServiceFactory(JRaftServiceFactory delegate) {
        this.delegate = delegate;
    }

    @Override
    public LogStorage createLogStorage(String uri, RaftOptions raftOptions) {
        LogStorage storage = delegate.createLogStorage(uri, raftOptions);
        logStorage = storage;
        return storage;
    }

    @Override
    public SnapshotStorage createSnapshotStorage(NodeOptions nodeOptions) {
        return delegate.createSnapshotStorage(nodeOptions);
    }

    @Override
    public RaftMetaStorage createRaftMetaStorage(String uri, RaftOptions raftOptions) {
        RaftMetaStorage storage = delegate.createRaftMetaStorage(uri, raftOptions);
        metaStorage = storage;
        return storage;
    }

    @Override
    public LogEntryCodecFactory createLogEntryCodecFactory() {
        return delegate.createLogEntryCodecFactory();
    }

    /** The log's first index, or 0 before the log exists. */
    public long firstLogIndex() {
        LogStorage s = logStorage;
        return s == null ? 0 : s.getFirstLogIndex();
    }

    /** The current term as last persisted, or 0 before the meta storage exists. */
    public long term() {
        RaftMetaStorage s = metaStorage;
        return s == null ? 0 : s.getTerm();
    }
}
