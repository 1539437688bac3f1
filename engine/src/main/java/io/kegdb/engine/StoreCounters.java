package io.kegdb.engine;

import io.kegdb.engine.meter.Histogram;

import java.util.concurrent.atomic.LongAdder;

/**
 * The counters a {@link Bitcask} keeps on its paths for its meters ({@link Bitcask#meters()}): striped adders
 * and lock-free histograms, so that counting costs a reader or writer a few nanoseconds and no allocation.
 * What the store can tell from its own state (keys, bytes, segments) is not counted here but read at export.
 */
final class StoreCounters {

    /** Key lookups: gets and contains. */
    final LongAdder lookups = new LongAdder();
    /** Records read by scans. */
    final LongAdder scanned = new LongAdder();
    /** Writes that appended: puts, deletes of present keys, batches. */
    final LongAdder writes = new LongAdder();
    /** Writes refused because a precondition of their batch failed. */
    final LongAdder conflicts = new LongAdder();
    /** Time of each fsync of the active segment, in nanoseconds. */
    final Histogram fsyncs = Histogram.nanoseconds();
    /** SYNC writers that waited for one fsync (group commit). */
    final Histogram groupCommit = Histogram.sizes();
    /** Time merges took, in nanoseconds. */
    final LongAdder mergeNanos = new LongAdder();
}
