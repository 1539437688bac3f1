package io.kegdb.raft.storage;

import io.kegdb.engine.Bitcask;
import io.kegdb.engine.BitcaskOptions;
import io.kegdb.engine.KvStore;

import java.io.IOException;
import java.nio.file.Path;

/** Opens the store a log or meta storage keeps its data in. The shipped storages open a {@link Bitcask}. */
@FunctionalInterface
interface StoreOpener {

    /** A log's segments: big enough that sealing is rare, small enough that a truncated prefix frees whole files. */
    long LOG_SEGMENT_SIZE = 64L << 20;
    /** Term and vote are two tiny keys; small segments keep merges of their history cheap. */
    long META_SEGMENT_SIZE = 1L << 20;

    KvStore open(Path dir) throws IOException;

    static StoreOpener bitcask(long segmentSize) {
        BitcaskOptions options = BitcaskOptions.builder().segmentSize(segmentSize).build();
        return dir -> Bitcask.open(dir, options);
    }
}
