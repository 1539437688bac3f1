package io.kegdb.bench;

import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.Txn;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * LMDB with {@code MDB_NOSYNC}: one write transaction per put; gets reuse one read transaction through
 * {@code mdb_txn_reset}/{@code mdb_txn_renew}, LMDB's recommended pattern for many short reads.
 */
final class LmdbStore implements StoreUnderTest {

    private final Env<ByteBuffer> env;
    private final Dbi<ByteBuffer> dbi;
    private final ByteBuffer keyBuffer;
    private final ByteBuffer valueBuffer;
    private Txn<ByteBuffer> readTxn;

    private LmdbStore(Env<ByteBuffer> env, Dbi<ByteBuffer> dbi, int maxKey, int maxValue) {
        this.env = env;
        this.dbi = dbi;
        this.keyBuffer = ByteBuffer.allocateDirect(maxKey);
        this.valueBuffer = ByteBuffer.allocateDirect(maxValue);
    }

    /** Opens with a map large enough for {@code w} (the map is address space; the file grows as used). */
    static LmdbStore open(Path dir, Workload w) {
        long perKey = w.keySize() + w.valueSize() + 64L;
        long mapSize = Math.max(256L << 20, w.keys() * perKey * 3);
        Env<ByteBuffer> env = Env.create().setMapSize(mapSize).setMaxDbs(1)
                .open(dir.toFile(), EnvFlags.MDB_NOSYNC);
        try {
            Dbi<ByteBuffer> dbi = env.openDbi("bench", DbiFlags.MDB_CREATE);
            return new LmdbStore(env, dbi, w.keySize(), w.valueSize());
        } catch (RuntimeException e) {
            env.close();
            throw e;
        }
    }

    @Override
    public void put(byte[] key, byte[] value) {
        keyBuffer.clear();
        keyBuffer.put(key).flip();
        valueBuffer.clear();
        valueBuffer.put(value).flip();
        try (Txn<ByteBuffer> txn = env.txnWrite()) {
            dbi.put(txn, keyBuffer, valueBuffer);
            txn.commit();
        }
    }

    @Override
    public byte[] get(byte[] key) {
        keyBuffer.clear();
        keyBuffer.put(key).flip();
        if (readTxn == null) {
            readTxn = env.txnRead();
        } else {
            readTxn.renew();
        }
        try {
            ByteBuffer found = dbi.get(readTxn, keyBuffer);
            if (found == null) {
                return null;
            }
            byte[] copy = new byte[found.remaining()];
            found.get(copy);
            return copy;
        } finally {
            readTxn.reset();
        }
    }

    @Override
    public long reportedMemoryBytes() {
        return -1;
    }

    @Override
    public void close() {
        if (readTxn != null) {
            readTxn.close();
        }
        dbi.close();
        env.close();
    }
}
