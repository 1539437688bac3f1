package io.kegdb.bench.raft;

import com.alipay.sofa.jraft.option.RaftOptions;
import com.alipay.sofa.jraft.storage.LogStorage;
import com.alipay.sofa.jraft.storage.RaftMetaStorage;
import com.alipay.sofa.jraft.storage.impl.LocalRaftMetaStorage;
import com.alipay.sofa.jraft.storage.impl.RocksDBLogStorage;
import io.kegdb.raft.storage.BitcaskLogStorage;
import io.kegdb.raft.storage.BitcaskRaftMetaStorage;

/** A side of the comparison: the log storage and the raft meta storage a SOFAJRaft node would use. */
enum RaftStore {
    /** KegDB: both on the Bitcask engine. */
    BITCASK("BitcaskLogStorage") {
        @Override
        LogStorage newLog(String path, RaftOptions options) {
            return new BitcaskLogStorage(path, options);
        }

        @Override
        RaftMetaStorage newMeta(String path, RaftOptions options) {
            return new BitcaskRaftMetaStorage(path, options);
        }
    },
    /** SOFAJRaft's defaults: the log in RocksDB, the meta in a protobuf file. */
    ROCKSDB("RocksDBLogStorage") {
        @Override
        LogStorage newLog(String path, RaftOptions options) {
            return new RocksDBLogStorage(path, options);
        }

        @Override
        RaftMetaStorage newMeta(String path, RaftOptions options) {
            return new LocalRaftMetaStorage(path, options);
        }
    };

    final String label;

    RaftStore(String label) {
        this.label = label;
    }

    abstract LogStorage newLog(String path, RaftOptions options);

    abstract RaftMetaStorage newMeta(String path, RaftOptions options);
}
