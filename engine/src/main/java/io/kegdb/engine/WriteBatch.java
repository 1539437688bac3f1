package io.kegdb.engine;

import java.util.AbstractList;
import java.util.ArrayList;
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
    }

    enum Kind { PUT, DELETE, PUT_IF_ABSENT }

    record Op(Kind kind, byte[] key, byte[] value) {
    }

    private final List<Op> ops = new ArrayList<>();
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
     * went passes the version read before its first check. -1 (the default) promises nothing.
     */
    public WriteBatch absentSince(long version) {
        this.absentSince = version;
        return this;
    }

    long absentSince() {
        return absentSince;
    }

    /** Number of operations. */
    public int size() {
        return ops.size();
    }

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
        bytes = 0;
        absentSince = -1;
    }

    /** Feeds every operation, in order, to {@code handler}. */
    public void replay(Handler handler) {
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
