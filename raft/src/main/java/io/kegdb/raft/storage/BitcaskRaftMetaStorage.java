package io.kegdb.raft.storage;

import com.alipay.sofa.jraft.entity.PeerId;
import com.alipay.sofa.jraft.error.RaftError;
import com.alipay.sofa.jraft.error.RaftException;
import com.alipay.sofa.jraft.entity.EnumOutter.ErrorType;
import com.alipay.sofa.jraft.core.NodeImpl;
import com.alipay.sofa.jraft.option.RaftMetaStorageOptions;
import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.RaftMetaStorage;
import io.kegdb.engine.Bitcask;
import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A SOFAJRaft {@link RaftMetaStorage} (current term and vote) kept in its own {@link Bitcask} store.
 *
 * <p>Every set writes term and vote together as one atomic batch, synced when {@link RaftOptions#isSync()}
 * or {@link RaftOptions#isSyncMeta()} is on (the default), so a restarted node never votes twice in a term.
 * Reads are served from memory. {@link #getVotedFor()} is never null: an empty {@link PeerId} means no vote.
 */
public class BitcaskRaftMetaStorage implements RaftMetaStorage {

    private static final Logger LOG = LoggerFactory.getLogger(BitcaskRaftMetaStorage.class);
    private static final byte[] TERM = "term".getBytes(StandardCharsets.UTF_8);
    private static final byte[] VOTED_FOR = "votedFor".getBytes(StandardCharsets.UTF_8);

    private final String path;
    private final Durability durability;
    private final StoreOpener opener;

    private volatile KvStore store;
    private NodeImpl node;
    private volatile long term;
    private volatile PeerId votedFor = PeerId.emptyPeer();

    /**
     * @param path        directory of the meta storage's Bitcask store; created if missing
     * @param raftOptions sets are fsynced when {@code isSync()} or {@code isSyncMeta()}
     */
    public BitcaskRaftMetaStorage(String path, RaftOptions raftOptions) {
        this(path, raftOptions, StoreOpener.bitcask(StoreOpener.META_SEGMENT_SIZE));
    }

    BitcaskRaftMetaStorage(String path, RaftOptions raftOptions, StoreOpener opener) {
        this.path = Objects.requireNonNull(path, "path");
        this.durability = raftOptions.isSync() || raftOptions.isSyncMeta() ? Durability.SYNC : Durability.NO_SYNC;
        this.opener = opener;
    }

    @Override
    public synchronized boolean init(RaftMetaStorageOptions opts) {
        if (store != null) {
            LOG.warn("Raft meta storage in {} is already initialized", path);
            return true;
        }
        node = opts == null ? null : opts.getNode();
        KvStore kv = null;
        try {
            Files.createDirectories(Path.of(path));
            kv = opener.open(Path.of(path));
            byte[] t = kv.get(TERM);
            byte[] v = kv.get(VOTED_FOR);
            PeerId peer = PeerId.emptyPeer();
            if (v != null && !peer.parse(new String(v, StandardCharsets.UTF_8))) {
                throw new IOException("unparsable votedFor '" + new String(v, StandardCharsets.UTF_8) + "' in " + path);
            }
            term = t == null ? 0 : LogKeys.decodeLong(t);
            votedFor = peer;
            store = kv;
            return true;
        } catch (IOException | RuntimeException e) {
            LOG.error("Fail to init raft meta storage in {}", path, e);
            if (kv != null) {
                kv.close();
            }
            return false;
        }
    }

    @Override
    public synchronized void shutdown() {
        KvStore kv = store;
        store = null;
        if (kv != null) {
            try {
                kv.close();
            } catch (RuntimeException e) {
                LOG.error("Fail to close raft meta storage in {}", path, e);
            }
        }
    }

    @Override
    public boolean setTerm(long term) {
        return save(term, votedFor);
    }

    @Override
    public long getTerm() {
        checkState();
        return term;
    }

    @Override
    public boolean setVotedFor(PeerId peerId) {
        return save(term, peerId);
    }

    @Override
    public PeerId getVotedFor() {
        checkState();
        return votedFor;
    }

    @Override
    public boolean setTermAndVotedFor(long term, PeerId peerId) {
        return save(term, peerId);
    }

    private synchronized boolean save(long newTerm, PeerId newVotedFor) {
        KvStore kv = checkState();
        PeerId peer = newVotedFor == null ? PeerId.emptyPeer() : newVotedFor;
        try {
            kv.write(new WriteBatch()
                    .put(TERM, LogKeys.encodeLong(newTerm))
                    .put(VOTED_FOR, peer.toString().getBytes(StandardCharsets.UTF_8)), durability);
        } catch (RuntimeException e) {
            LOG.error("Fail to save raft meta (term {}, votedFor {}) in {}", newTerm, peer, path, e);
            if (node != null) {
                node.onError(new RaftException(ErrorType.ERROR_TYPE_META, RaftError.EIO,
                        "Fail to save raft meta, path=%s", path));
            }
            return false;
        }
        term = newTerm;
        votedFor = peer;
        return true;
    }

    private KvStore checkState() {
        KvStore kv = store;
        if (kv == null) {
            throw new IllegalStateException("Raft meta storage in " + path + " is not initialized");
        }
        return kv;
    }

    @Override
    public String toString() {
        return "BitcaskRaftMetaStorage[path=" + path + ", term=" + term + ", votedFor=" + votedFor + "]";
    }
}
