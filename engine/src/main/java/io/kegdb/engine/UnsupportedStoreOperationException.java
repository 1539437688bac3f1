package io.kegdb.engine;

/**
 * An operation of {@link KvStore} that this kind of store does not offer (a backup of a store held in memory
 * or on other machines, say). Not a bug in the caller's code: callers that accept any store map it to a
 * message that names what would work.
 */
public final class UnsupportedStoreOperationException extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;

    /** The operation of {@link KvStore#backup}. */
    public static final String BACKUP = "backup";

    private final String operation;

    public UnsupportedStoreOperationException(String operation, KvStore store) {
        super(operation + " is not supported by this store (" + store.getClass().getSimpleName() + ")");
        this.operation = operation;
    }

    /** The operation refused, e.g. {@code backup}. */
    public String operation() {
        return operation;
    }
}
