package io.kegdb.raft.replication;

import com.alipay.sofa.jraft.JRaftServiceFactory;
import com.alipay.sofa.jraft.JRaftUtils;
import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.option.BootstrapOptions;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.range.MetaKeys;
import io.kegdb.raft.range.RangeDescriptor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Makes a new range's replica directory from the pairs a split moves (docs/SCALE.md, "Splits", step 2): a
 * group directory ({@code log/}, {@code meta/}, {@code snapshot/}) bootstrapped by SOFAJRaft's
 * {@link JRaftUtils#bootstrap} with a snapshot at log index {@value #SNAPSHOT_INDEX} holding those pairs, the
 * new range's descriptor and its catalog fence, and the range's replicas as the group's configuration. Every
 * replica makes it from the same pairs at the same index of the splitting range's log, so every replica holds
 * the same new range without any transfer.
 *
 * <p>Crash story: the marker file {@value #MARKER} is written last and fsynced (with its directory). A directory
 * without it is a split interrupted in the middle: it is removed and made again when the split is applied again
 * (the splitting range's log is replayed after a restart, and the split with it). A complete one is kept as it
 * is, whatever its group did since. A replica that did not make the range (see {@link #prepareEmpty}) keeps
 * its directory by a marker of its own.
 */
public final class RangeBootstrap {

    /**
     * The log index of the bootstrap snapshot: the same on every replica. Above 1, where SOFAJRaft's bootstrap
     * puts the configuration entry, so that the snapshot truncates the log behind it (at 1 the log would keep
     * its first entry, and the bootstrap refuses that).
     */
    static final long SNAPSHOT_INDEX = 2;
    static final String MARKER = "SPLIT_COMPLETE";
    static final String EMPTY_MARKER = "STARTED_EMPTY";
    private static final int COPY_BATCH = 1000;

    private RangeBootstrap() {
    }

    /** Whether {@code groupDir} holds a replica a split made completely. */
    public static boolean isComplete(Path groupDir) {
        return Files.isRegularFile(groupDir.resolve(MARKER));
    }

    /** Whether {@code groupDir} holds a replica started empty by {@link #prepareEmpty} (it keeps what it got). */
    public static boolean isEmptyStarted(Path groupDir) {
        return Files.isRegularFile(groupDir.resolve(EMPTY_MARKER));
    }

    /**
     * Prepares {@code groupDir} for a replica of a range this replica did not make (it caught up on the
     * splitting range by a snapshot taken after the split): what an interrupted split left is removed, and a
     * marker says that the directory is this replica's from now on. Its log and Raft meta are then never
     * removed again, so a vote it cast is never forgotten; it starts without a configuration each time until
     * its log holds one, so it stands in no election before its group's leader sent it the group's state.
     */
    public static void prepareEmpty(Path groupDir) throws IOException {
        if (isComplete(groupDir) || isEmptyStarted(groupDir)) {
            return;
        }
        DataStore.deleteTree(groupDir);
        Files.createDirectories(groupDir);
        writeMarker(groupDir.resolve(EMPTY_MARKER), "started empty");
    }

    /**
     * Makes the replica of {@code range} (group {@code group}) in {@code groupDir} unless a complete one is there.
     *
     * @param fence the catalog fence the new range begins with (null: none)
     * @return whether it was made now (false: a complete one was kept)
     */
    public static boolean make(Path groupDir, String group, RangeDescriptor range, byte[] fence, KvIterator pairs,
                               JRaftServiceFactory storage) throws IOException {
        if (isComplete(groupDir) || isEmptyStarted(groupDir)) {
            return false; // kept as it is: a replica's log and votes are never thrown away
        }
        DataStore.deleteTree(groupDir);
        for (String sub : new String[]{"log", "meta", "snapshot"}) {
            Files.createDirectories(groupDir.resolve(sub));
        }
        Path staging = groupDir.resolve("staging");
        DataStore data = DataStore.openEmpty(staging);
        try {
            WriteBatch batch = new WriteBatch().put(MetaKeys.LOCAL_DESCRIPTOR, range.encode());
            if (fence != null) {
                batch.put(MetaKeys.LOCAL_FENCE, fence);
            }
            while (pairs.hasNext()) {
                KeyValue kv = pairs.next();
                batch.put(kv.key(), kv.value());
                if (batch.size() >= COPY_BATCH) {
                    data.apply(batch);
                    batch = new WriteBatch();
                }
            }
            data.apply(batch);
            BootstrapOptions options = new BootstrapOptions();
            options.setGroupId(group);
            options.setFsm(new KvStateMachine(data));
            options.setLogUri(groupDir.resolve("log").toString());
            options.setRaftMetaUri(groupDir.resolve("meta").toString());
            options.setSnapshotUri(groupDir.resolve("snapshot").toString());
            options.setLastLogIndex(SNAPSHOT_INDEX);
            options.setGroupConf(configuration(range));
            options.setServiceFactory(storage);
            if (!JRaftUtils.bootstrap(options)) {
                throw new IOException("SOFAJRaft could not bootstrap group " + group + " in " + groupDir);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while making group " + group, e);
        } finally {
            data.close();
        }
        DataStore.deleteTree(staging);
        writeMarker(groupDir.resolve(MARKER), group);
        return true;
    }

    /** The group configuration of a range: its replicas as voters. */
    public static Configuration configuration(RangeDescriptor range) {
        Configuration conf = new Configuration();
        for (String replica : range.replicas()) {
            PeerId peer = PeerId.parsePeer(replica);
            if (peer == null) {
                throw new IllegalArgumentException("range " + range.id() + " names replica " + replica);
            }
            conf.addPeer(peer);
        }
        return conf;
    }

    /** Writes {@code marker} and fsyncs it, its directory and that directory's parent. */
    private static void writeMarker(Path marker, String text) throws IOException {
        try (FileChannel channel = FileChannel.open(marker, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            channel.write(ByteBuffer.wrap((text + "\n").getBytes(StandardCharsets.UTF_8)));
            channel.force(true);
        }
        syncDirectory(marker.getParent());
        syncDirectory(marker.getParent().getParent());
    }

    private static void syncDirectory(Path dir) throws IOException {
        try (FileChannel channel = FileChannel.open(dir, StandardOpenOption.READ)) {
            channel.force(true);
        } catch (IOException e) {
            // Some filesystems refuse fsync on a directory; there the entry is as durable as it gets.
            if (!String.valueOf(e.getMessage()).contains("Is a directory")) {
                throw e;
            }
        }
    }
}
