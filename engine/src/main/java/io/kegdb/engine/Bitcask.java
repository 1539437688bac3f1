package io.kegdb.engine;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * A Bitcask store: append-only data segments on disk and an in-memory keydir. (API skeleton; the
 * implementation lands with the engine.)
 */
public final class Bitcask implements KvStore {

    private Bitcask() {
    }

    public static Bitcask open(Path dir) throws IOException {
        return open(dir, BitcaskOptions.defaults());
    }

    public static Bitcask open(Path dir, BitcaskOptions options) throws IOException {
        throw new UnsupportedOperationException("engine in progress");
    }

    @Override
    public byte[] get(byte[] key) {
        throw new UnsupportedOperationException();
    }

    public void put(byte[] key, byte[] value) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void put(byte[] key, byte[] value, Durability durability) {
        throw new UnsupportedOperationException();
    }

    public boolean delete(byte[] key) {
        throw new UnsupportedOperationException();
    }

    @Override
    public boolean delete(byte[] key, Durability durability) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void write(WriteBatch batch, Durability durability) {
        throw new UnsupportedOperationException();
    }

    @Override
    public void flush() {
        throw new UnsupportedOperationException();
    }

    public List<byte[]> listKeys() {
        throw new UnsupportedOperationException();
    }

    public void fold(KeyValueVisitor visitor) throws IOException {
        throw new UnsupportedOperationException();
    }

    @Override
    public KvIterator scan(byte[] fromInclusive, byte[] toExclusive) {
        throw new UnsupportedOperationException();
    }

    @Override
    public KvIterator scanDescending(byte[] fromInclusive, byte[] toExclusive) {
        throw new UnsupportedOperationException();
    }

    public void merge() throws IOException {
        throw new UnsupportedOperationException();
    }

    public void backup(Path target) throws IOException {
        throw new UnsupportedOperationException();
    }

    @Override
    public BitcaskStats stats() {
        throw new UnsupportedOperationException();
    }

    public Path directory() {
        throw new UnsupportedOperationException();
    }

    public BitcaskOptions options() {
        throw new UnsupportedOperationException();
    }

    @Override
    public void close() {
        throw new UnsupportedOperationException();
    }
}
