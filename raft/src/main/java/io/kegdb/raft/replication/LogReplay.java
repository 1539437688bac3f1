package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.conf.ConfigurationManager;
import com.alipay.sofa.jraft.entity.EnumOutter;
import com.alipay.sofa.jraft.entity.codec.v2.LogEntryV2CodecFactory;
import com.alipay.sofa.jraft.option.LogStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.range.CatalogFence;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.SplitCommand;
import io.kegdb.raft.storage.BitcaskLogStorage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Replays the client writes of a stopped node's Raft log through the rules the state machine applies them
 * by, telling for each write entry whether it was applied or answered as a duplicate, or refused (its
 * session unknown, its route stale: the range's descriptor, replayed from the log too, did not hold it; its
 * catalog version below the range's catalog fence, replayed too).
 */
public final class LogReplay {

    /**
     * One client write in the log.
     *
     * @param session the client session's id in hex, or null for an entry written before sessions
     * @param applied whether applying the log applied it (false: a duplicate, or refused)
     */
    public record Write(long index, String session, long serial, boolean applied, WriteBatch batch) {
    }

    private LogReplay() {
    }

    /** The writes in entries 1..{@code upTo} of the log in {@code logDir}, which must start at entry 1. */
    public static List<Write> replay(Path logDir, long upTo) throws IOException {
        if (!Files.isDirectory(logDir)) {
            throw new IOException(logDir + " is not a log directory");
        }
        BitcaskLogStorage log = new BitcaskLogStorage(logDir.toString(), new RaftOptions());
        LogStorageOptions options = new LogStorageOptions();
        options.setConfigurationManager(new ConfigurationManager());
        options.setLogEntryCodecFactory(LogEntryV2CodecFactory.getInstance());
        if (!log.init(options)) {
            throw new IOException("cannot open the log in " + logDir);
        }
        try {
            if (log.getFirstLogIndex() != 1) {
                throw new IOException("the log in " + logDir + " starts at entry " + log.getFirstLogIndex()
                        + " (truncated behind a snapshot): the sessions before it are unknown");
            }
            SessionTable sessions = new SessionTable();
            ReplicaRange range = new ReplicaRange();
            List<Write> writes = new ArrayList<>();
            long last = Math.min(upTo, log.getLastLogIndex());
            for (long i = 1; i <= last; i++) {
                com.alipay.sofa.jraft.entity.LogEntry entry = log.getEntry(i);
                if (entry == null || entry.getType() != EnumOutter.EntryType.ENTRY_TYPE_DATA || entry.getData() == null) {
                    continue;
                }
                ByteBuffer data = entry.getData();
                byte[] bytes = new byte[data.remaining()];
                data.duplicate().get(bytes);
                if (!LogEntry.isSessionEntry(bytes)) {
                    WriteBatch batch = BatchCodec.decode(bytes);
                    writes.add(new Write(i, null, 0, range.applies(0, 0, batch), batch));
                    continue;
                }
                LogEntry e = LogEntry.decode(bytes);
                sessions.advance(e.time());
                if (e.kind() == LogEntry.OPEN_SESSION) {
                    sessions.open(e.session());
                    continue;
                }
                if (e.kind() == LogEntry.INIT_DESCRIPTOR) {
                    range.install(e.batch());
                    continue;
                }
                if (e.kind() == LogEntry.SPLIT) {
                    RangeDescriptor[] halves = range.halves(SplitCommand.decode(e.batch()));
                    if (halves != null) {
                        range.narrow(halves[0]);
                    }
                    continue;
                }
                if (e.kind() == LogEntry.FENCE) {
                    range.advanceFence(CatalogFence.Command.decode(e.batch()));
                    continue;
                }
                // Whether a request applies depends on the table and the range's descriptor only, never on an
                // earlier result's content.
                WriteBatch batch = BatchCodec.decode(e.batch());
                boolean applied = false;
                if (sessions.answerWithoutApplying(e.session(), e.serial(), e.floor()) == null) {
                    applied = range.applies(e.range(), e.generation(), batch);
                    sessions.record(e.session(), e.serial(), applied ? new DataStore.Outcome(KvResponse.OK, null, false)
                            : KvStateMachine.STALE_ROUTE);
                }
                writes.add(new Write(i, e.session().toString(), e.serial(), applied, batch));
            }
            return writes;
        } finally {
            log.shutdown();
        }
    }
}
