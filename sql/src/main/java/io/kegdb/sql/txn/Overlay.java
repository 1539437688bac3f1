package io.kegdb.sql.txn;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvCursor;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.WriteBatch;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * Buffered writes over a {@link ReadView}, read back merged with it (read-your-writes). A session's
 * transaction is one overlay over the store; each statement writes into its own overlay over that, so a
 * failing statement is discarded whole.
 *
 * <p>Point reads and writes go to a hash map kept in first-write order (a batch of ascending inserts is
 * committed ascending, the cheapest order for the store's index). Key order is needed only by scans: the
 * first scan builds a skip-list copy, kept up to date from then on, so a transaction of point writes (a
 * batch of INSERTs) never pays for ordering. The skip list keeps cursors that are still open valid while
 * later statements write.
 *
 * <p>Over a store whose reads are round trips and whose writes decide duplicates at apply
 * ({@link ReadView#readsAreRoundTrips}), an INSERT of a key this overlay cannot answer for is recorded
 * without a read ({@link Kind#UNCHECKED_INSERT}): the commit's put-if-absent decides it. Such a claim of
 * absence is kept when the row is deleted again ({@link Kind#ABSENT}), so that it is still checked.
 */
public final class Overlay implements ReadView {

    private static final Comparator<byte[]> ORDER = Arrays::compareUnsigned;

    /**
     * A buffered write. INSERT must find its key absent when the batch is applied (putIfAbsent), and its
     * absence was also checked when it was made; UNCHECKED_INSERT was not checked, its putIfAbsent alone
     * decides; ABSENT is an unchecked insert deleted again: it writes nothing, but the key must still be
     * absent when the batch is applied.
     */
    enum Kind { PUT, DELETE, INSERT, UNCHECKED_INSERT, ABSENT }

    record Pending(Kind kind, byte[] value) {
        /** Whether the key reads as absent here. */
        boolean removes() {
            return kind == Kind.DELETE || kind == Kind.ABSENT;
        }

        /** Whether the key's absence in the store is still to be checked when the batch is applied. */
        boolean unchecked() {
            return kind == Kind.UNCHECKED_INSERT || kind == Kind.ABSENT;
        }
    }

    private final ReadView base;
    /** In the order keys were first written, which becomes the order of the commit's records. */
    private final PendingWrites pending = new PendingWrites();
    /** The same writes in key order; null until a scan needs them. */
    private ConcurrentSkipListMap<byte[], Pending> ordered;

    /** Set for a statement that may write each key once (MERGE): its modifier checks {@link #wrote}. */
    private boolean eachKeyOnce;

    public Overlay(ReadView base) {
        this.base = base;
    }

    /** Marks this statement overlay as one whose statement may write each key at most once. */
    public void writeEachKeyOnce() {
        eachKeyOnce = true;
    }

    /** Whether {@link #writeEachKeyOnce} was called. */
    public boolean writesEachKeyOnce() {
        return eachKeyOnce;
    }

    /**
     * Whether {@code key} is one this overlay inserted without checking that the store lacked it: a
     * conflict on it at commit is a duplicate key.
     */
    public boolean insertedUnchecked(byte[] key) {
        Pending p = pending.get(key);
        return p != null && p.unchecked();
    }

    /** Whether this overlay holds a write (put, insert or delete) of {@code key}. */
    public boolean wrote(byte[] key) {
        return pending.get(key) != null;
    }

    public boolean isEmpty() {
        return pending.isEmpty();
    }

    int size() {
        return pending.size();
    }

    public void clear() {
        pending.clear();
        if (ordered != null) {
            ordered.clear(); // cursors still open over it see the writes gone, as after a rollback they are
            ordered = null;
        }
    }

    /** The view this overlay's writes are seen over. */
    public ReadView base() {
        return base;
    }

    /**
     * These writes seen over {@code other} instead of this overlay's base: a statement that must record
     * what it reads beneath the transaction's writes reads through this.
     */
    public ReadView over(ReadView other) {
        return other == base ? this : new ReadView() {
            @Override
            public byte[] get(byte[] key) {
                return Overlay.this.get(key, other);
            }

            @Override
            public List<byte[]> getAll(List<byte[]> keys) {
                return Overlay.this.getAll(keys, other);
            }

            @Override
            public boolean contains(byte[] key) {
                return Overlay.this.contains(key, other);
            }

            @Override
            public boolean readsAreRoundTrips() {
                return other.readsAreRoundTrips();
            }

            @Override
            public Presence presence(byte[] key) {
                return Overlay.this.presence(key, other);
            }

            @Override
            public KvIterator scan(byte[] from, byte[] to, boolean descending) {
                return Overlay.this.scan(from, to, descending, other);
            }

            @Override
            public KvCursor cursor(byte[] from, byte[] to, boolean descending) {
                return Overlay.this.cursor(from, to, descending, other);
            }
        };
    }

    @Override
    public byte[] get(byte[] key) {
        return get(key, base);
    }

    private byte[] get(byte[] key, ReadView under) {
        Pending p = pending.get(key);
        if (p != null) {
            return p.removes() ? null : p.value();
        }
        return under.get(key);
    }

    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        return getAll(keys, base);
    }

    /** Keys written here are answered here; the others go to {@code under} in one multi-get, as with get. */
    private List<byte[]> getAll(List<byte[]> keys, ReadView under) {
        if (pending.isEmpty()) {
            return under.getAll(keys);
        }
        byte[][] values = new byte[keys.size()][];
        List<byte[]> unwritten = new ArrayList<>(values.length);
        int[] positions = new int[values.length];
        for (int i = 0; i < values.length; i++) {
            byte[] key = keys.get(i);
            Pending p = pending.get(key);
            if (p != null) {
                values[i] = p.removes() ? null : p.value();
            } else {
                positions[unwritten.size()] = i;
                unwritten.add(key);
            }
        }
        if (!unwritten.isEmpty()) {
            List<byte[]> read = under.getAll(unwritten);
            for (int j = 0; j < read.size(); j++) {
                values[positions[j]] = read.get(j);
            }
        }
        return Arrays.asList(values);
    }

    @Override
    public boolean contains(byte[] key) {
        return contains(key, base);
    }

    private boolean contains(byte[] key, ReadView under) {
        Pending p = pending.get(key);
        if (p != null) {
            return !p.removes();
        }
        return under.contains(key);
    }

    @Override
    public boolean readsAreRoundTrips() {
        return base.readsAreRoundTrips();
    }

    @Override
    public Presence presence(byte[] key) {
        return presence(key, base);
    }

    private Presence presence(byte[] key, ReadView under) {
        Pending p = pending.get(key);
        if (p != null) {
            return Presence.of(!p.removes());
        }
        return under.presence(key);
    }

    private void set(byte[] key, Pending p) {
        pending.put(key, p);
        if (ordered != null) {
            ordered.put(key, p);
        }
    }

    public void put(byte[] key, byte[] value) {
        Pending prev = pending.get(key);
        Kind kind = Kind.PUT;
        if (prev != null && prev.kind() != Kind.PUT && prev.kind() != Kind.DELETE) {
            // An insert stays one; a put over an unchecked insert deleted again keeps its absence to check.
            kind = prev.kind() == Kind.INSERT ? Kind.INSERT : Kind.UNCHECKED_INSERT;
        }
        set(key, new Pending(kind, value));
    }

    /** Records an insert whose key the caller found absent ({@code checked}) or left to the apply. */
    void insert(byte[] key, byte[] value, boolean checked) {
        Pending prev = pending.get(key);
        Kind kind;
        if (prev != null && prev.kind() == Kind.DELETE) {
            kind = Kind.PUT; // re-inserting a key deleted in this overlay overwrites the committed row
        } else if (!checked || (prev != null && prev.unchecked())) {
            kind = Kind.UNCHECKED_INSERT;
        } else {
            kind = Kind.INSERT;
        }
        set(key, new Pending(kind, value));
    }

    /**
     * INSERT of one row: records it and returns true if {@code key} is absent here and in the base, else
     * changes nothing and returns false. One lookup in this overlay and, for a key it does not hold, one
     * existence check of the base (no value is read), except where the base cannot tell without a round trip
     * ({@link Presence#UNKNOWN}): then the insert is recorded unchecked and returns true, and the commit's
     * put-if-absent decides (a duplicate then fails the commit with {@link io.kegdb.engine.KeyExistsException}).
     */
    public boolean insertIfAbsent(byte[] key, byte[] value) {
        Pending prev = pending.get(key);
        if (prev != null) {
            if (!prev.removes()) {
                return false;
            }
            set(key, new Pending(prev.kind() == Kind.ABSENT ? Kind.UNCHECKED_INSERT : Kind.PUT, value));
            return true;
        }
        Presence there = base.presence(key);
        if (there == Presence.PRESENT) {
            return false;
        }
        set(key, new Pending(there == Presence.ABSENT ? Kind.INSERT : Kind.UNCHECKED_INSERT, value));
        return true;
    }

    public void delete(byte[] key) {
        Pending prev = pending.get(key);
        if (prev != null && prev.kind() == Kind.INSERT) {
            pending.remove(key);
            if (ordered != null) {
                ordered.remove(key);
            }
        } else {
            // Deleting an unchecked insert leaves its claim that the store lacks the key, to be checked.
            set(key, new Pending(prev != null && prev.unchecked() ? Kind.ABSENT : Kind.DELETE, null));
        }
    }

    /** Moves the writes of {@code statement} (an overlay over this one) into this overlay. */
    public void absorb(Overlay statement) {
        statement.pending.forEach((key, write) -> {
            switch (write.kind()) {
                case PUT -> put(key, write.value());
                case DELETE -> delete(key);
                case INSERT -> insert(key, write.value(), true);
                case UNCHECKED_INSERT -> insert(key, write.value(), false);
                case ABSENT -> {
                    // The statement inserted the key unchecked and deleted it: the claim of absence moves up.
                    if (pending.get(key) == null) {
                        set(key, write);
                    } else {
                        delete(key);
                    }
                }
            }
        });
    }

    /** Receives the keys of buffered writes other than inserts (whose absence the store checks itself). */
    public interface KeyVisitor {
        void visit(byte[] key);
    }

    /** Every key this overlay puts or deletes (not inserts), in first-write order. */
    public void forEachOverwrittenKey(KeyVisitor visitor) {
        pending.forEach((key, write) -> {
            if (write.kind() == Kind.PUT || write.kind() == Kind.DELETE) {
                visitor.visit(key);
            }
        });
    }

    /** The buffered writes as one atomic batch, in the order they were first made. */
    public WriteBatch toBatch() {
        WriteBatch batch = new WriteBatch();
        pending.forEach((key, write) -> {
            switch (write.kind()) {
                case PUT -> batch.put(key, write.value());
                case DELETE -> batch.delete(key);
                case INSERT, UNCHECKED_INSERT -> batch.putIfAbsent(key, write.value());
                case ABSENT -> batch.expect(key, null);
            }
        });
        return batch;
    }

    /** The writes in key order, built on first use. */
    private NavigableMap<byte[], Pending> ordered() {
        if (ordered == null) {
            ConcurrentSkipListMap<byte[], Pending> o = new ConcurrentSkipListMap<>(ORDER);
            pending.forEach(o::put);
            ordered = o;
        }
        return ordered;
    }

    @Override
    public KvIterator scan(byte[] from, byte[] to, boolean descending) {
        return scan(from, to, descending, base);
    }

    private KvIterator scan(byte[] from, byte[] to, boolean descending, ReadView base) {
        NavigableMap<byte[], Pending> range = writesIn(from, to);
        if (range == null) {
            return base.scan(from, to, descending);
        }
        return new Merged(base.scan(from, to, descending),
                (descending ? range.descendingMap() : range).entrySet().iterator(),
                descending ? ORDER.reversed() : ORDER);
    }

    /** The base's cursor where no buffered write lies in the range; else both merged, buffered writes winning. */
    @Override
    public KvCursor cursor(byte[] from, byte[] to, boolean descending) {
        return cursor(from, to, descending, base);
    }

    private KvCursor cursor(byte[] from, byte[] to, boolean descending, ReadView base) {
        NavigableMap<byte[], Pending> range = writesIn(from, to);
        if (range == null) {
            return base.cursor(from, to, descending);
        }
        return new MergedCursor(base.cursor(from, to, descending),
                (descending ? range.descendingMap() : range).entrySet().iterator(), descending);
    }

    /** The buffered writes with {@code from <= key < to} in key order; null when there is none. */
    private NavigableMap<byte[], Pending> writesIn(byte[] from, byte[] to) {
        if (pending.isEmpty()) {
            return null;
        }
        NavigableMap<byte[], Pending> all = ordered();
        NavigableMap<byte[], Pending> range = all;
        if (from != null && to != null) {
            range = ORDER.compare(from, to) >= 0 ? all.subMap(from, true, from, false)
                    : all.subMap(from, true, to, false);
        } else if (from != null) {
            range = all.tailMap(from, true);
        } else if (to != null) {
            range = all.headMap(to, false);
        }
        return range.isEmpty() ? null : range;
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
                    if (!p.removes()) {
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
