package io.kegdb.bench.raft;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.core.NodeImpl;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftMetaStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import com.alipay.sofa.jraft.storage.RaftMetaStorage;
import com.alipay.sofa.jraft.util.ThreadPoolsFactory;

import io.kegdb.bench.ScratchDirectory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/** A fresh, opened log storage and meta storage in a directory of their own, deleted on close. */
final class StoreFixture implements AutoCloseable {

    private static final String GROUP = "bench";
    /** LocalRaftMetaStorage reads its metrics from a node; an uninitialized one has none and starts nothing. */
    private static final NodeImpl NODE = new NodeImpl(GROUP, new PeerId("127.0.0.1", 1));

    static {
        // RocksDBLogStorage deletes each truncated prefix on a task of the group's pool. SOFAJRaft's global
        // pool hands tasks over without a queue and rejects one now and then at DeleteRange's call rate; a
        // node calls truncatePrefix far less often. A queued pool of the group's own keeps the benchmark going.
        ThreadPoolExecutor pool = new ThreadPoolExecutor(2, 2, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                r -> {
                    Thread t = new Thread(r, "bench-truncate");
                    t.setDaemon(true);
                    return t;
                });
        ThreadPoolsFactory.registerThreadPool(GROUP, pool);
    }

    final LogStorage log;
    final RaftMetaStorage meta;
    private final Path dir;

    StoreFixture(RaftStore store, boolean sync, Path parent) {
        RaftOptions options = new RaftOptions();
        options.setSync(sync);
        options.setSyncMeta(sync);
        try {
            Files.createDirectories(parent);
            dir = Files.createTempDirectory(parent, store.name().toLowerCase() + "-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        log = store.newLog(dir.resolve("log").toString(), options);
        LogStorageOptions logOptions = new LogStorageOptions();
        logOptions.setGroupId(GROUP);
        logOptions.setConfigurationManager(new ConfigurationManager());
        logOptions.setLogEntryCodecFactory(LogEntryV2CodecFactory.getInstance());
        if (!log.init(logOptions)) {
            throw new IllegalStateException("cannot open " + store.label + " in " + dir);
        }
        meta = store.newMeta(dir.resolve("meta").toString(), options);
        RaftMetaStorageOptions metaOptions = new RaftMetaStorageOptions();
        metaOptions.setNode(NODE);
        if (!meta.init(metaOptions)) {
            throw new IllegalStateException("cannot open the meta storage of " + store.label + " in " + dir);
        }
    }

    @Override
    public void close() {
        log.shutdown();
        meta.shutdown();
        try {
            ScratchDirectory.deleteTree(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
