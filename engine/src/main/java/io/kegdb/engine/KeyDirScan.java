package io.kegdb.engine;

import java.util.NoSuchElementException;

/** The pairs of a keydir cursor with their values; a key deleted while the scan runs is skipped. */
final class KeyDirScan implements KvIterator {

    /** Reads the value of {@code key} whose record the keydir placed at {@code location}; null if deleted. */
    interface ValueReader {
        byte[] read(byte[] key, long location);
    }

    private final KeyDir.Cursor cursor;
    private final ValueReader values;
    private KeyValue next;

    KeyDirScan(KeyDir.Cursor cursor, ValueReader values) {
        this.cursor = cursor;
        this.values = values;
    }

    @Override
    public boolean hasNext() {
        while (next == null && cursor.next()) {
            byte[] key = cursor.key();
            byte[] value = values.read(key, cursor.location());
            if (value != null) {
                next = new KeyValue(key, value);
            }
        }
        return next != null;
    }

    @Override
    public KeyValue next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        KeyValue kv = next;
        next = null;
        return kv;
    }

    @Override
    public void close() {
        next = null;
    }
}
