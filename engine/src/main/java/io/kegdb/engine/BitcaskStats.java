package io.kegdb.engine;

import java.util.List;

/**
 * A point-in-time view of a {@link Bitcask} store.
 *
 * @param keys          live keys
 * @param segments      data segment files
 * @param liveBytes     bytes of records the keydir points at
 * @param deadBytes     bytes of overwritten or deleted records and tombstones, reclaimable by merge
 * @param merges        merges completed since the store was opened
 * @param keydirBytes   memory the keydir holds (heap and off-heap), estimated
 * @param segmentStats  one entry per segment, ascending id
 */
public record BitcaskStats(long keys, int segments, long liveBytes, long deadBytes, long merges,
                           long keydirBytes, List<SegmentStats> segmentStats) implements StoreStats {
}
