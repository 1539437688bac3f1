package io.kegdb.raft.replication;

import io.kegdb.engine.Durability;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.range.CatalogFence;
import io.kegdb.raft.range.FenceKeeper;
import io.kegdb.raft.range.RangeDescriptor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A range leader brings its fence up to the meta range's catalog version in one command, carrying the spans of
 * every DROP above its fence and none below it; a current fence, or a range holding the catalog, proposes
 * nothing.
 */
class FenceKeeperTest {

    @TempDir
    Path dir;

    private static byte[] keyspace(int id) {
        return ByteBuffer.allocate(4).putInt(id).array();
    }

    private static byte[] entry(long version) {
        return ByteBuffer.allocate(12).putLong(version).putInt(20).array();
    }

    @Test
    void theFenceCatchesUpWithEveryDropAboveIt() throws Exception {
        RangeDescriptor second = new RangeDescriptor(2, keyspace(5), null, 1, 1, List.of("h:1"));
        try (StateMachineDriver replica = new StateMachineDriver(dir.resolve("r2")); KvStore meta = KvStore.inMemory()) {
            replica.install(second);
            replica.apply(LogEntry.fence(1, new CatalogFence.Command(entry(3), List.of()).encode()));
            for (int table = 6; table <= 8; table++) {
                replica.write(second, new WriteBatch().put(ByteBuffer.allocate(5).putInt(table).put((byte) 1).array(),
                        new byte[1]));
            }
            // the meta range: DROPs at versions 2 (table 6: below the fence, done long ago), 4 (7) and 5 (8)
            meta.write(new WriteBatch().put(CatalogFence.VERSION_KEY, entry(5))
                    .put(CatalogFence.dropKey(2), CatalogFence.encodeSpan(keyspace(6), keyspace(7)))
                    .put(CatalogFence.dropKey(4), CatalogFence.encodeSpan(keyspace(7), keyspace(8)))
                    .put(CatalogFence.dropKey(5), CatalogFence.encodeSpan(keyspace(8), keyspace(9))), Durability.SYNC);
            List<CatalogFence.Command> proposed = new ArrayList<>();
            FenceKeeper keeper = new FenceKeeper("g", new FenceKeeper.Replica() {
                @Override
                public RangeDescriptor held() {
                    return replica.fsm.heldDescriptor();
                }

                @Override
                public long fenceVersion() {
                    return replica.fsm.fenceVersion();
                }

                @Override
                public boolean isLeader() {
                    return true;
                }

                @Override
                public CompletableFuture<?> proposeFence(CatalogFence.Command command) {
                    proposed.add(command);
                    replica.apply(LogEntry.fence(4, command.encode()));
                    return CompletableFuture.completedFuture(null);
                }
            }, meta);
            try (keeper) {
                CatalogFence.Command command = keeper.advance();
                assertEquals(5, command.version());
                assertEquals(2, command.spans().size(), "the drops at 4 and 5, not the one at 2");
                assertArrayEquals(keyspace(7), command.spans().get(0)[0]);
                assertEquals(5, replica.fsm.fenceVersion());
                assertEquals(1, replica.keys(keyspace(6), keyspace(7)).size(), "below the fence: not this command's");
                assertEquals(List.of(), replica.keys(keyspace(7), keyspace(9)));
                assertNull(keeper.advance(), "current: nothing proposed");
                assertEquals(1, proposed.size());
            }
        }
    }

    @Test
    void aRangeHoldingTheCatalogHasNoFenceToKeep() throws Exception {
        try (KvStore meta = KvStore.inMemory()) {
            meta.put(CatalogFence.VERSION_KEY, entry(9), Durability.SYNC);
            FenceKeeper keeper = new FenceKeeper("g", new FenceKeeper.Replica() {
                @Override
                public RangeDescriptor held() {
                    return RangeDescriptor.initial(List.of());
                }

                @Override
                public long fenceVersion() {
                    return 0;
                }

                @Override
                public boolean isLeader() {
                    return true;
                }

                @Override
                public CompletableFuture<?> proposeFence(CatalogFence.Command command) {
                    throw new AssertionError("range 1 proposed a fence");
                }
            }, meta);
            try (keeper) {
                assertNull(keeper.advance());
            }
        }
    }

    @Test
    void theCatalogsKeysAreTheOnesTheSqlLayerWrites() {
        assertArrayEquals(new byte[]{0, 0, 0, 0, 'M'}, CatalogFence.VERSION_KEY);
        assertArrayEquals(ByteBuffer.allocate(13).putInt(0).put((byte) 'D').putLong(12).array(), CatalogFence.dropKey(12));
        assertArrayEquals(ByteBuffer.allocate(16).putInt(4).putInt(7).putInt(4).putInt(8).array(),
                CatalogFence.encodeSpan(keyspace(7), keyspace(8)));
        assertEquals(12, CatalogFence.version(entry(12)));
    }
}
