package io.kegdb.raft.replication;

import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.range.CatalogFence;
import io.kegdb.raft.range.MetaKeys;
import io.kegdb.raft.range.RangeDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * The catalog version across ranges (docs/SCALE.md): a range without the catalog checks a write's catalog
 * precondition against its fence, which fence commands in its own log advance; a DROP's deletion rides the
 * same command, so a late write of the dropped table is deleted whether it applies before the fence or is
 * refused after it. With one range, the precondition is checked against the version entry as ever.
 */
class CatalogFenceTest {

    @TempDir
    Path dir;

    /** Range 2, holding keyspaces 5 and up (a second range never holds the system span). */
    private static final RangeDescriptor SECOND = new RangeDescriptor(2, keyspace(5), null, 2, 1, List.of("h:1"));
    private static final RangeDescriptor FIRST = RangeDescriptor.initial(List.of("h:1"));

    private static byte[] keyspace(int id) {
        return ByteBuffer.allocate(4).putInt(id).array();
    }

    private static byte[] key(int table, String k) {
        byte[] s = k.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + s.length).putInt(table).put(s).array();
    }

    /** The catalog version entry's value at {@code version}, as the SQL layer writes it (version, next id). */
    private static byte[] entry(long version) {
        return ByteBuffer.allocate(12).putLong(version).putInt(20).array();
    }

    /** A SQL write planned on catalog {@code version}. */
    private static WriteBatch at(long version, byte[] key, String value) {
        return new WriteBatch().put(key, value.getBytes(java.nio.charset.StandardCharsets.UTF_8))
                .expect(CatalogFence.VERSION_KEY, entry(version));
    }

    private static LogEntry fence(long version, byte[][]... spans) {
        return LogEntry.fence(3, new CatalogFence.Command(entry(version), Arrays.asList(spans)).encode());
    }

    private static final byte[][] TABLE_7 = {keyspace(7), keyspace(8)};

    @Test
    void aWriteNamingAVersionBelowTheFenceIsRefusedInASecondRange() throws Exception {
        try (StateMachineDriver replica = new StateMachineDriver(dir.resolve("r2"))) {
            replica.install(SECOND);
            replica.apply(fence(3));
            assertEquals(3, replica.fsm.fenceVersion());

            DataStore.Outcome stale = replica.write(SECOND, at(2, key(7, "a"), "planned on 2"));
            assertEquals(KvResponse.WRITE_CONFLICT, stale.status(), "refused as a changed catalog");
            assertArrayEquals(CatalogFence.VERSION_KEY, stale.existingKey(), "named as the version entry's conflict");
            assertNull(replica.data.get(key(7, "a")));

            assertEquals(KvResponse.OK, replica.write(SECOND, at(3, key(7, "b"), "planned on 3")).status());
            assertEquals(KvResponse.OK, replica.write(SECOND, at(4, key(7, "c"), "planned on 4")).status(),
                    "a fence behind the version a write names admits it: the DDL it lags made no change here yet");
            assertEquals(KvResponse.OK, replica.write(SECOND, new WriteBatch().put(key(9, "x"), new byte[1])).status(),
                    "a write naming no catalog version");
            assertEquals(2, replica.keys(keyspace(7), keyspace(8)).size());

            // A read's watched version entry is answered with the fence; the fence is in the data store.
            assertArrayEquals(MetaKeys.LOCAL_FENCE, replica.fsm.watchedKey(CatalogFence.VERSION_KEY));
            assertArrayEquals(entry(3), replica.data.get(MetaKeys.LOCAL_FENCE));
            // The version entry itself is still outside the range: writing it is a stale route.
            assertEquals(KvResponse.STALE_ROUTE, replica.write(SECOND,
                    new WriteBatch().put(CatalogFence.VERSION_KEY, entry(9))).status());

            // An older or equal fence (a replay, a second proposal) changes nothing.
            replica.apply(fence(2, TABLE_7));
            replica.apply(fence(3, TABLE_7));
            assertEquals(3, replica.fsm.fenceVersion());
            assertEquals(2, replica.keys(keyspace(7), keyspace(8)).size());
        }
    }

    @Test
    void withOneRangeTheCatalogPreconditionIsCheckedAgainstTheEntryItselfAndFencesChangeNothing() throws Exception {
        try (StateMachineDriver replica = new StateMachineDriver(dir.resolve("r1"))) {
            replica.install(FIRST);
            assertEquals(KvResponse.OK, replica.write(FIRST, new WriteBatch()
                    .put(CatalogFence.VERSION_KEY, entry(3))).status());
            DataStore.Outcome stale = replica.write(FIRST, at(2, key(7, "a"), "planned on 2"));
            assertEquals(KvResponse.WRITE_CONFLICT, stale.status());
            assertArrayEquals(CatalogFence.VERSION_KEY, stale.existingKey());
            assertEquals(KvResponse.WRITE_CONFLICT, replica.write(FIRST, at(4, key(7, "a"), "planned on 4")).status(),
                    "the entry is compared exactly, as before ranges");
            assertEquals(KvResponse.OK, replica.write(FIRST, at(3, key(7, "b"), "planned on 3")).status());

            replica.apply(fence(5, TABLE_7));
            assertEquals(0, replica.fsm.fenceVersion(), "range 1 holds the catalog and no fence");
            assertNull(replica.data.get(MetaKeys.LOCAL_FENCE));
            assertEquals(1, replica.keys(keyspace(7), keyspace(8)).size(), "a fence deletes nothing in range 1");
            assertArrayEquals(CatalogFence.VERSION_KEY, replica.fsm.watchedKey(CatalogFence.VERSION_KEY));
        }
    }

    @Test
    void aDropsDeletionLeavesNothingWhenTheLateWriteIsAppliedBeforeTheFence() throws Exception {
        try (StateMachineDriver replica = new StateMachineDriver(dir.resolve("before"))) {
            replica.install(SECOND);
            replica.apply(fence(3));
            assertEquals(KvResponse.OK, replica.write(SECOND, at(3, key(7, "row"), "before the drop")).status());
            assertEquals(KvResponse.OK, replica.write(SECOND, at(3, key(9, "kept"), "another table")).status());
            // DROP TABLE of keyspace 7 committed in range 1 at version 4; a write planned on 3 comes late
            assertEquals(KvResponse.OK, replica.write(SECOND, at(3, key(7, "late"), "late")).status());
            replica.apply(fence(4, TABLE_7));
            assertEquals(List.of(), replica.keys(keyspace(7), keyspace(8)), "the late write deleted with the table");
            assertEquals(1, replica.keys(keyspace(9), keyspace(10)).size(), "other tables untouched");
            assertEquals(4, replica.fsm.fenceVersion());
        }
    }

    @Test
    void aDropsDeletionLeavesNothingWhenTheLateWriteIsAppliedAfterTheFence() throws Exception {
        try (StateMachineDriver replica = new StateMachineDriver(dir.resolve("after"))) {
            replica.install(SECOND);
            replica.apply(fence(3));
            assertEquals(KvResponse.OK, replica.write(SECOND, at(3, key(7, "row"), "before the drop")).status());
            replica.apply(fence(4, TABLE_7));
            assertEquals(List.of(), replica.keys(keyspace(7), keyspace(8)));
            assertEquals(KvResponse.WRITE_CONFLICT, replica.write(SECOND, at(3, key(7, "late"), "late")).status(),
                    "refused by the fence");
            assertEquals(List.of(), replica.keys(keyspace(7), keyspace(8)));

            // a second proposal of the same fence, after newer writes, deletes nothing of theirs
            assertEquals(KvResponse.OK, replica.write(SECOND, at(4, key(9, "new"), "planned on 4")).status());
            replica.apply(fence(4, TABLE_7));
            assertEquals(1, replica.keys(keyspace(9), keyspace(10)).size());
        }
    }

    @Test
    void theFenceIsInTheSnapshotAndSurvivesALoad() throws Exception {
        Path snapshot = dir.resolve("snapshot");
        java.nio.file.Files.createDirectories(snapshot);
        try (StateMachineDriver replica = new StateMachineDriver(dir.resolve("saved"))) {
            replica.install(SECOND);
            replica.apply(fence(6));
            replica.saveSnapshot(snapshot);
        }
        try (StateMachineDriver restarted = new StateMachineDriver(dir.resolve("loaded"))) {
            restarted.loadSnapshot(snapshot);
            assertEquals(SECOND, restarted.fsm.descriptor());
            assertEquals(6, restarted.fsm.fenceVersion());
            assertEquals(KvResponse.WRITE_CONFLICT, restarted.write(SECOND, at(5, key(7, "a"), "planned on 5")).status());
        }
    }
}
