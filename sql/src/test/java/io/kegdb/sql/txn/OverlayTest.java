package io.kegdb.sql.txn;

import io.kegdb.engine.Durability;
import io.kegdb.engine.KeyExistsException;
import io.kegdb.engine.KvIterator;
import io.kegdb.engine.KvStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
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
        overlay.insert(b("b"), b("B1"));
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
}
