package io.kegdb.sql.txn;

import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyExistsException;
import io.kegdb.engine.KvCursor;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import io.kegdb.engine.WriteBatch;
import io.kegdb.engine.WriteConflictException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The transaction overlay: point writes in a hash map, key order built for scans and kept up to date. */
class OverlayTest {

    private KvStore store;
    private Overlay overlay;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String s(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }

    @BeforeEach
    void open() {
        store = KvStore.inMemory();
        store.put(b("a"), b("A0"), Durability.NO_SYNC);
        store.put(b("c"), b("C0"), Durability.NO_SYNC);
        overlay = new Overlay(new StoreView(store));
    }

    @AfterEach
    void close() {
        store.close();
    }

    private List<String> scan(byte[] from, byte[] to, boolean descending) {
        List<String> out = new ArrayList<>();
        try (KvIterator it = overlay.scan(from, to, descending)) {
            it.forEachRemaining(kv -> out.add(s(kv.key()) + "=" + s(kv.value())));
        }
        return out;
    }

    @Test
    void insertIfAbsentChecksTheOverlayThenTheStore() {
        assertTrue(overlay.insertIfAbsent(b("b"), b("B1")));
        assertFalse(overlay.insertIfAbsent(b("b"), b("B2")), "already inserted in the overlay");
        assertFalse(overlay.insertIfAbsent(b("a"), b("A1")), "present in the store");
        overlay.delete(b("c"));
        assertFalse(overlay.contains(b("c")));
        assertTrue(overlay.insertIfAbsent(b("c"), b("C1")), "deleted in the overlay");
        assertEquals("B1", s(overlay.get(b("b"))));
        assertEquals("C1", s(overlay.get(b("c"))));
        assertTrue(overlay.contains(b("a")));
        assertNull(store.get(b("b")), "nothing reaches the store before commit");
        store.write(overlay.toBatch(), Durability.NO_SYNC);
        assertEquals("B1", s(store.get(b("b"))));
        assertEquals("C1", s(store.get(b("c"))));
    }

    @Test
    void anInsertFoundTakenAtCommitFailsTheWholeBatch() {
        assertTrue(overlay.insertIfAbsent(b("b"), b("B1")));
        overlay.put(b("z"), b("Z1"));
        store.put(b("b"), b("other session"), Durability.NO_SYNC);
        assertThrows(KeyExistsException.class, () -> store.write(overlay.toBatch(), Durability.NO_SYNC));
        assertNull(store.get(b("z")));
    }

    @Test
    void scansMergeInKeyOrderAndFollowLaterWrites() {
        overlay.put(b("d"), b("D1"));
        overlay.insert(b("b"), b("B1"), true);
        assertEquals(List.of("a=A0", "b=B1", "c=C0", "d=D1"), scan(null, null, false));
        // Writes after the first scan keep the ordered copy current.
        overlay.delete(b("a"));
        overlay.put(b("bb"), b("BB1"));
        overlay.delete(b("b")); // an insert deleted again leaves nothing
        assertEquals(List.of("d=D1", "c=C0", "bb=BB1"), scan(null, null, true));
        assertEquals(List.of("bb=BB1", "c=C0"), scan(b("b"), b("d"), false));
        overlay.clear();
        assertTrue(overlay.isEmpty());
        assertEquals(List.of("a=A0", "c=C0"), scan(null, null, false));
        overlay.put(b("e"), b("E1"));
        assertEquals(List.of("a=A0", "c=C0", "e=E1"), scan(null, null, false));
    }

    @Test
    void absorbMovesAStatementsWritesIntoTheTransaction() {
        overlay.put(b("x"), b("X1"));
        Overlay statement = new Overlay(overlay);
        assertTrue(statement.insertIfAbsent(b("y"), b("Y1")));
        assertFalse(statement.insertIfAbsent(b("x"), b("X2")), "sees the transaction's writes");
        statement.delete(b("a"));
        overlay.absorb(statement);
        assertEquals(List.of("c=C0", "x=X1", "y=Y1"), scan(null, null, false));
        assertEquals(3, overlay.size());
    }

    /** A view over the store that counts the multi-gets it is asked and keeps the keys of the last one. */
    private static final class CountingView implements ReadView {
        private final ReadView store;
        int getAlls;
        int gets;
        List<String> lastKeys;

        CountingView(ReadView store) {
            this.store = store;
        }

        @Override
        public byte[] get(byte[] key) {
            gets++;
            return store.get(key);
        }

        @Override
        public List<byte[]> getAll(List<byte[]> keys) {
            getAlls++;
            lastKeys = keys.stream().map(OverlayTest::s).toList();
            return store.getAll(keys);
        }

        @Override
        public KvIterator scan(byte[] from, byte[] to, boolean descending) {
            return store.scan(from, to, descending);
        }
    }

    private static List<String> strings(List<byte[]> values) {
        return values.stream().map(OverlayTest::s).toList();
    }

