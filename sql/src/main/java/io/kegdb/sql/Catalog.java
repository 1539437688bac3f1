package io.kegdb.sql;

import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The persisted list of tables. Lives in keyspace 0 of the store: one entry per table
 * ({@code 0000 'T' schema 0x00 name}) and a meta entry ({@code 0000 'M'}) holding the catalog version and
 * the next table id. Every DDL bumps the version, which invalidates cached plans.
 */
final class Catalog {

    static final String DEFAULT_SCHEMA = "PUBLIC";
    static final String SYSTEM_SCHEMA = "SYS";
    private static final int DELETE_BATCH = 1000;
    private static final byte[] TABLE_PREFIX = {0, 0, 0, 0, 'T'};
    private static final byte[] TABLE_PREFIX_END = {0, 0, 0, 0, 'U'};
    private static final byte[] META_KEY = {0, 0, 0, 0, 'M'};

    /** An immutable view of the catalog at one version. */
    record Snapshot(long version, Map<String, Map<String, TableDef>> schemas) {
        TableDef find(String schema, String name) {
            Map<String, TableDef> tables = schemas.get(schema);
            return tables == null ? null : tables.get(name);
        }
    }

    private final KvStore store;
    private volatile Snapshot snapshot;
    private int nextId;

    private Catalog(KvStore store) {
        this.store = store;
    }

    /** Loads the catalog, creating PUBLIC.KV in a new store. */
    static Catalog open(KvStore store) throws SqlError {
        Catalog catalog = new Catalog(store);
        catalog.load();
        if (catalog.snapshot.version() == 0) {
            catalog.create(new TableDef(DEFAULT_SCHEMA, "KV", 0, "K", ColumnType.VARCHAR, 0, "V",
                    ColumnType.VARCHAR, 0), false);
        }
        return catalog;
    }

    Snapshot snapshot() {
        return snapshot;
    }

    private void load() throws SqlError {
        long version = 0;
        nextId = 1;
        byte[] meta = store.get(META_KEY);
        if (meta != null) {
            ByteBuffer buf = ByteBuffer.wrap(meta);
            version = buf.getLong();
            nextId = buf.getInt();
        }
        Map<String, Map<String, TableDef>> schemas = new TreeMap<>();
        try (KvIterator it = store.scan(TABLE_PREFIX, TABLE_PREFIX_END)) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                String qualified = new String(kv.key(), TABLE_PREFIX.length, kv.key().length - TABLE_PREFIX.length,
                        StandardCharsets.UTF_8);
                int sep = qualified.indexOf('\0');
                String schema = qualified.substring(0, sep);
                String name = qualified.substring(sep + 1);
                schemas.computeIfAbsent(schema, s -> new TreeMap<>())
                        .put(name, TableDef.deserialize(schema, name, kv.value()));
            }
        } catch (IOException e) {
            throw new SqlError("58030", "cannot read the catalog: " + e.getMessage(), e);
        }
        schemas.computeIfAbsent(DEFAULT_SCHEMA, s -> new TreeMap<>());
        snapshot = freeze(version, schemas);
    }

    /**
     * Adds a table and assigns its id.
     *
     * @return false if it exists and {@code ifNotExists} is set
     */
    synchronized boolean create(TableDef def, boolean ifNotExists) throws SqlError {
        if (SYSTEM_SCHEMA.equals(def.schema())) {
            throw new SqlError("42000", "schema SYS holds system tables only");
        }
        if (snapshot.find(def.schema(), def.name()) != null) {
            if (ifNotExists) {
                return false;
            }
            throw new SqlError("42S01", "table " + def.qualifiedName() + " already exists");
        }
        TableDef withId = new TableDef(def.schema(), def.name(), nextId, def.keyColumn(), def.keyType(),
                def.keyLength(), def.valueColumn(), def.valueType(), def.valueLength());
        // Clear anything a crash during an earlier DROP may have left under this id.
        deleteKeyspace(withId);
        long version = snapshot.version() + 1;
        WriteBatch batch = new WriteBatch()
                .put(entryKey(def.schema(), def.name()), withId.serialize())
                .put(META_KEY, meta(version, nextId + 1));
        store.write(batch, Durability.SYNC);
        nextId++;
        Map<String, Map<String, TableDef>> schemas = mutableCopy();
        schemas.computeIfAbsent(def.schema(), s -> new TreeMap<>()).put(def.name(), withId);
        snapshot = freeze(version, schemas);
        return true;
    }

    /**
     * Removes a table and deletes its rows in batches (after the catalog entry, so a crash in between
     * leaves only unreachable rows).
     *
     * @return false if it does not exist and {@code ifExists} is set
     */
    synchronized boolean drop(String schema, String name, boolean ifExists) throws SqlError {
        if (SYSTEM_SCHEMA.equals(schema)) {
            throw new SqlError("42000", "system table " + schema + "." + name + " cannot be dropped");
        }
        TableDef def = snapshot.find(schema, name);
        if (def == null) {
            if (ifExists) {
                return false;
            }
            throw new SqlError("42S02", "table " + schema + "." + name + " does not exist");
        }
        long version = snapshot.version() + 1;
        store.write(new WriteBatch().delete(entryKey(schema, name)).put(META_KEY, meta(version, nextId)),
                Durability.SYNC);
        Map<String, Map<String, TableDef>> schemas = mutableCopy();
        schemas.get(schema).remove(name);
        if (schemas.get(schema).isEmpty() && !DEFAULT_SCHEMA.equals(schema)) {
            schemas.remove(schema);
        }
        snapshot = freeze(version, schemas);
        deleteKeyspace(def);
        return true;
    }

    private void deleteKeyspace(TableDef def) {
        while (true) {
            WriteBatch batch = new WriteBatch();
            try (KvIterator it = store.scan(def.prefix(), def.prefixEnd())) {
                while (it.hasNext() && batch.size() < DELETE_BATCH) {
                    batch.delete(it.next().key());
                }
            }
            if (batch.isEmpty()) {
                return;
            }
            store.write(batch, Durability.NO_SYNC);
        }
    }

    private Map<String, Map<String, TableDef>> mutableCopy() {
        Map<String, Map<String, TableDef>> copy = new TreeMap<>();
        snapshot.schemas().forEach((schema, tables) -> copy.put(schema, new TreeMap<>(tables)));
        return copy;
    }

    private static Snapshot freeze(long version, Map<String, Map<String, TableDef>> schemas) {
        Map<String, Map<String, TableDef>> frozen = new TreeMap<>();
        schemas.forEach((schema, tables) -> frozen.put(schema, Collections.unmodifiableMap(new TreeMap<>(tables))));
        return new Snapshot(version, Collections.unmodifiableMap(frozen));
    }

    private static byte[] meta(long version, int nextId) {
        return ByteBuffer.allocate(12).putLong(version).putInt(nextId).array();
    }

    private static byte[] entryKey(String schema, String name) {
        byte[] qualified = (schema + '\0' + name).getBytes(StandardCharsets.UTF_8);
        byte[] key = Arrays.copyOf(TABLE_PREFIX, TABLE_PREFIX.length + qualified.length);
        System.arraycopy(qualified, 0, key, TABLE_PREFIX.length, qualified.length);
        return key;
    }

    /** Every user table, ordered by schema and name. */
    List<TableDef> tables() {
        List<TableDef> out = new ArrayList<>();
        snapshot.schemas().values().forEach(t -> out.addAll(t.values()));
        return out;
    }
}
