package io.kegdb.engine;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** {@link WriteBatch#expect} and {@link WriteBatch#expectRange}: checked with the apply, all or nothing. */
class PreconditionTest {

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

    private static long digestOf(KvStore store, String from, String to) {
        return RangeDigest.of(store.scan(b(from), b(to)));
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aHeldPointPreconditionLetsTheBatchApply(Kind kind) {
        try (KvStore s = open(kind)) {
            s.put(b("x"), b("1"), Durability.NO_SYNC);
            s.write(new WriteBatch().expect(b("x"), b("1")).expect(b("absent"), null).put(b("x"), b("2"))
                    .put(b("y"), b("2")), Durability.NO_SYNC);
            assertArrayEquals(b("2"), s.get(b("x")));
            assertArrayEquals(b("2"), s.get(b("y")));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aPresenceConditionHoldsForAnyValueAndFailsForAnAbsentKey(Kind kind) {
        try (KvStore s = open(kind)) {
            s.put(b("x"), b("1"), Durability.NO_SYNC);
            long version = s.writeVersion();
            s.write(new WriteBatch().expectPresent(b("x")).put(b("x"), b("2")), Durability.NO_SYNC);
            assertArrayEquals(b("2"), s.get(b("x")));
            WriteConflictException e = assertThrows(WriteConflictException.class, () -> s.write(new WriteBatch()
                    .expectPresent(b("y")).put(b("y"), b("new")).put(b("x"), b("3")), Durability.NO_SYNC));
            assertArrayEquals(b("y"), e.key());
            assertNull(s.get(b("y")), "nothing written");
            assertArrayEquals(b("2"), s.get(b("x")));
            s.delete(b("x"), Durability.NO_SYNC);
            // Never read, so a promise that nothing changed since some version does not skip it.
            assertThrows(WriteConflictException.class, () -> s.write(new WriteBatch().expectPresent(b("x"))
                    .put(b("x"), b("4")).absentSince(s.writeVersion()), Durability.NO_SYNC));
            assertNull(s.get(b("x")));
            assertNotEquals(version, s.writeVersion());
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aChangedValueFailsTheBatchAndWritesNothing(Kind kind) {
        try (KvStore s = open(kind)) {
            s.put(b("x"), b("1"), Durability.NO_SYNC);
            long readAt = s.writeVersion();
            s.put(b("x"), b("other"), Durability.NO_SYNC); // a concurrent write after the read
            WriteBatch mine = new WriteBatch().expect(b("x"), b("1")).put(b("x"), b("2")).put(b("y"), b("2"))
                    .absentSince(readAt);
            WriteConflictException e = assertThrows(WriteConflictException.class, () -> s.write(mine, Durability.NO_SYNC));
            assertArrayEquals(b("x"), e.key());
            assertArrayEquals(b("other"), s.get(b("x")));
            assertNull(s.get(b("y")), "the failed batch wrote nothing");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void anInsertedOrDeletedKeyFailsAnAbsenceOrPresencePrecondition(Kind kind) {
        try (KvStore s = open(kind)) {
            s.put(b("gone"), b("1"), Durability.NO_SYNC);
            s.put(b("new"), b("1"), Durability.NO_SYNC);
            assertThrows(WriteConflictException.class,
                    () -> s.write(new WriteBatch().expect(b("new"), null).put(b("z"), b("1")), Durability.NO_SYNC));
            s.delete(b("gone"), Durability.NO_SYNC);
            assertThrows(WriteConflictException.class,
                    () -> s.write(new WriteBatch().expect(b("gone"), b("1")).put(b("z"), b("1")), Durability.NO_SYNC));
            assertNull(s.get(b("z")));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aRangePreconditionFailsOnAPhantomAndOnAChangedValueInTheRange(Kind kind) {
        try (KvStore s = open(kind)) {
            s.put(b("slot-1"), b("1"), Durability.NO_SYNC);
            s.put(b("slot-2"), b("1"), Durability.NO_SYNC);
            s.put(b("total"), b("2"), Durability.NO_SYNC);
            long read = digestOf(s, "slot-", "slot.");
            // A write outside the range leaves it valid.
            s.put(b("total"), b("3"), Durability.NO_SYNC);
            s.write(new WriteBatch().expectRange(b("slot-"), b("slot."), read).put(b("total"), b("2")), Durability.NO_SYNC);
            s.put(b("slot-3"), b("1"), Durability.NO_SYNC); // the phantom
            assertThrows(WriteConflictException.class, () -> s.write(
                    new WriteBatch().expectRange(b("slot-"), b("slot."), read).put(b("total"), b("9")), Durability.NO_SYNC));
            assertArrayEquals(b("2"), s.get(b("total")));
            s.delete(b("slot-3"), Durability.NO_SYNC);
            assertEquals(read, digestOf(s, "slot-", "slot."), "the same pairs give the same digest");
            s.put(b("slot-2"), b("0"), Durability.NO_SYNC);
            assertNotEquals(read, digestOf(s, "slot-", "slot."), "a changed value changes the digest");
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void aBatchOfPreconditionsOnlyValidatesAndWritesNothing(Kind kind) {
        try (KvStore s = open(kind)) {
            s.put(b("x"), b("1"), Durability.NO_SYNC);
            long before = s.writeVersion();
            s.write(new WriteBatch().expect(b("x"), b("1")), Durability.NO_SYNC);
            assertEquals(before, s.writeVersion(), "validating wrote nothing");
            s.put(b("x"), b("2"), Durability.NO_SYNC);
            assertThrows(WriteConflictException.class,
                    () -> s.write(new WriteBatch().expect(b("x"), b("1")), Durability.NO_SYNC));
        }
    }

    @ParameterizedTest
    @EnumSource(Kind.class)
    void preconditionsReadAtTheCurrentVersionAreTrustedAndOlderOnesChecked(Kind kind) {
        try (KvStore s = open(kind)) {
            s.put(b("x"), b("1"), Durability.NO_SYNC);
            long now = s.writeVersion();
            // Taken at its word: the store is unchanged since the promise, so the (false) expectation is skipped.
            s.write(new WriteBatch().expect(b("x"), b("not what it holds")).put(b("y"), b("1")).absentSince(now),
                    Durability.NO_SYNC);
            assertArrayEquals(b("1"), s.get(b("y")));
            assertThrows(WriteConflictException.class, () -> s.write(
                    new WriteBatch().expect(b("x"), b("not what it holds")).put(b("y"), b("2")).absentSince(now),
                    Durability.NO_SYNC));
        }
    }

    @org.junit.jupiter.api.Test
    void aCommittedConditionalBatchSurvivesReopening() throws IOException {
        try (Bitcask s = Bitcask.open(dir, BitcaskOptions.builder().build())) {
            s.put(b("x"), b("1"), Durability.SYNC);
            s.write(new WriteBatch().expect(b("x"), b("1")).put(b("x"), b("2")).put(b("y"), b("2")), Durability.SYNC);
            assertThrows(WriteConflictException.class, () -> s.write(
                    new WriteBatch().expect(b("x"), b("1")).put(b("x"), b("3")).put(b("y"), b("3")), Durability.SYNC));
        }
        try (Bitcask s = Bitcask.open(dir, BitcaskOptions.builder().build())) {
            assertArrayEquals(b("2"), s.get(b("x")));
            assertArrayEquals(b("2"), s.get(b("y")));
        }
    }
}
