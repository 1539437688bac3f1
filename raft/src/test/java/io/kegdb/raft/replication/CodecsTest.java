package io.kegdb.raft.replication;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.Durability;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.range.CatalogFence;
import io.kegdb.raft.range.RangeDescriptor;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static io.kegdb.raft.TestBytes.b;
import static io.kegdb.raft.TestBytes.s;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The log entry and scan page encodings, and paging a scan. */
class CodecsTest {

    /** A multi-get's keys and values: order, empty and absent kept; a large answer holds a prefix of the values. */
    @Test
    void aMultiGetListKeepsOrderAndAbsenceAndALargeAnswerIsCutAfterItsBudget() {
        List<byte[]> values = Arrays.asList(b("x"), null, new byte[0], b("y"));
        List<String> back = MultiGetCodec.decode(MultiGetCodec.encode(values)).stream()
                .map(v -> v == null ? "null" : "'" + s(v) + "'").toList();
        assertEquals(List.of("'x'", "null", "''", "'y'"), back);
        assertEquals(4, MultiGetCodec.decode(MultiGetCodec.encodeAnswer(values, 10)).size());

        List<byte[]> big = List.of(new byte[600], new byte[600], new byte[10], new byte[600]);
        assertEquals(1, MultiGetCodec.decode(MultiGetCodec.encodeAnswer(big, 1000)).size());
        assertEquals(2, MultiGetCodec.decode(MultiGetCodec.encodeAnswer(big.subList(1, 4), 1000)).size(),
                "600 and 10 bytes fit, the next 600 do not");
        assertEquals(1, MultiGetCodec.decode(MultiGetCodec.encodeAnswer(List.of(new byte[5000]), 1000)).size(),
                "one value larger than the budget is answered alone");
        assertThrows(IllegalArgumentException.class, () -> MultiGetCodec.decode(new byte[] {0, 0, 0, 2, 0}));
        assertThrows(IllegalArgumentException.class, () -> MultiGetCodec.checkKeys(Arrays.asList(b("a"), null)));
    }

    @Test
    void aBatchSurvivesEncodingWithItsOrderAndKinds() {
        WriteBatch batch = new WriteBatch().put(b("a"), b("1")).delete(b("b")).putIfAbsent(b("c"), new byte[0])
                .put(new byte[0], b("empty key"));
        WriteBatch back = BatchCodec.decode(BatchCodec.encode(batch));
        List<String> ops = new ArrayList<>();
        back.replay(new WriteBatch.Handler() {
            @Override
            public void put(byte[] key, byte[] value) {
                ops.add("put " + s(key) + "=" + s(value));
            }

            @Override
            public void delete(byte[] key) {
                ops.add("delete " + s(key));
            }

            @Override
            public void putIfAbsent(byte[] key, byte[] value) {
                ops.add("putIfAbsent " + s(key) + "=" + s(value));
            }
        });
        assertEquals(List.of("put a=1", "delete b", "putIfAbsent c=", "put =empty key"), ops);
        assertArrayEquals(b("k"), BatchCodec.singleDeleteKey(new WriteBatch().delete(b("k"))));
        assertNull(BatchCodec.singleDeleteKey(new WriteBatch().delete(b("k")).delete(b("j"))));
    }

