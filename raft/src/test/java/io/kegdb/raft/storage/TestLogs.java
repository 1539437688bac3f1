package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.conf.ConfigurationEntry;
import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.EnumOutter.EntryType;
import com.alipay.sofa.jraft.entity.LogEntry;
import com.alipay.sofa.jraft.entity.LogId;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.entity.codec.LogEntryCodecFactory;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Builders of log entries and opened log storages shared by the raft tests. */
final class TestLogs {

    /** Where the storages under test keep their data: the engine, or the in-memory double before it lands. */
    static final StoreOpener STORES = StoreOpener.bitcask(StoreOpener.LOG_SEGMENT_SIZE);

    private TestLogs() {
    }

    static RaftOptions raftOptions(boolean sync) {
        RaftOptions options = new RaftOptions();
        options.setSync(sync);
        return options;
    }

    static BitcaskLogStorage open(Path dir, ConfigurationManager confs) {
        return open(dir, confs, LogEntryV2CodecFactory.getInstance());
    }

    static BitcaskLogStorage open(Path dir, ConfigurationManager confs, LogEntryCodecFactory codec) {
        BitcaskLogStorage log = new BitcaskLogStorage(dir.toString(), raftOptions(true), STORES);
        if (!log.init(options(confs, codec))) {
            throw new AssertionError("init of " + dir + " failed");
        }
        return log;
    }

    static LogStorageOptions options(ConfigurationManager confs, LogEntryCodecFactory codec) {
        LogStorageOptions opts = new LogStorageOptions();
        opts.setConfigurationManager(confs);
        opts.setLogEntryCodecFactory(codec);
        opts.setGroupId("test");
        return opts;
    }

    static LogEntry data(long index, long term) {
        return data(index, term, ("entry-" + index + "-" + term).getBytes(StandardCharsets.UTF_8));
    }

    static LogEntry data(long index, long term, byte[] payload) {
        LogEntry e = new LogEntry(EntryType.ENTRY_TYPE_DATA);
        e.setId(new LogId(index, term));
        e.setData(ByteBuffer.wrap(payload));
        return e;
    }

    static LogEntry conf(long index, long term, String... peers) {
        LogEntry e = new LogEntry(EntryType.ENTRY_TYPE_CONFIGURATION);
        e.setId(new LogId(index, term));
        List<PeerId> list = new ArrayList<>();
        for (String p : peers) {
            list.add(PeerId.parsePeer(p));
        }
        e.setPeers(list);
        return e;
    }

    static List<LogEntry> range(long fromInclusive, long toInclusive, long term) {
        List<LogEntry> list = new ArrayList<>();
        for (long i = fromInclusive; i <= toInclusive; i++) {
            list.add(data(i, term));
        }
        return list;
    }

    static String text(LogEntry e) {
        ByteBuffer b = e.getData().duplicate();
        byte[] bytes = new byte[b.remaining()];
        b.get(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    /** A configuration manager that remembers the order of the indexes added to it. */
    static final class RecordingConfigurations extends ConfigurationManager {
        final List<Long> added = new ArrayList<>();

        @Override
        public boolean add(ConfigurationEntry entry) {
            added.add(entry.getId().getIndex());
            return super.add(entry);
        }
    }
}
