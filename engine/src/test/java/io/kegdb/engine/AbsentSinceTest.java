package io.kegdb.engine;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** {@link WriteBatch#absentSince}: the store trusts earlier absence checks only while it is unchanged. */
class AbsentSinceTest {

    @TempDir
    Path dir;

    private static byte[] b(String s) {
        return s.getBytes();
    }

    @Test
    void everyChangingWriteMovesTheVersionAndNothingElseDoes() throws IOException {
        try (Bitcask db = Bitcask.open(dir, BitcaskOptions.builder().build())) {
            long v0 = db.writeVersion();
            assertEquals(v0, db.writeVersion());
            db.put(b("a"), b("1"), Durability.NO_SYNC);
            long v1 = db.writeVersion();
            assertTrue(v1 > v0);
            assertFalse(db.delete(b("missing"), Durability.NO_SYNC));
            assertEquals(v1, db.writeVersion(), "deleting nothing changes nothing");
            db.get(b("a"));
            db.contains(b("a"));
            assertEquals(v1, db.writeVersion());
            assertTrue(db.delete(b("a"), Durability.NO_SYNC));
            assertTrue(db.writeVersion() > v1);
        }
    }

    @Test
    void aCheckMadeBeforeAnotherWriteIsNotTrusted() throws IOException {
        try (Bitcask db = Bitcask.open(dir, BitcaskOptions.builder().build())) {
            long checkedAt = db.writeVersion();
            assertFalse(db.contains(b("k"))); // the caller's check
            db.put(b("k"), b("theirs"), Durability.NO_SYNC); // someone else inserts it meanwhile
            WriteBatch mine = new WriteBatch().putIfAbsent(b("k"), b("mine")).put(b("other"), b("x"))
                    .absentSince(checkedAt);
            assertThrows(KeyExistsException.class, () -> db.write(mine, Durability.NO_SYNC));
            assertArrayEquals(b("theirs"), db.get(b("k")));
            assertNull(db.get(b("other")), "the batch wrote nothing");
        }
    }

    @Test
    void anUnchangedStoreSkipsTheLookupsButNotTheBatchsOwnDuplicates() throws IOException {
        try (Bitcask db = Bitcask.open(dir, BitcaskOptions.builder().build())) {
            db.put(b("present"), b("old"), Durability.NO_SYNC);
            long now = db.writeVersion();
            // A promise made at the current version is taken at its word: the lookup is skipped (which is why
            // a caller must only pass versions read before checks it really made).
            db.write(new WriteBatch().putIfAbsent(b("present"), b("new")).put(b("x"), b("1")).absentSince(now),
                    Durability.NO_SYNC);
            assertArrayEquals(b("new"), db.get(b("present")));

            long later = db.writeVersion();
            WriteBatch twice = new WriteBatch().putIfAbsent(b("dup"), b("1")).putIfAbsent(b("dup"), b("2"))
                    .absentSince(later);
            assertThrows(KeyExistsException.class, () -> db.write(twice, Durability.NO_SYNC));
            assertNull(db.get(b("dup")));
        }
    }

    @Test
    void withoutAPromiseTheStoreAlwaysLooksUp() {
        try (KvStore mem = KvStore.inMemory()) {
            long v0 = mem.writeVersion();
            mem.put(b("k"), b("v"), Durability.NO_SYNC);
            assertTrue(mem.writeVersion() > v0, "the in-memory store counts its writes too");
            assertThrows(KeyExistsException.class,
                    () -> mem.write(new WriteBatch().putIfAbsent(b("k"), b("w")).absentSince(-1), Durability.NO_SYNC));
        }
    }
}
