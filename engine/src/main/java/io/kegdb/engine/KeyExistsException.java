package io.kegdb.engine;

import java.util.HexFormat;

/**
 * A {@link WriteBatch#putIfAbsent(byte[], byte[])} found its key already present; the batch wrote nothing.
 */
public final class KeyExistsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final byte[] key;

    public KeyExistsException(byte[] key) {
        super("key already exists: 0x" + HexFormat.of().formatHex(key, 0, Math.min(key.length, 64))
                + (key.length > 64 ? "..." : ""));
        this.key = key.clone();
    }

    /** The key that was already present. */
    public byte[] key() {
        return key.clone();
    }
}
