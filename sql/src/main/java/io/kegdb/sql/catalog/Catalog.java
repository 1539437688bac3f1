package io.kegdb.sql.catalog;

import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyExistsException;
import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.SqlState;

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
 *
 * <p>Each DDL also claims its new version with a put-if-absent of {@code 0000 'V' version} in the same atomic
 * batch, so two catalogs over one shared store (processes of a Raft group) cannot both make version n+1 from
 * version n: the loser re-reads the catalog and tries again on the new state. A shared catalog's DROP also
 * records the span of keys it deletes at {@code 0000 'D' version}, for stores cut into ranges. A shared catalog is re-read when
 * {@link #refresh()} finds that the stored version moved.
 */
public final class Catalog {

    public static final String DEFAULT_SCHEMA = "PUBLIC";
    public static final String SYSTEM_SCHEMA = "SYS";
    /** The schema of the standard views of the catalog (defined by the SQL layer's InformationSchema). */
    public static final String INFORMATION_SCHEMA = "INFORMATION_SCHEMA";
    /** The names of schema SYS's built-in tables, which extra system tables may not take (defined by SystemTable). */
    public static final List<String> BUILT_IN_SYSTEM_TABLES = List.of("TABLES", "SEGMENTS", "STATS");
    private static final int DELETE_BATCH = 1000;
    private static final byte[] TABLE_PREFIX = {0, 0, 0, 0, 'T'};
    private static final byte[] TABLE_PREFIX_END = {0, 0, 0, 0, 'U'};
    private static final byte[] META_KEY = {0, 0, 0, 0, 'M'};
    private static final byte VERSION_CLAIM = 'V';
    private static final byte DROP_RECORD = 'D';
    /** DDL attempts against concurrent DDL of other processes before giving up with 40001. */
    private static final int DDL_ATTEMPTS = 20;

    /**
     * An immutable view of the catalog at one version; {@code meta} is the stored version entry's value at
     * that version (null before the first DDL), what a write checks the catalog against (see
     * {@link #versionKey()}).
     */
    public record Snapshot(long version, Map<String, Map<String, TableDef>> schemas, byte[] meta) {
        public TableDef find(String schema, String name) {
            Map<String, TableDef> tables = schemas.get(schema);
            return tables == null ? null : tables.get(name);
        }

        /** The table whose keyspace holds the store key {@code key}, or null. */
        public TableDef tableOf(byte[] key) {
            if (key.length < TableDef.PREFIX_LENGTH) {
                return null;
            }
            int id = ByteBuffer.wrap(key).getInt();
            for (Map<String, TableDef> tables : schemas.values()) {
                for (TableDef def : tables.values()) {
                    if (def.id() == id) {
                        return def;
                    }
                }
            }
            return null;
        }
    }

    private final KvStore store;
    private final boolean shared;
    private volatile Snapshot snapshot;
    private int nextId;

    private Catalog(KvStore store, boolean shared) {
        this.store = store;
        this.shared = shared;
    }

    /**
     * Loads the catalog, creating PUBLIC.KV in a new store.
     *
     * @param shared whether other processes may change the catalog in this store
     */
    public static Catalog open(KvStore store, boolean shared) throws SqlError {
        Catalog catalog = new Catalog(store, shared);
        if (shared) {
            store.watch(META_KEY); // every read then tells whether the catalog moved on
        }
        catalog.load();
        if (catalog.snapshot.version() == 0) {
            // if-not-exists: another process opening the same new shared store may create it first
            catalog.create(new TableDef(DEFAULT_SCHEMA, "KV", 0, "K", ColumnType.VARCHAR, 0, 0, "V",
                    ColumnType.VARCHAR, 0, 0), true);
        }
        return catalog;
    }

    public Snapshot snapshot() {
        return snapshot;
    }

    /** Whether other processes may change this catalog (a Raft group's store). */
    public boolean shared() {
        return shared;
    }

    /**
     * The key of the stored version entry, which every DDL rewrites: a write that expects the value a
     * snapshot read ({@link Snapshot#meta()}) is applied only while the catalog is still at that version.
     * A shared catalog's store reads it along with every read ({@link KvStore#watch}). Not to be modified.
     */
    public byte[] versionKey() {
        return META_KEY;
    }

    /** The catalog version that a stored version entry's value {@code meta} names (0 for none). */
    public static long versionOf(byte[] meta) {
        return meta == null || meta.length < 8 ? 0 : ByteBuffer.wrap(meta).getLong();
    }

    /**
     * For a shared catalog: reads the stored version (one {@code get}) and re-reads the catalog if it is not
     * the version this process knows. Nothing for a catalog only this process writes.
     *
     * @return whether the stored version was not the one this process knew
     */
    public boolean refresh() throws SqlError {
        if (shared && storedVersion() != snapshot.version()) {
            synchronized (this) {
                if (storedVersion() != snapshot.version()) {
                    load();
                }
            }
            return true;
        }
        return false;
    }

    private long storedVersion() {
        byte[] meta = store.get(META_KEY);
        return meta == null ? 0 : ByteBuffer.wrap(meta).getLong();
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
            throw new SqlError(SqlState.IO_ERROR, "cannot read the catalog: " + e.getMessage(), e);
        }
        schemas.computeIfAbsent(DEFAULT_SCHEMA, s -> new TreeMap<>());
        snapshot = freeze(version, schemas, meta);
    }

    /**
     * Adds a table and assigns its id.
     *
     * @return false if it exists and {@code ifNotExists} is set
     */
    public synchronized boolean create(TableDef def, boolean ifNotExists) throws SqlError {
        for (int attempt = 1; ; attempt++) {
            try {
                return tryCreate(def, ifNotExists);
            } catch (KeyExistsException e) {
                reloadAfterConflict(attempt, e);
            }
        }
    }

    /**
     * Removes a table and deletes its rows in batches (after the catalog entry, so a crash in between
     * leaves only unreachable rows).
     *
     * @return false if it does not exist and {@code ifExists} is set
     */
    public synchronized boolean drop(String schema, String name, boolean ifExists) throws SqlError {
        for (int attempt = 1; ; attempt++) {
            try {
                return tryDrop(schema, name, ifExists);
            } catch (KeyExistsException e) {
                reloadAfterConflict(attempt, e);
            }
        }
    }

    /** Another catalog over the same store claimed the version this DDL meant to make: start over from it. */
    private void reloadAfterConflict(int attempt, KeyExistsException conflict) throws SqlError {
        if (attempt >= DDL_ATTEMPTS) {
            throw new SqlError(SqlState.SERIALIZATION_FAILURE,
                    "the catalog kept changing under concurrent DDL; gave up after "
                    + attempt + " attempts", conflict);
        }
        load();
    }

    private boolean tryCreate(TableDef def, boolean ifNotExists) throws SqlError {
        if (SYSTEM_SCHEMA.equals(def.schema()) || INFORMATION_SCHEMA.equals(def.schema())) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "schema " + def.schema() + " holds system tables only");
        }
        if (snapshot.find(def.schema(), def.name()) != null) {
            if (ifNotExists) {
                return false;
            }
            throw new SqlError(SqlState.TABLE_ALREADY_EXISTS, "table " + def.qualifiedName() + " already exists");
        }
        TableDef withId = new TableDef(def.schema(), def.name(), nextId, def.keyColumn(), def.keyType(),
                def.keyLength(), def.keyScale(), def.valueColumn(), def.valueType(), def.valueLength(),
                def.valueScale());
        if (!shared) {
            // Clear anything a crash during an earlier DROP may have left under this id. Not in a shared
            // catalog: if this view is stale another process may own the id already, and its rows with it.
            deleteKeyspace(withId);
        }
        long version = snapshot.version() + 1;
        WriteBatch batch = new WriteBatch()
                .putIfAbsent(versionClaim(version), new byte[0])
                .put(entryKey(def.schema(), def.name()), withId.serialize())
                .put(META_KEY, meta(version, nextId + 1));
        store.write(batch, Durability.SYNC);
        nextId++;
        Map<String, Map<String, TableDef>> schemas = mutableCopy();
        schemas.computeIfAbsent(def.schema(), s -> new TreeMap<>()).put(def.name(), withId);
        snapshot = freeze(version, schemas, meta(version, nextId));
        return true;
    }

    private boolean tryDrop(String schema, String name, boolean ifExists) throws SqlError {
        if (SYSTEM_SCHEMA.equals(schema) || INFORMATION_SCHEMA.equals(schema)) {
            throw new SqlError(SqlState.SYNTAX_ERROR, "system table " + schema + "." + name + " cannot be dropped");
        }
        TableDef def = snapshot.find(schema, name);
        if (def == null) {
            if (ifExists) {
                return false;
            }
            throw new SqlError(SqlState.TABLE_NOT_FOUND, "table " + schema + "." + name + " does not exist");
        }
        long version = snapshot.version() + 1;
        WriteBatch batch = new WriteBatch().putIfAbsent(versionClaim(version), new byte[0])
                .delete(entryKey(schema, name)).put(META_KEY, meta(version, nextId));
        if (shared) {
            batch.put(dropRecord(version), span(def.prefix(), def.prefixEnd()));
        }
        store.write(batch, Durability.SYNC);
        Map<String, Map<String, TableDef>> schemas = mutableCopy();
        schemas.get(schema).remove(name);
        if (schemas.get(schema).isEmpty() && !DEFAULT_SCHEMA.equals(schema)) {
            schemas.remove(schema);
        }
        snapshot = freeze(version, schemas, meta(version, nextId));
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

    private static Snapshot freeze(long version, Map<String, Map<String, TableDef>> schemas, byte[] meta) {
        Map<String, Map<String, TableDef>> frozen = new TreeMap<>();
        schemas.forEach((schema, tables) -> frozen.put(schema, Collections.unmodifiableMap(new TreeMap<>(tables))));
        return new Snapshot(version, Collections.unmodifiableMap(frozen), meta);
    }

    private static byte[] meta(long version, int nextId) {
        return ByteBuffer.allocate(12).putLong(version).putInt(nextId).array();
    }

    private static byte[] versionClaim(long version) {
        return ByteBuffer.allocate(13).putInt(0).put(VERSION_CLAIM).putLong(version).array();
    }

    /**
     * The record a shared catalog's DROP at {@code version} leaves of the keys it deletes, {@code 0000 'D'
     * version}: a store cut into ranges deletes them in every range by that record, in the range's own log, so
     * that a write of the dropped table applied there late is deleted too (docs/SCALE.md, "The catalog version
     * across ranges", which names the format: the span's first key and the first key after it, each a 4-byte
     * length and the bytes).
     */
    private static byte[] dropRecord(long version) {
        return ByteBuffer.allocate(13).putInt(0).put(DROP_RECORD).putLong(version).array();
    }

    private static byte[] span(byte[] from, byte[] to) {
        return ByteBuffer.allocate(8 + from.length + to.length).putInt(from.length).put(from).putInt(to.length).put(to)
                .array();
    }

    private static byte[] entryKey(String schema, String name) {
        byte[] qualified = (schema + '\0' + name).getBytes(StandardCharsets.UTF_8);
        byte[] key = Arrays.copyOf(TABLE_PREFIX, TABLE_PREFIX.length + qualified.length);
        System.arraycopy(qualified, 0, key, TABLE_PREFIX.length, qualified.length);
        return key;
    }

    /** Every user table, ordered by schema and name. */
    public List<TableDef> tables() {
        List<TableDef> out = new ArrayList<>();
        snapshot.schemas().values().forEach(t -> out.addAll(t.values()));
        return out;
    }
}
