package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.core.DefaultJRaftServiceFactory;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import com.alipay.sofa.jraft.storage.RaftMetaStorage;
import com.alipay.sofa.jraft.util.Requires;
import com.alipay.sofa.jraft.util.SPI;

/**
 * SOFAJRaft services with the log and the raft meta kept in Bitcask stores; snapshots and the entry codec
 * stay SOFAJRaft's defaults.
 *
 * <p>Registered in {@code META-INF/services/com.alipay.sofa.jraft.JRaftServiceFactory} with a priority above
 * the default, so with this jar on the classpath it is {@code NodeOptions}' default factory; it can also be
 * set explicitly with {@code nodeOptions.setServiceFactory(new KegRaftServiceFactory())}. The log and meta
 * URIs name two different directories.
 */
@SPI(priority = KegRaftServiceFactory.PRIORITY)
public class KegRaftServiceFactory extends DefaultJRaftServiceFactory {

    /** Above {@link DefaultJRaftServiceFactory}'s 0. */
    public static final int PRIORITY = 100;

    @Override
    public LogStorage createLogStorage(String uri, RaftOptions raftOptions) {
        Requires.requireTrue(uri != null && !uri.isBlank(), "Blank log storage uri.");
        return new BitcaskLogStorage(uri, raftOptions);
    }

    @Override
    public RaftMetaStorage createRaftMetaStorage(String uri, RaftOptions raftOptions) {
        Requires.requireTrue(uri != null && !uri.isBlank(), "Blank raft meta storage uri.");
        return new BitcaskRaftMetaStorage(uri, raftOptions);
    }

    /** A factory for {@code NodeOptions.setServiceFactory}. */
    public static KegRaftServiceFactory newInstance() {
        return new KegRaftServiceFactory();
    }
}
