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
    /**
     * A write batch whose keys lie in several ranges of a store cut into ranges, which cannot apply it
     * atomically yet: refused whole, nothing written.
     */
    public static final String WRITE_ACROSS_RANGES = "write across ranges";
    /** A snapshot read of a store cut into ranges that reaches a second range: not one consistent state yet. */
    public static final String SNAPSHOT_ACROSS_RANGES = "snapshot across ranges";

    private final String operation;

    public UnsupportedStoreOperationException(String operation, KvStore store) {
        super(operation + " is not supported by this store (" + store.getClass().getSimpleName() + ")");
        this.operation = operation;
    }

    /** {@code operation} refused, with a message saying why and what it touched. */
    public UnsupportedStoreOperationException(String operation, String message) {
        super(message);
        this.operation = operation;
    }

    /** Whether the refusal is a feature this kind of store does not have yet (work across ranges), not a misuse. */
    public boolean notYetBuilt() {
        return operation.equals(WRITE_ACROSS_RANGES) || operation.equals(SNAPSHOT_ACROSS_RANGES);
    }

    /** The operation refused, e.g. {@code backup}. */
    public String operation() {
        return operation;
    }
}
