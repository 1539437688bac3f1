package io.kegdb.raft.replication;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.range.CatalogFence;
import io.kegdb.raft.range.RangeDescriptor;
import io.kegdb.raft.range.SplitCommand;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code SPLIT} as each replica applies it, in log order: the new range is made from the pairs of
 * {@code [at, end)} (with the catalog fence the range had), the range narrows and drops those pairs, writes under
 * the old generation or of moved keys are stale, and the split applied again (a replay) changes nothing. A
 * snapshot taken after it names the new range, so a replica catching up by it hosts the new range too.
 */
class SplitApplyTest {

    @TempDir
    Path dir;

    private static final byte[] AT = keyspace(9);
    private static final RangeDescriptor FIRST = RangeDescriptor.initial(List.of("127.0.0.1:1"));
    private static final SplitCommand SPLIT = new SplitCommand(AT, 2, 1, "g_r2");

    private static byte[] keyspace(int id) {
        return ByteBuffer.allocate(4).putInt(id).array();
    }

    private static byte[] key(int table, int n) {
        return ByteBuffer.allocate(8).putInt(table).putInt(n).array();
    }

    /** Records what the state machine asks of its host. */
    static final class Recording implements RangeSplits {
        final List<RangeDescriptor> made = new ArrayList<>();
        final List<byte[]> fences = new ArrayList<>();
        final List<List<byte[]>> pairs = new ArrayList<>();
        final List<String> hosted = new ArrayList<>();

        @Override
        public void make(String group, RangeDescriptor range, byte[] fence, KvIterator pairs) {
            made.add(range);
            fences.add(fence);
            List<byte[]> keys = new ArrayList<>();
            while (pairs.hasNext()) {
                KeyValue kv = pairs.next();
                keys.add(kv.key());
            }
            this.pairs.add(keys);
        }

        @Override
        public void host(String group, RangeDescriptor range) {
            hosted.add(group);
        }
    }

    private static void load(StateMachineDriver replica) {
        replica.install(FIRST);
        WriteBatch rows = new WriteBatch().put(CatalogFence.VERSION_KEY, ByteBuffer.allocate(12).putLong(3).array());
        for (int n = 0; n < 10; n++) {
            rows.put(key(5, n), new byte[]{1}).put(key(9, n), new byte[]{2});
        }
        assertEquals(KvResponse.OK, replica.write(FIRST, rows).status());
    }

    @Test
    void aSplitMakesTheNewRangeFromItsPairsNarrowsThisOneAndIsANoOpAgain() throws Exception {
        Recording host = new Recording();
        try (StateMachineDriver replica = new StateMachineDriver(dir.resolve("a"))) {
            replica.fsm.splitsInto(host);
            load(replica);
            replica.apply(LogEntry.split(5, SPLIT.encode()));

            RangeDescriptor left = new RangeDescriptor(1, new byte[0], AT, 2, 1, FIRST.replicas());
            RangeDescriptor right = new RangeDescriptor(2, AT, null, 2, 1, FIRST.replicas());
            assertEquals(List.of(right), host.made);
            assertEquals(3, CatalogFence.version(host.fences.get(0)), "the new range's fence: the catalog's version");
            assertEquals(10, host.pairs.get(0).size(), "table 9's pairs, nothing else");
            assertArrayEquals(key(9, 0), host.pairs.get(0).get(0));
            assertEquals(List.of("g_r2"), host.hosted);
            assertEquals(left, replica.fsm.descriptor());
            assertEquals(List.of(), replica.keys(keyspace(9), null), "the moved pairs left this range");
            assertEquals(10, replica.keys(keyspace(5), keyspace(6)).size());

            assertEquals(KvResponse.STALE_ROUTE, replica.write(FIRST, new WriteBatch().put(key(5, 1), new byte[3]))
                    .status(), "the old generation");
            assertEquals(KvResponse.STALE_ROUTE, replica.write(left, new WriteBatch().put(key(9, 1), new byte[3]))
                    .status(), "a moved key");
            assertEquals(KvResponse.OK, replica.write(left, new WriteBatch().put(key(5, 1), new byte[3])).status());

            replica.apply(LogEntry.split(6, SPLIT.encode()));
            assertEquals(1, host.made.size(), "applied again: a no-op");
            assertEquals(left, replica.fsm.descriptor());
        }
    }

    @Test
    void theSystemSpanNeverSplits() throws Exception {
        Recording host = new Recording();
        try (StateMachineDriver replica = new StateMachineDriver(dir.resolve("s"))) {
            replica.fsm.splitsInto(host);
            load(replica);
            replica.apply(LogEntry.split(5, new SplitCommand(new byte[]{0, 0, 0, 0, 'T'}, 2, 1, "g_r2").encode()));
            assertEquals(List.of(), host.made);
            assertEquals(FIRST, replica.fsm.descriptor());
        }
    }

    @Test
    void aReplicaWithoutAHostForTheNewRangeStopsRatherThanLoseIt() throws Exception {
        try (StateMachineDriver replica = new StateMachineDriver(dir.resolve("n"))) {
            load(replica);
            assertThrows(IllegalStateException.class, () -> replica.apply(LogEntry.split(5, SPLIT.encode())));
            assertEquals(10, replica.keys(keyspace(9), null).size(), "nothing moved");
        }
    }

    @Test
    void aSnapshotTakenAfterTheSplitNamesTheNewRange() throws Exception {
        Path snapshot = Files.createDirectories(dir.resolve("snapshot"));
        try (StateMachineDriver replica = new StateMachineDriver(dir.resolve("before"))) {
            replica.fsm.splitsInto(new Recording());
            load(replica);
            replica.apply(LogEntry.split(5, SPLIT.encode()));
            replica.saveSnapshot(snapshot);
        }
        Recording host = new Recording();
        try (StateMachineDriver caughtUp = new StateMachineDriver(dir.resolve("after"))) {
            caughtUp.fsm.splitsInto(host);
            caughtUp.loadSnapshot(snapshot);
            assertEquals(List.of("g_r2"), host.hosted, "hosted, to be sent its state by its group's leader");
            assertEquals(List.of(), host.made, "not made here: the pairs are not in this snapshot");
            assertEquals(2, caughtUp.fsm.descriptor().generation());
        }
    }

    @Test
    void aSplitCommandReadsBackAsWritten() {
        SplitCommand back = SplitCommand.decode(SPLIT.encode());
        assertArrayEquals(AT, back.at());
        assertEquals(2, back.newId());
        assertEquals(1, back.generation());
        assertEquals("g_r2", back.group());
        assertEquals("kg", SplitCommand.groupOf("kg", 1));
        assertEquals("kg_r7", SplitCommand.groupOf("kg", 7));
        assertThrows(IllegalArgumentException.class, () -> SplitCommand.decode(new byte[]{1, 2}));
    }
}
