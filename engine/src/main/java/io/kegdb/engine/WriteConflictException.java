package io.kegdb.engine;

import java.util.HexFormat;

/**
 * A batch's precondition ({@link WriteBatch#expect}, {@link WriteBatch#expectRange}) no longer held when the
 * batch was applied: another write changed what the batch's author read. The batch wrote nothing.
 */
public final class WriteConflictException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final byte[] key;

    /** {@code what} (changed since it was read) names what failed: "a value", "a range". */
    public WriteConflictException(byte[] key, String what) {
        super(what + " changed since it was read: 0x" + HexFormat.of().formatHex(key, 0, Math.min(key.length, 64))
                + (key.length > 64 ? "..." : ""));
        this.key = key.clone();
    }

    /** The key whose value changed, or the start of the range whose contents changed (empty for an open start). */
    public byte[] key() {
        return key.clone();
    }
}
