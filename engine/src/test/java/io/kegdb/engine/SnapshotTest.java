package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link KvStore#snapshot()}: one state, whatever is written after it. */
class SnapshotTest {

    enum Kind { BITCASK, MEMORY }

    @TempDir
    Path dir;

    private KvStore open(Kind kind) {
        try {
            return kind == Kind.MEMORY ? KvStore.inMemory() : Bitcask.open(dir, BitcaskOptions.builder().build());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] b(String s) {
        return s.getBytes();
    }

    private static List<String> pairs(KvIterator it) {
        List<String> out = new ArrayList<>();
        try (it) {
            while (it.hasNext()) {
                KeyValue kv = it.next();
                out.add(new String(kv.key()) + "=" + new String(kv.value()));
            }
        }
        return out;
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aSnapshotKeepsItsStateThroughUpdatesDeletesAndInserts(Kind kind) {
        try (KvStore s = open(kind)) {
            s.put(b("a"), b("1"), Durability.NO_SYNC);
            s.put(b("b"), b("1"), Durability.NO_SYNC);
            s.put(b("d"), b("1"), Durability.NO_SYNC);
            try (KvSnapshot snap = s.snapshot()) {
                assertEquals(s.writeVersion(), snap.version());
                s.write(new WriteBatch().put(b("a"), b("2")).delete(b("b")).put(b("c"), b("2")), Durability.NO_SYNC);
                s.delete(b("d"), Durability.NO_SYNC);
                s.put(b("a"), b("3"), Durability.NO_SYNC);
                assertArrayEquals(b("1"), snap.get(b("a")));
                assertArrayEquals(b("1"), snap.get(b("b")));
                assertNull(snap.get(b("c")));
                assertEquals(List.of("a=1", "b=1", "d=1"), pairs(snap.scan(null, null, false)));
                assertEquals(List.of("d=1", "b=1", "a=1"), pairs(snap.scan(null, null, true)));
                assertEquals(List.of("b=1"), pairs(snap.scan(b("b"), b("d"), false)));
                assertEquals(List.of("a=3", "c=2"), pairs(s.scan(null, null)), "the store itself moved on");
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void concurrentTransfersNeverShowASnapshotAnotherTotal(Kind kind) throws Exception {
        try (KvStore s = open(kind)) {
            int accounts = 8;
            for (int i = 0; i < accounts; i++) {
                s.put(b("acct-" + i), ByteBuffer.allocate(8).putLong(100).array(), Durability.NO_SYNC);
            }
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread mover = new Thread(() -> {
                java.util.Random r = new java.util.Random(1);
                try {
                    while (!stop.get()) {
                        int from = r.nextInt(accounts);
                        int to = (from + 1 + r.nextInt(accounts - 1)) % accounts;
                        long a = ByteBuffer.wrap(s.get(b("acct-" + from))).getLong();
                        long c = ByteBuffer.wrap(s.get(b("acct-" + to))).getLong();
                        s.write(new WriteBatch().put(b("acct-" + from), ByteBuffer.allocate(8).putLong(a - 7).array())
                                .put(b("acct-" + to), ByteBuffer.allocate(8).putLong(c + 7).array()), Durability.NO_SYNC);
                    }
                } catch (Throwable t) {
                    failure.set(t);
                }
            });
            mover.start();
            try {
                for (int round = 0; round < 2000; round++) {
                    try (KvSnapshot snap = s.snapshot()) {
                        long total = 0;
                        try (KvIterator it = snap.scan(b("acct-"), b("acct."), round % 2 == 1)) {
                            while (it.hasNext()) {
                                total += ByteBuffer.wrap(it.next().value()).getLong();
                            }
                        }
                        long pointTotal = 0;
                        for (int i = 0; i < accounts; i++) {
                            pointTotal += ByteBuffer.wrap(snap.get(b("acct-" + i))).getLong();
                        }
                        assertEquals(100L * accounts, total, "scan of a snapshot, round " + round);
                        assertEquals(100L * accounts, pointTotal, "point reads of a snapshot, round " + round);
                    }
                }
            } finally {
                stop.set(true);
                mover.join();
            }
            assertNull(failure.get());
        }
    }

    @Test
    void aSnapshotOpenWhileTooMuchIsOverwrittenSaysSoInsteadOfAnsweringWrong() {
        try (KvStore s = KvStore.inMemory()) {
            byte[] big = new byte[1 << 20];
            for (int i = 0; i < 80; i++) {
                s.put(b("k" + i), big, Durability.NO_SYNC);
            }
            try (KvSnapshot snap = s.snapshot()) {
                for (int i = 0; i < 80; i++) {
                    s.put(b("k" + i), b("small"), Durability.NO_SYNC);
                }
                assertThrows(SnapshotTooOldException.class, () -> snap.get(b("k0")));
            }
            try (KvSnapshot fresh = s.snapshot()) {
                assertArrayEquals(b("small"), fresh.get(b("k0")));
            }
        }
    }
}