    @Test
    void preconditionsSurviveEncodingAndMakeABatchUnrepeatable() {
        WriteBatch batch = new WriteBatch().expect(b("k"), b("v")).expect(b("gone"), null)
                .expectRange(null, b("z"), 42L).expectRange(b("a"), null, -7L).expectPresent(b("row"))
                .put(b("k"), b("w"));
        List<String> seen = new ArrayList<>();
        BatchCodec.decode(BatchCodec.encode(batch)).replay(new WriteBatch.Handler() {
            @Override
            public void put(byte[] key, byte[] value) {
                seen.add("put " + s(key) + "=" + s(value));
            }

            @Override
            public void delete(byte[] key) {
                seen.add("delete " + s(key));
            }

            @Override
            public void putIfAbsent(byte[] key, byte[] value) {
                seen.add("insert " + s(key));
            }

            @Override
            public void expect(byte[] key, byte[] value) {
                seen.add("expect " + s(key) + "=" + (value == null ? "absent" : s(value)));
            }

            @Override
            public void expectPresent(byte[] key) {
                seen.add("present " + s(key));
            }

            @Override
            public void expectRange(byte[] from, byte[] to, long digest) {
                seen.add("range " + (from == null ? "-" : s(from)) + ".." + (to == null ? "-" : s(to)) + " " + digest);
            }
        });
        assertEquals(List.of("expect k=v", "expect gone=absent", "present row", "range -..z 42", "range a..- -7",
                "put k=w"), seen);
        assertNull(BatchCodec.singleDeleteKey(new WriteBatch().expect(b("k"), b("v")).delete(b("k"))));
    }

    @Test
    void aVersion2EntryFromBeforeRangesNamesNoRange() {
        byte[] batch = BatchCodec.encode(new WriteBatch().put(b("k"), b("v")));
        ByteBuffer v2 = ByteBuffer.allocate(2 + 5 * Long.BYTES + batch.length);
        v2.put((byte) 2).put(LogEntry.WRITE).putLong(99).putLong(1).putLong(2).putLong(5).putLong(4).put(batch);
        assertTrue(LogEntry.isSessionEntry(v2.array()));
        LogEntry back = LogEntry.decode(v2.array());
        assertEquals(new SessionId(1, 2), back.session());
        assertEquals(5, back.serial());
        assertEquals(4, back.floor());
        assertEquals(0, back.range());
        assertEquals(0, back.generation());
        assertArrayEquals(batch, back.batch());
        byte[] init = v2.array().clone();
        init[1] = LogEntry.INIT_DESCRIPTOR;
        assertThrows(IllegalArgumentException.class, () -> LogEntry.decode(init), "version 2 has no range commands");
    }

    @Test
    void anInitialDescriptorEntryCarriesTheDescriptor() {
        RangeDescriptor d = RangeDescriptor.initial(List.of("127.0.0.1:1"));
        LogEntry back = LogEntry.decode(LogEntry.initDescriptor(12, d.encode()).encode());
        assertEquals(LogEntry.INIT_DESCRIPTOR, back.kind());
        assertEquals(12, back.time());
        assertEquals(d, RangeDescriptor.decode(back.batch()));
    }

    @Test
    void aFenceEntryCarriesItsCommand() {
        CatalogFence.Command command = new CatalogFence.Command(new byte[]{0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 9},
                List.<byte[][]>of(new byte[][]{{0, 0, 0, 7}, {0, 0, 0, 8}}));
        LogEntry back = LogEntry.decode(LogEntry.fence(13, command.encode()).encode());
        assertEquals(LogEntry.FENCE, back.kind());
        CatalogFence.Command decoded = CatalogFence.Command.decode(back.batch());
        assertEquals(4, decoded.version());
        assertArrayEquals(new byte[]{0, 0, 0, 8}, decoded.spans().get(0)[1]);
        assertThrows(IllegalArgumentException.class, () -> CatalogFence.Command.decode(new byte[]{1, 0, 0}));
    }

    @Test
    void aReplicaInstallsTheInitialDescriptorOnceAndChecksWritesByIt() {
        ReplicaRange range = new ReplicaRange();
        assertNull(range.stored());
        assertEquals(ReplicaRange.IMPLICIT, range.held());
        WriteBatch put = new WriteBatch().put(b("k"), b("v"));
        assertTrue(range.applies(0, 0, put), "an entry naming no range, in bounds");
        assertTrue(range.applies(1, 1, put), "range 1 generation 1 is every cluster's beginning");
        assertFalse(range.applies(1, 2, put));
        RangeDescriptor first = RangeDescriptor.initial(List.of("h:1"));
        WriteBatch stored = range.install(first.encode());
        assertNotNull(stored, "the first installs");
        assertEquals(first, range.stored());
        RangeDescriptor other = new RangeDescriptor(1, new byte[0], null, 9, 9,
                List.of("h:2"));
        assertNull(range.install(other.encode()), "a second proposal changes nothing");
        assertEquals(first, range.stored());
        range.load(null, null);
        assertNull(range.stored(), "a snapshot without a descriptor");
        range.load(other.encode(), null);
        assertEquals(other, range.stored());
        assertFalse(range.applies(1, 1, put), "generation 9 now");
        assertTrue(range.applies(1, 9, put));
        assertFalse(range.applies(2, 9, put), "another range's entry is stale here");
    }

