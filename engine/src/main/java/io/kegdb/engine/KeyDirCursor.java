package io.kegdb.engine;

import java.io.UncheckedIOException;

/**
 * {@link Bitcask#cursor}: a keydir cursor whose values are read in place. The key is the view of the keydir
 * batch's packed keys; each record is copied into one array reused for every pair and checked there by
 * {@link Segment#read} (framing, CRC and key: {@link RecordRead}), and the value is the view of that
 * verified copy, so a step allocates nothing. A record merge moved after the batch was taken
 * is read again where the keydir then points; a key deleted meanwhile is skipped.
 */
final class KeyDirCursor implements KvCursor {

    /** Records counted into the store's meter at once: a striped adder per row would cost more than the row. */
    private static final int COUNT_EVERY = 1024;
    private static final int RELOCATE_TRIES = 8;

    private final Bitcask store;
    private final KeyDir keyDir;
    private final SegmentTable table;
    private final StoreCounters counters;
    private final KeyDir.Cursor keys;
    private final RecordRead record = new RecordRead();
    private int uncounted;
    private boolean positioned;
    private boolean closed;

    KeyDirCursor(Bitcask store, KeyDir keyDir, SegmentTable table, StoreCounters counters, KeyDir.Cursor keys) {
        this.store = store;
        this.keyDir = keyDir;
        this.table = table;
        this.counters = counters;
        this.keys = keys;
    }

    @Override
    public boolean next() {
        positioned = false;
        if (closed) {
            return false;
        }
        store.checkOpen();
        while (keys.next()) {
            if (readAt(keys.location()) || relocated()) {
                positioned = true;
                if (++uncounted == COUNT_EVERY) {
                    count();
                }
                return true;
            }
        }
        count();
        return false;
    }

    /** Reads the current key where the keydir points now; false if it was deleted meanwhile. */
    private boolean relocated() {
        byte[] key = keys.key();
        for (int attempt = 0; attempt < RELOCATE_TRIES; attempt++) {
            long loc = keyDir.get(key);
            if (loc == KeyDir.NONE) {
                return false;
            }
            if (readAt(loc)) {
                return true;
            }
        }
        throw new IllegalStateException(store.directory() + ": the keydir keeps pointing at merged-away segments");
    }

    /** Reads the current key's record at {@code loc} into {@link #value}; false if merge took its segment. */
    private boolean readAt(long loc) {
        Segment s = table.get(Location.segment(loc));
        if (s == null) {
            return false;
        }
        try {
            s.read(Location.offset(loc), keys.keyArray(), keys.keyOffset(), keys.keyLength(), record);
        } catch (UncheckedIOException e) {
            if (table.get(Location.segment(loc)) == s) {
                throw e;
            }
            return false;
        }
        return true;
    }

    private void count() {
        if (uncounted > 0) {
            counters.scanned.add(uncounted);
            uncounted = 0;
        }
    }

    private void requirePositioned() {
        if (!positioned) {
            throw new IllegalStateException("no current pair: next() returned false or was not called");
        }
    }

    @Override
    public byte[] keyArray() {
        requirePositioned();
        return keys.keyArray();
    }

    @Override
    public int keyOffset() {
        requirePositioned();
        return keys.keyOffset();
    }

    @Override
    public int keyLength() {
        requirePositioned();
        return keys.keyLength();
    }

    @Override
    public byte[] valueArray() {
        requirePositioned();
        return record.valueArray();
    }

    @Override
    public int valueOffset() {
        requirePositioned();
        return record.valueOffset();
    }

    @Override
    public int valueLength() {
        requirePositioned();
        return record.valueLength();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            positioned = false;
            count();
        }
    }
}
