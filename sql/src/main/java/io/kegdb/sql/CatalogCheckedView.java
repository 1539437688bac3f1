package io.kegdb.sql;

import io.kegdb.engine.KeyIterator;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.txn.Presence;
import io.kegdb.sql.txn.ReadView;

import java.util.List;
import java.util.function.Supplier;

/**
 * The reads of a statement planned on a shared catalog, each checked against the catalog version the plan was
 * made for: after every read of the store, the catalog's version entry as the store read it along
 * ({@link KvStore#watched}, no extra round trip on a replicated store). The version only moves forward and is
 * read after the data, so an equal version means the data was read while the catalog was the plan's; one
 * above it fails the statement ({@code changed}), which is then planned again on the current catalog.
 */
final class CatalogCheckedView implements ReadView {

    private final ReadView base;
    private final KvStore store;
    private final byte[] versionKey;
    private final long version;
    private final Supplier<RuntimeException> changed;

    CatalogCheckedView(ReadView base, KvStore store, byte[] versionKey, long version,
                       Supplier<RuntimeException> changed) {
        this.base = base;
        this.store = store;
        this.versionKey = versionKey;
        this.version = version;
        this.changed = changed;
    }

    /**
     * Fails when the version read along is above the plan's. Below it, the read was served by a range of a store
     * cut into ranges whose copy of the version (its catalog fence) has not caught up yet: what that range
     * holds is then what the plan's version holds there (docs/SCALE.md, "The catalog version across ranges").
     * A store of one range reads the entry itself, linearizably, after the plan's version was read: never below.
     */
    private void check() {
        if (Catalog.versionOf(store.watched(versionKey)) > version) {
            throw changed.get();
        }
    }

    @Override
    public byte[] get(byte[] key) {
        byte[] value = base.get(key);
        check();
        return value;
    }

    @Override
    public List<byte[]> getAll(List<byte[]> keys) {
        List<byte[]> values = base.getAll(keys);
        check();
        return values;
    }

    @Override
    public boolean contains(byte[] key) {
        boolean present = base.contains(key);
        check();
        return present;
    }

    @Override
    public boolean readsAreRoundTrips() {
        return base.readsAreRoundTrips();
    }

    /** Unknown keys read nothing and need no check; known ones were read through this view's base. */
    @Override
    public Presence presence(byte[] key) {
        Presence p = base.presence(key);
        if (p != Presence.UNKNOWN) {
            check();
        }
        return p;
    }

    @Override
    public KvIterator scan(byte[] from, byte[] to, boolean descending) {
        KvIterator pairs = base.scan(from, to, descending);
        return new KvIterator() {
            @Override
            public boolean hasNext() {
                boolean more = pairs.hasNext();
                check();
                return more;
            }

            @Override
            public KeyValue next() {
                KeyValue kv = pairs.next();
                check();
                return kv;
            }

            @Override
            public void close() {
                pairs.close();
            }
        };
    }

    @Override
    public KeyIterator scanKeys(byte[] from, byte[] to, boolean descending) {
        KeyIterator keys = base.scanKeys(from, to, descending);
        return new KeyIterator() {
            @Override
            public boolean hasNext() {
                boolean more = keys.hasNext();
                check();
                return more;
            }

            @Override
            public byte[] next() {
                byte[] key = keys.next();
                check();
                return key;
            }

            @Override
            public void close() {
                keys.close();
            }
        };
    }
}
