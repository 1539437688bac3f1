package io.kegdb.bench;

import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

import java.nio.file.Path;

/** RocksDB with default options: write-ahead log on, no sync per write. */
final class RocksDbStore implements StoreUnderTest {

    static {
        RocksDB.loadLibrary();
    }

    private final Options options;
    private final WriteOptions writeOptions;
    private final RocksDB db;

    private RocksDbStore(Options options, WriteOptions writeOptions, RocksDB db) {
        this.options = options;
        this.writeOptions = writeOptions;
        this.db = db;
    }

    static RocksDbStore open(Path dir) throws RocksDBException {
        Options options = new Options().setCreateIfMissing(true);
        WriteOptions writeOptions = new WriteOptions().setSync(false).setDisableWAL(false);
        try {
            return new RocksDbStore(options, writeOptions, RocksDB.open(options, dir.toString()));
        } catch (RocksDBException | RuntimeException e) {
            writeOptions.close();
            options.close();
            throw e;
        }
    }

    @Override
    public void put(byte[] key, byte[] value) throws RocksDBException {
        db.put(writeOptions, key, value);
    }

    @Override
    public byte[] get(byte[] key) throws RocksDBException {
        return db.get(key);
    }

    @Override
    public long reportedMemoryBytes() {
        try {
            return db.getLongProperty("rocksdb.cur-size-all-mem-tables")
                    + db.getLongProperty("rocksdb.block-cache-usage")
                    + db.getLongProperty("rocksdb.estimate-table-readers-mem");
        } catch (RocksDBException e) {
            return -1;
        }
    }

    @Override
    public void close() {
        db.close();
        writeOptions.close();
        options.close();
    }
}
