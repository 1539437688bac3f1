package io.kegdb.engine;

import java.util.NoSuchElementException;

/** The keys of a keydir cursor, read from the index alone: no value is read. */
final class KeyDirKeyScan implements KeyIterator {

    private final KeyDir.Cursor cursor;
    /** Whether the cursor stands on a key not yet returned; null until looked. */
    private Boolean ahead;

    KeyDirKeyScan(KeyDir.Cursor cursor) {
        this.cursor = cursor;
    }

    @Override
    public boolean hasNext() {
        if (ahead == null) {
            ahead = cursor.next();
        }
        return ahead;
    }

    @Override
    public byte[] next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        ahead = null;
        return cursor.key();
    }

    @Override
    public void close() {
        ahead = Boolean.FALSE;
    }
}
