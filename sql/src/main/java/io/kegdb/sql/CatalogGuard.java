package io.kegdb.sql;

import io.kegdb.engine.WriteBatch;
import io.kegdb.sql.catalog.Catalog;
import io.kegdb.sql.catalog.TableDef;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;

/**
 * The tables a write batch touches, for a write refused because the shared catalog's version moved: if each
 * is the same table in the new catalog (same id, same definition), the DDL that moved it changed other
 * tables only, and the batch may be written again under the new version.
 */
final class CatalogGuard {

    private CatalogGuard() {
    }

    /** Whether every table whose keys {@code batch} writes or expects is the same in {@code before} and {@code after}. */
    static boolean sameTables(WriteBatch batch, byte[] versionKey, Catalog.Snapshot before, Catalog.Snapshot after) {
        Set<Integer> ids = new HashSet<>();
        boolean[] other = {false};
        batch.replay(new WriteBatch.KeyHandler() {
            @Override
            protected void key(byte[] key) {
                if (key == null || Arrays.equals(key, versionKey)) {
                    return;
                }
                if (key.length < TableDef.PREFIX_LENGTH) {
                    other[0] = true; // not a table's key: nothing to compare it by
                    return;
                }
                ids.add(ByteBuffer.wrap(key).getInt());
            }

            @Override
            protected void span(byte[] from, byte[] to) {
                if (from == null || to == null) {
                    other[0] = true; // an open range may span tables
                } else {
                    key(from);
                    key(to);
                }
            }
        });
        if (other[0]) {
            return false;
        }
        for (int id : ids) {
            TableDef was = byId(before, id);
            // A range read up to a table's end bound names the next id, which need not be a table.
            if (was != null && !Objects.equals(was, byId(after, id))) {
                return false;
            }
        }
        return true;
    }

    private static TableDef byId(Catalog.Snapshot snapshot, int id) {
        return snapshot.tableOf(ByteBuffer.allocate(TableDef.PREFIX_LENGTH).putInt(id).array());
    }

    /** A copy of {@code batch} without its preconditions on {@code versionKey}. */
    static WriteBatch without(WriteBatch batch, byte[] versionKey) {
        WriteBatch copy = new WriteBatch();
        batch.replay(new WriteBatch.Handler() {
            @Override
            public void put(byte[] key, byte[] value) {
                copy.put(key, value);
            }

            @Override
            public void delete(byte[] key) {
                copy.delete(key);
            }

            @Override
            public void putIfAbsent(byte[] key, byte[] value) {
                copy.putIfAbsent(key, value);
            }

            @Override
            public void expect(byte[] key, byte[] value) {
                if (!Arrays.equals(key, versionKey)) {
                    copy.expect(key, value);
                }
            }

            @Override
            public void expectPresent(byte[] key) {
                copy.expectPresent(key);
            }

            @Override
            public void expectRange(byte[] from, byte[] to, long digest) {
                copy.expectRange(from, to, digest);
            }
        });
        return copy;
    }
}