    @Test
    void getAllReadsItsOwnWritesAndAsksTheBaseOnceForTheRest() {
        CountingView base = new CountingView(new StoreView(store));
        Overlay txn = new Overlay(base);
        txn.put(b("a"), b("A1"));
        txn.delete(b("c"));
        txn.insert(b("n"), b("N1"), true);
        List<byte[]> values = txn.getAll(List.of(b("c"), b("zz"), b("a"), b("n"), b("c"), b("a")));
        assertEquals(Arrays.asList(null, null, "A1", "N1", null, "A1"), strings(values));
        assertEquals(1, base.getAlls);
        assertEquals(0, base.gets);
        assertEquals(List.of("zz"), base.lastKeys, "only keys the overlay does not hold reach the base");
        txn.getAll(List.of(b("a"), b("n")));
        assertEquals(1, base.getAlls, "every key answered by the overlay: no store read");
        // A statement's overlay over the transaction's, seen over another view, answers alike.
        Overlay statement = new Overlay(txn);
        statement.put(b("zz"), b("Z2"));
        assertEquals(Arrays.asList("A1", "Z2", null), strings(statement.getAll(List.of(b("a"), b("zz"), b("c")))));
        CountingView other = new CountingView(new StoreView(store));
        assertEquals(Arrays.asList("A1", null, null), strings(txn.over(other).getAll(List.of(b("a"), b("c"), b("zz")))));
        assertEquals(1, other.getAlls);
        assertEquals(List.of("zz"), other.lastKeys);
    }

    /**
     * SERIALIZABLE reads record each key a multi-get read as a point read, exactly as single gets do: the
     * commit fails when one of them changed, and keys answered by the transaction's own writes are not recorded.
     */
    @Test
    void recordedMultiGetValidatesEachKeyAsPointReadsDo() {
        for (boolean viaGetAll : new boolean[] {true, false}) {
            ReadSet reads = new ReadSet();
            Overlay txn = new Overlay(new RecordingView(new StoreView(store), reads));
            txn.put(b("own"), b("O1"));
            List<byte[]> keys = List.of(b("a"), b("missing"), b("own"));
            List<byte[]> values = viaGetAll ? txn.getAll(keys)
                    : keys.stream().map(txn::get).toList();
            assertEquals(Arrays.asList("A0", null, "O1"), strings(values));
            assertTrue(reads.readKey(b("a")));
            assertTrue(reads.readKey(b("missing")), "a key read as absent is a read too");
            assertFalse(reads.readKey(b("own")), "answered by the transaction's own write");

            WriteBatch unchanged = txn.toBatch();
            reads.addTo(unchanged);
            store.write(unchanged, Durability.NO_SYNC); // nothing read has changed: commits

            ReadSet again = new ReadSet();
            Overlay second = new Overlay(new RecordingView(new StoreView(store), again));
            List<byte[]> seen = viaGetAll ? second.getAll(keys) : keys.stream().map(second::get).toList();
            assertEquals(Arrays.asList("A0", null, "O1"), strings(seen));
            second.put(b("other"), b("X"));
            store.put(b("missing"), b("appeared"), Durability.NO_SYNC); // another session's write
            WriteBatch conflicting = second.toBatch();
            again.addTo(conflicting);
            assertThrows(WriteConflictException.class, () -> store.write(conflicting, Durability.NO_SYNC));
            assertNull(store.get(b("other")), "a conflict writes nothing");
            store.delete(b("missing"), Durability.NO_SYNC);
            store.delete(b("own"), Durability.NO_SYNC);
        }
    }

    private List<String> cursor(ReadView view, byte[] from, byte[] to, boolean descending) {
        List<String> out = new ArrayList<>();
        try (KvCursor c = view.cursor(from, to, descending)) {
            while (c.next()) {
                out.add(new String(c.keyArray(), c.keyOffset(), c.keyLength(), StandardCharsets.UTF_8) + "="
                        + new String(c.valueArray(), c.valueOffset(), c.valueLength(), StandardCharsets.UTF_8));
            }
        }
        return out;
    }

    /** The cursor merges buffered writes into the store's pairs as the scan does: writes win, deletes hide. */
    @Test
    void cursorMergesBufferedWritesAsTheScanDoes() {
        for (int i = 0; i < 50; i++) {
            store.put(b("k" + (char) ('A' + i)), b("v" + i), Durability.NO_SYNC);
        }
        assertEquals(scan(null, null, false), cursor(overlay, null, null, false), "no writes: the store's cursor");
        overlay.put(b("b"), b("B1"));
        overlay.put(b("c"), b("C1"));
        overlay.delete(b("a"));
        overlay.delete(b("kC"));
        overlay.put(b("kD"), b("D1"));
        overlay.put(b("z"), b("Z1"));
        overlay.delete(b("nothing"));
        byte[][][] bounds = {{null, null}, {b("b"), b("kE")}, {b("c"), b("c")}, {b("kC"), b("kD")}, {b("y"), null}};
        for (byte[][] bound : bounds) {
            for (boolean descending : new boolean[] {false, true}) {
                assertEquals(scan(bound[0], bound[1], descending), cursor(overlay, bound[0], bound[1], descending));
            }
        }
        List<String> all = cursor(overlay, null, null, false);
        assertEquals("b=B1", all.get(0));
        assertEquals("c=C1", all.get(1));
        assertFalse(all.contains("kC=v2"));
        assertTrue(all.contains("kD=D1"));
        assertEquals("z=Z1", all.get(all.size() - 1));
        ReadView over = overlay.over(new StoreView(store));
        assertEquals(all, cursor(over, null, null, false), "the same writes over another view");
    }
}
