package io.kegdb.engine;

/**
 * The store was used after {@link KvStore#close()}. It is an {@link IllegalStateException}, as any use of a
 * closed resource is; its own type lets a caller tell it from other state errors.
 */
public final class StoreClosedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    /** {@code message} names the store that is closed. */
    public StoreClosedException(String message) {
        super(message);
    }
}