    @Test
    void aSessionEntryCarriesItsSessionSerialFloorTimeAndBatch() {
        byte[] batch = BatchCodec.encode(new WriteBatch().put(b("k"), b("v")));
        SessionId id = new SessionId(0x0123456789abcdefL, -2L);
        byte[] bytes = LogEntry.write(1_700_000_000_123L, id, 42, 40, 7, 3, batch).encode();
        assertTrue(LogEntry.isSessionEntry(bytes));
        assertFalse(LogEntry.isSessionEntry(batch), "a bare batch entry (version 1) is told apart");
        LogEntry back = LogEntry.decode(bytes);
        assertEquals(LogEntry.WRITE, back.kind());
        assertEquals(1_700_000_000_123L, back.time());
        assertEquals(id, back.session());
        assertEquals(42, back.serial());
        assertEquals(40, back.floor());
        assertEquals(7, back.range());
        assertEquals(3, back.generation());
        assertArrayEquals(batch, back.batch());
        LogEntry open = LogEntry.decode(LogEntry.openSession(5, id).encode());
        assertEquals(LogEntry.OPEN_SESSION, open.kind());
        assertEquals(0, open.batch().length);
        assertThrows(IllegalArgumentException.class, () -> LogEntry.decode(Arrays.copyOf(bytes, 20)));
    }

    @Test
    void damagedEntriesAreRejectedNamingTheProblem() {
        byte[] good = BatchCodec.encode(new WriteBatch().put(b("key"), b("value")));
        IllegalArgumentException truncated = assertThrows(IllegalArgumentException.class,
                () -> BatchCodec.decode(Arrays.copyOf(good, good.length - 2)));
        assertTrue(truncated.getMessage().contains("truncated"), truncated.getMessage());
        byte[] wrongVersion = good.clone();
        wrongVersion[0] = 9;
        assertTrue(assertThrows(IllegalArgumentException.class, () -> BatchCodec.decode(wrongVersion))
                .getMessage().contains("version 9"));
    }

    @Test
    void pagedScansVisitEveryKeyOnceInBothDirections() {
        try (KvStore store = KvStore.inMemory()) {
            for (int i = 0; i < 25; i++) {
                store.put(b(String.format("k%02d", i)), b("v" + i), Durability.NO_SYNC);
            }
            List<String> up = drain(new PagedIterator((from, to, limit) -> page(store, from, to, limit, false),
                    b("k03"), b("k23"), false, 4));
            assertEquals(20, up.size());
            assertEquals("k03", up.get(0));
            assertEquals("k22", up.get(19));
            List<String> down = drain(new PagedIterator((from, to, limit) -> page(store, from, to, limit, true),
                    null, null, true, 5));
            assertEquals(25, down.size());
            assertEquals("k24", down.get(0));
            assertEquals("k00", down.get(24));
            List<KeyValue> decoded = PageCodec.decode(PageCodec.encode(page(store, null, null, 3, false)));
            assertEquals("v2", s(decoded.get(2).value()));
        }
    }

    private static List<KeyValue> page(KvStore store, byte[] from, byte[] to, int limit, boolean descending) {
        List<KeyValue> out = new ArrayList<>();
        try (KvIterator it = descending ? store.scanDescending(from, to) : store.scan(from, to)) {
            while (out.size() < limit && it.hasNext()) {
                out.add(it.next());
            }
        }
        return out;
    }

    private static List<String> drain(KvIterator it) {
        List<String> keys = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                keys.add(s(it.next().key()));
            }
        }
        return keys;
    }
}
