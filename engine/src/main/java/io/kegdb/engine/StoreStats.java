package io.kegdb.engine;

/**
 * What every {@link KvStore} can say about its contents at one moment. Stores say more through their own
 * types: a {@link Bitcask} returns {@link BitcaskStats}, with its segments, garbage and merges.
 */
public interface StoreStats {

    /** Live keys. */
    long keys();

    /** Bytes the live keys and values take as the store holds them (with any per-record framing). */
    long liveBytes();
}
