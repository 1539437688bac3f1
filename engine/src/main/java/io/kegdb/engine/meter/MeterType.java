package io.kegdb.engine.meter;

/** What a meter's value means over time. */
public enum MeterType {
    /** A total that only grows while the store is open (it starts again at 0 when the store is reopened). */
    COUNTER,
    /** A value that goes up and down: the current size of something. */
    GAUGE,
    /** A distribution of observations: a count, a sum and cumulative buckets ({@link Histogram}). */
    HISTOGRAM
}
