package io.kegdb.engine;

/**
 * A write exceeded one of the store's size limits; nothing of it was written. It is an
 * {@link IllegalArgumentException}, as a bad argument is, and says which limit, the limit and the size the
 * write had.
 */
public final class LimitExceededException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    /** The limits a write can exceed. */
    public enum Limit {
        /** A key's length in bytes, against {@link BitcaskOptions#maxKeySize()}. */
        KEY_SIZE,
        /** A value's length in bytes, against {@link BitcaskOptions#maxValueSize()}. */
        VALUE_SIZE,
        /**
         * A batch's encoded size in bytes (its records and commit record), against what one segment can hold:
         * every record of a batch must start below 1 GiB into its segment.
         */
        BATCH_SIZE
    }

    private final Limit limit;
    private final long max;
    private final long actual;

    /** {@code actual} exceeded {@code max}, the value of {@code limit}. */
    public LimitExceededException(Limit limit, long max, long actual) {
        super(message(limit, max, actual));
        this.limit = limit;
        this.max = max;
        this.actual = actual;
    }

    private static String message(Limit limit, long max, long actual) {
        return switch (limit) {
            case KEY_SIZE -> "key of " + actual + " bytes exceeds maxKeySize " + max;
            case VALUE_SIZE -> "value of " + actual + " bytes exceeds maxValueSize " + max;
            case BATCH_SIZE -> "batch of " + actual + " encoded bytes exceeds the limit of " + max;
        };
    }

    /** Which limit was exceeded. */
    public Limit limit() {
        return limit;
    }

    /** The limit's value, in bytes. */
    public long max() {
        return max;
    }

    /** The size the write had, in bytes. */
    public long actual() {
        return actual;
    }
}
