package io.kegdb.sql;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.WriteBatch;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Buffered writes over a {@link ReadView}, read back merged with it (read-your-writes). A session's
 * transaction is one overlay over the store; each statement writes into its own overlay over that, so a
 * failing statement is discarded whole. A skip-list map keeps cursors that are still open valid while
 * later statements write.
 */
final class Overlay implements ReadView {

    private static final Comparator<byte[]> ORDER = Arrays::compareUnsigned;

    /** A buffered write. INSERT must find its key absent when the batch is applied (putIfAbsent). */
    enum Kind { PUT, DELETE, INSERT }

    record Pending(Kind kind, byte[] value) {
    }

    private final ReadView base;
    private final ConcurrentSkipListMap<byte[], Pending> pending = new ConcurrentSkipListMap<>(ORDER);

    Overlay(ReadView base) {
        this.base = base;
    }

    boolean isEmpty() {
        return pending.isEmpty();
    }

    int size() {
        return pending.size();
    }

    void clear() {
        pending.clear();
    }

    @Override
    public byte[] get(byte[] key) {
        Pending p = pending.get(key);
        if (p != null) {
            return p.kind() == Kind.DELETE ? null : p.value();
        }
        return base.get(key);
    }

    void put(byte[] key, byte[] value) {
        Pending prev = pending.get(key);
        pending.put(key, new Pending(prev != null && prev.kind() == Kind.INSERT ? Kind.INSERT : Kind.PUT, value));
    }

    /** Records an insert whose key the caller found absent. */
    void insert(byte[] key, byte[] value) {
        Pending prev = pending.get(key);
        // Re-inserting a key deleted in this overlay overwrites the committed row: a plain put.
        pending.put(key, new Pending(prev != null && prev.kind() == Kind.DELETE ? Kind.PUT : Kind.INSERT, value));
    }

    void delete(byte[] key) {
        Pending prev = pending.get(key);
        if (prev != null && prev.kind() == Kind.INSERT) {
            pending.remove(key);
        } else {
            pending.put(key, new Pending(Kind.DELETE, null));
        }
    }

    /** Moves the writes of {@code statement} (an overlay over this one) into this overlay. */
    void absorb(Overlay statement) {
        for (Map.Entry<byte[], Pending> e : statement.pending.entrySet()) {
            switch (e.getValue().kind()) {
                case PUT -> put(e.getKey(), e.getValue().value());
                case DELETE -> delete(e.getKey());
                case INSERT -> insert(e.getKey(), e.getValue().value());
            }
        }
    }

    /** The buffered writes as one atomic batch. */
    WriteBatch toBatch() {
        WriteBatch batch = new WriteBatch();
        for (Map.Entry<byte[], Pending> e : pending.entrySet()) {
            switch (e.getValue().kind()) {
                case PUT -> batch.put(e.getKey(), e.getValue().value());
                case DELETE -> batch.delete(e.getKey());
                case INSERT -> batch.putIfAbsent(e.getKey(), e.getValue().value());
            }
        }
        return batch;
    }

    @Override
    public KvIterator scan(byte[] from, byte[] to, boolean descending) {
        NavigableMap<byte[], Pending> range = pending;
        if (from != null && to != null) {
            range = ORDER.compare(from, to) >= 0 ? pending.subMap(from, true, from, false)
                    : pending.subMap(from, true, to, false);
        } else if (from != null) {
            range = pending.tailMap(from, true);
        } else if (to != null) {
            range = pending.headMap(to, false);
        }
        if (range.isEmpty()) {
            return base.scan(from, to, descending);
        }
        return new Merged(base.scan(from, to, descending),
                (descending ? range.descendingMap() : range).entrySet().iterator(),
                descending ? ORDER.reversed() : ORDER);
    }

    /** Merges the base's pairs with buffered writes in key order; buffered writes win. */
    private static final class Merged implements KvIterator {
        private final KvIterator base;
        private final Iterator<Map.Entry<byte[], Pending>> writes;
        private final Comparator<byte[]> order;
        private KeyValue nextBase;
        private Map.Entry<byte[], Pending> nextWrite;
        private KeyValue next;

        Merged(KvIterator base, Iterator<Map.Entry<byte[], Pending>> writes, Comparator<byte[]> order) {
            this.base = base;
            this.writes = writes;
            this.order = order;
            nextBase = base.hasNext() ? base.next() : null;
            nextWrite = writes.hasNext() ? writes.next() : null;
            advance();
        }

        private void advance() {
            next = null;
            while (next == null && (nextBase != null || nextWrite != null)) {
                int c = nextBase == null ? 1 : nextWrite == null ? -1 : order.compare(nextBase.key(), nextWrite.getKey());
                if (c < 0) {
                    next = nextBase;
                    nextBase = base.hasNext() ? base.next() : null;
                } else {
                    if (c == 0) {
                        nextBase = base.hasNext() ? base.next() : null;
                    }
                    Pending p = nextWrite.getValue();
                    if (p.kind() != Kind.DELETE) {
                        next = new KeyValue(nextWrite.getKey(), p.value());
                    }
                    nextWrite = writes.hasNext() ? writes.next() : null;
                }
            }
        }

        @Override
        public boolean hasNext() {
            return next != null;
        }

        @Override
        public KeyValue next() {
            if (next == null) {
                throw new NoSuchElementException();
            }
            KeyValue out = next;
            advance();
            return out;
        }

        @Override
        public void close() {
            base.close();
        }
    }
}
