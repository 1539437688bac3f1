package io.kegdb.engine;

import java.util.AbstractList;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Writes applied together by {@link KvStore#write(WriteBatch, Durability)}: after a crash either all of
 * them are visible or none. Operations apply in the order they were added. Not thread-safe.
 */
public final class WriteBatch {

    /** Receives a batch's operations in order, see {@link #replay(Handler)}. */
    public interface Handler {
        void put(byte[] key, byte[] value);

        void delete(byte[] key);

        void putIfAbsent(byte[] key, byte[] value);

        /** A point precondition ({@link WriteBatch#expect}); handlers that cannot carry one refuse the batch. */
        default void expect(byte[] key, byte[] value) {
            throw new UnsupportedOperationException("this store cannot check a batch's preconditions");
        }

        /** A presence precondition ({@link WriteBatch#expectPresent}); handlers that cannot carry one refuse the batch. */
        default void expectPresent(byte[] key) {
            throw new UnsupportedOperationException("this store cannot check a batch's preconditions");
        }

        /** A range precondition ({@link WriteBatch#expectRange}); handlers that cannot carry one refuse the batch. */
        default void expectRange(byte[] fromInclusive, byte[] toExclusive, long digest) {
            throw new UnsupportedOperationException("this store cannot check a batch's preconditions");
        }
    }

    /**
     * A handler that asks only which keys a batch touches: every write and point precondition names one key
     * ({@link #key}), a range precondition a span ({@link #span}). A new operation or precondition kind is
     * mapped here, once, for every such reader.
     */
    public abstract static class KeyHandler implements Handler {
        /** A key the batch writes, deletes or expects. */
        protected abstract void key(byte[] key);

        /** A span {@code [fromInclusive, toExclusive)} the batch expects (a null bound is open). */
        protected abstract void span(byte[] fromInclusive, byte[] toExclusive);

        @Override
        public final void put(byte[] key, byte[] value) {
            key(key);
        }

        @Override
        public final void delete(byte[] key) {
            key(key);
        }

        @Override
        public final void putIfAbsent(byte[] key, byte[] value) {
            key(key);
        }

        @Override
        public final void expect(byte[] key, byte[] value) {
            key(key);
        }

        @Override
        public final void expectPresent(byte[] key) {
            key(key);
        }

        @Override
        public final void expectRange(byte[] fromInclusive, byte[] toExclusive, long digest) {
            span(fromInclusive, toExclusive);
        }
    }

    enum Kind { PUT, DELETE, PUT_IF_ABSENT }

    record Op(Kind kind, byte[] key, byte[] value) {
    }

    /** {@code key} held {@code value} (null: was absent) when read. */
    record Expected(byte[] key, byte[] value) {
    }

    /** The pairs of {@code [from, to)} (a null bound is open) had {@code digest} when read. */
    record ExpectedRange(byte[] from, byte[] to, long digest) {
    }

    private final List<Op> ops = new ArrayList<>();
    /** Null until the first precondition: a batch without any pays nothing for them. */
    private List<Expected> expected;
    private List<ExpectedRange> expectedRanges;
    private List<byte[]> expectedPresent;
    private long bytes;
    private long absentSince = -1;

    /** Sets {@code key} to {@code value}. */
    public WriteBatch put(byte[] key, byte[] value) {
        return add(new Op(Kind.PUT, Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value")));
    }

    /** Removes {@code key} if present. */
    public WriteBatch delete(byte[] key) {
        return add(new Op(Kind.DELETE, Objects.requireNonNull(key, "key"), null));
    }

    /**
     * Sets {@code key} to {@code value}, but fails the whole batch with {@link KeyExistsException} if the key
     * is present when the batch is applied (or was put earlier in this batch).
     */
    public WriteBatch putIfAbsent(byte[] key, byte[] value) {
        return add(new Op(Kind.PUT_IF_ABSENT, Objects.requireNonNull(key, "key"),
                Objects.requireNonNull(value, "value")));
    }

    /**
     * Makes the batch conditional: it is applied only if {@code key} holds {@code value} (null: is absent)
     * at that moment, checked atomically with the apply; else it fails whole with
     * {@link WriteConflictException} and writes nothing. Compares values, so it means the same on every
     * store and every replica. A batch of preconditions only writes nothing and just validates them.
     */
    public WriteBatch expect(byte[] key, byte[] value) {
        if (expected == null) {
            expected = new ArrayList<>();
        }
        expected.add(new Expected(Objects.requireNonNull(key, "key"), value));
        return this;
    }

    /**
     * Makes the batch conditional on {@code key} being present, whatever its value, when the batch is applied;
     * else it fails whole with {@link WriteConflictException} naming the key and writes nothing. With a put of
     * the same key it is an update of an existing row that needs no read first: the failure says the row was
     * not there.
     */
    public WriteBatch expectPresent(byte[] key) {
        if (expectedPresent == null) {
            expectedPresent = new ArrayList<>();
        }
        expectedPresent.add(Objects.requireNonNull(key, "key"));
        return this;
    }

    /**
     * Like {@link #expect}, for a whole key range: the pairs with {@code fromInclusive <= key < toExclusive}
     * (a null bound is open) must have the {@link RangeDigest} {@code digest} when the batch is applied, so
     * a key inserted into or removed from the range fails the batch as a changed value does.
     */
    public WriteBatch expectRange(byte[] fromInclusive, byte[] toExclusive, long digest) {
        if (expectedRanges == null) {
            expectedRanges = new ArrayList<>();
        }
        expectedRanges.add(new ExpectedRange(fromInclusive, toExclusive, digest));
        return this;
    }

    /** Whether the batch has preconditions ({@link #expect}, {@link #expectPresent}, {@link #expectRange}). */
    public boolean hasExpectations() {
        return expected != null || expectedRanges != null || expectedPresent != null;
    }

    /**
     * Checks the preconditions against {@code store} as it is now, its write version {@code versionNow} (no
     * check when the batch was read at that version); the caller holds the store's write lock.
     * Reads through the store's own get and scan, so a local store and a replica check alike. A key the batch
     * expected absent and puts if absent, found present, fails as {@link KeyExistsException} (a duplicate key).
     */
    void checkExpectations(KvStore store, long versionNow) {
        // Never read by the caller, so never covered by absentSince's promise.
        if (expectedPresent != null) {
            for (byte[] key : expectedPresent) {
                if (!store.contains(key)) {
                    throw new WriteConflictException(key, "a present key");
                }
            }
        }
        if (unchangedSince(versionNow)) {
            return; // read when the store was as it is now: the preconditions still hold
        }
        if (expected != null) {
            for (Expected e : expected) {
                byte[] current = store.get(e.key());
                if (!Arrays.equals(current, e.value())) {
                    if (current != null && insertsAbsent(e.key())) {
                        // The key this batch inserts was inserted by someone else: that is the truthful error.
                        throw new KeyExistsException(e.key());
                    }
                    throw new WriteConflictException(e.key(), "a value");
                }
            }
        }
        if (expectedRanges != null) {
            for (ExpectedRange r : expectedRanges) {
                if (RangeDigest.of(store.scan(r.from(), r.to())) != r.digest()) {
                    throw new WriteConflictException(r.from() == null ? new byte[0] : r.from(), "a range");
                }
            }
        }
    }

    private boolean insertsAbsent(byte[] key) {
        for (Op op : ops) {
            if (op.kind() == Kind.PUT_IF_ABSENT && Arrays.equals(op.key(), key)) {
                return true;
            }
        }
        return false;
    }

    private WriteBatch add(Op op) {
        ops.add(op);
        bytes += op.key().length + (op.value() == null ? 0 : op.value().length);
        return this;
    }

    /**
     * Promises that every {@code putIfAbsent} key of this batch was found absent in the store it is written
     * to, by checks made when the store's {@link KvStore#writeVersion()} was {@code version} or later. If the
     * store has had no write since {@code version}, applying the batch then skips looking those keys up
     * again (keys repeated within the batch are still caught). A transaction that checked its inserts as it
     * went passes the version read before its first check. The same promise covers the preconditions
     * ({@link #expect}): if they were read at {@code version} or later and nothing was written since, they
     * hold and are not checked again. -1 (the default) promises nothing.
     */
    public WriteBatch absentSince(long version) {
        this.absentSince = version;
        return this;
    }

    long absentSince() {
        return absentSince;
    }

    /** Whether {@link #absentSince} promises that nothing was written since the checks, at {@code version} now. */
    boolean unchangedSince(long version) {
        return absentSince >= 0 && absentSince == version;
    }

    /** Number of operations. */
    public int size() {
        return ops.size();
    }

    /** Whether the batch has no write operation (it may still carry preconditions). */
    public boolean isEmpty() {
        return ops.isEmpty();
    }

    /** Sum of key and value lengths, a measure of the batch's size. */
    public long byteSize() {
        return bytes;
    }

    /** Removes every operation. */
    public void clear() {
        ops.clear();
        expected = null;
        expectedRanges = null;
        expectedPresent = null;
        bytes = 0;
        absentSince = -1;
    }

    /** Feeds every precondition and then every operation, in order, to {@code handler}. */
    public void replay(Handler handler) {
        if (expected != null) {
            for (Expected e : expected) {
                handler.expect(e.key(), e.value());
            }
        }
        if (expectedPresent != null) {
            for (byte[] key : expectedPresent) {
                handler.expectPresent(key);
            }
        }
        if (expectedRanges != null) {
            for (ExpectedRange r : expectedRanges) {
                handler.expectRange(r.from(), r.to(), r.digest());
            }
        }
        for (Op op : ops) {
            switch (op.kind()) {
                case PUT -> handler.put(op.key(), op.value());
                case DELETE -> handler.delete(op.key());
                case PUT_IF_ABSENT -> handler.putIfAbsent(op.key(), op.value());
            }
        }
    }

    List<Op> ops() {
        return ops;
    }

    /** The operations' keys, in order: a view. */
    List<byte[]> keys() {
        return new AbstractList<>() {
            @Override
            public byte[] get(int index) {
                return ops.get(index).key();
            }

            @Override
            public int size() {
                return ops.size();
            }
        };
    }
}
