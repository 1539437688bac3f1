package io.kegdb.engine;

/** One data segment as seen by {@link Bitcask#stats()}. */
public record SegmentStats(long id, long bytes, long liveBytes, long deadBytes, boolean active) {
}
