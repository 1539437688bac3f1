package io.kegdb.engine;

/** {@link KvCursor#of}: steps a {@link KvIterator}, whose pairs' arrays are the views. */
final class IteratorCursor implements KvCursor {

    private final KvIterator pairs;
    private KeyValue current;
    private boolean closed;

    IteratorCursor(KvIterator pairs) {
        this.pairs = pairs;
    }

    @Override
    public boolean next() {
        if (closed || !pairs.hasNext()) {
            current = null;
            return false;
        }
        current = pairs.next();
        return true;
    }

    private KeyValue current() {
        if (current == null) {
            throw new IllegalStateException("no current pair: next() returned false or was not called");
        }
        return current;
    }

    @Override
    public byte[] keyArray() {
        return current().key();
    }

    @Override
    public int keyOffset() {
        return 0;
    }

    @Override
    public int keyLength() {
        return current().key().length;
    }

    @Override
    public byte[] valueArray() {
        return current().value();
    }

    @Override
    public int valueOffset() {
        return 0;
    }

    @Override
    public int valueLength() {
        return current().value().length;
    }

    /** The pair's own array: a {@link KvIterator}'s arrays belong to the caller already. */
    @Override
    public byte[] key() {
        return current().key();
    }

    @Override
    public byte[] value() {
        return current().value();
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            current = null;
            pairs.close();
        }
    }
}
