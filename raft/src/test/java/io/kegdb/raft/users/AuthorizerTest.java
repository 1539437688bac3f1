package io.kegdb.raft.users;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.Privilege;
import io.kegdb.raft.UserCommand;
import io.kegdb.raft.range.MetaKeys;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The node's checks against a state held in a map: bootstrap, logins, tickets, the privilege each kind of
 * write needs, the system span, and the stored records.
 */
class AuthorizerTest {

    /** An applied state: what a batch writes is put here as the state machine would (preconditions unchecked). */
    private final TreeMap<byte[], byte[]> state = new TreeMap<>(Arrays::compareUnsigned);
    private final Authorizer authorizer = new Authorizer(new Authorizer.State() {
        @Override
        public byte[] get(byte[] key) {
            return state.get(key);
        }

        @Override
        public List<KeyValue> scan(byte[] from, byte[] to, int limit) {
            List<KeyValue> out = new ArrayList<>();
            for (Map.Entry<byte[], byte[]> e : state.subMap(from, true, to, false).entrySet()) {
                out.add(new KeyValue(e.getKey(), e.getValue()));
            }
            return out;
        }
    }, true);

    private void apply(WriteBatch batch) {
        batch.replay(new WriteBatch.Handler() {
            @Override
            public void put(byte[] key, byte[] value) {
                state.put(key, value);
            }

            @Override
            public void delete(byte[] key) {
                state.remove(key);
            }

            @Override
            public void putIfAbsent(byte[] key, byte[] value) {
                state.putIfAbsent(key, value);
            }

            @Override
            public void expect(byte[] key, byte[] value) {
            }
        });
    }

    private static byte[] key(int table, String k) {
        byte[] s = k.getBytes(StandardCharsets.UTF_8);
        byte[] key = Arrays.copyOf(SystemKeys.start(table), 4 + s.length);
        System.arraycopy(s, 0, key, 4, s.length);
        return key;
    }

    private byte[] secured() {
        apply(Authorizer.bootstrap("admin-pw"));
        // the catalog's entry of table 7, as the SQL layer writes it: format byte, then the id
        state.put("\0\0\0\0TPUBLIC\0T".getBytes(StandardCharsets.UTF_8), new byte[] {1, 0, 0, 0, 7});
        return authorizer.login(Authorizer.FIRST_ADMIN, "admin-pw");
    }

    private static void assertRefused(String sqlState, Runnable check) {
        Denial d = assertThrows(Denial.class, check::run);
        assertEquals(Denial.Kind.REFUSED, d.kind(), d.getMessage());
        assertEquals(sqlState, d.sqlState(), d.getMessage());
    }

    @Test
    void aClusterWithoutUsersIsOpenAndTakesNoUserCommands() {
        assertFalse(authorizer.secured());
        assertNull(authorizer.login("anyone", "anything"));
        authorizer.checkWrite(null, new WriteBatch().put(SystemKeys.SECRET, new byte[1]));
        assertRefused("42000", () -> authorizer.userBatch(UserCommand.create("X", "y", false, false)));
    }

    @Test
    void bootstrapAppliesOnlyOnce() {
        apply(Authorizer.bootstrap("first"));
        byte[] secret = state.get(SystemKeys.SECRET);
        apply(Authorizer.bootstrap("second")); // put-if-absent both: the state machine refuses it whole
        assertArrayEquals(secret, state.get(SystemKeys.SECRET));
        assertNotNull(authorizer.login("ADMIN", "first"));
    }

    @Test
    void everyFailedLoginGivesTheSameAnswer() {
        secured();
        List<String> messages = new ArrayList<>();
        for (String[] attempt : new String[][] {{"ADMIN", "wrong"}, {"NOBODY", "admin-pw"}, {"ADMIN", null},
            {null, null}}) {
            Denial d = assertThrows(Denial.class, () -> authorizer.login(attempt[0], attempt[1]));
            assertEquals(Denial.Kind.LOGIN_FAILED, d.kind());
            messages.add(d.getMessage());
        }
        assertEquals(1, messages.stream().distinct().count(), messages.toString());
    }

    @Test
    void aTamperedOrOutdatedTicketNeedsANewLogin() {
        byte[] admin = secured();
        authorizer.checkLoggedIn(admin);
        byte[] tampered = admin.clone();
        tampered[3] ^= 1;
        assertEquals(Denial.Kind.LOGIN_REQUIRED, assertThrows(Denial.class, () -> authorizer.checkLoggedIn(tampered)).kind());
        assertEquals(Denial.Kind.LOGIN_REQUIRED, assertThrows(Denial.class, () -> authorizer.checkLoggedIn(null)).kind());
        apply(authorizer.userBatch(UserCommand.create("ALICE", "one", false, false)));
        byte[] alice = authorizer.login("ALICE", "one");
        apply(authorizer.userBatch(UserCommand.alterPassword("ALICE", "two")));
        assertEquals(Denial.Kind.LOGIN_REQUIRED, assertThrows(Denial.class, () -> authorizer.checkLoggedIn(alice)).kind());
        byte[] again = authorizer.login("ALICE", "two");
        apply(authorizer.userBatch(UserCommand.drop("ALICE")));
        apply(authorizer.userBatch(UserCommand.create("ALICE", "two", false, false)));
        // dropped and created again with the same password: a new stamp, the old ticket is dead
        assertEquals(Denial.Kind.LOGIN_REQUIRED, assertThrows(Denial.class, () -> authorizer.checkLoggedIn(again)).kind());
    }

    @Test
    void eachKindOfWriteNeedsItsPrivilege() {
        secured();
        apply(authorizer.userBatch(UserCommand.create("BOB", "pw", false, false)));
        byte[] k = key(7, "k");
        for (Privilege p : Privilege.values()) {
            byte[] before = state.get(SystemKeys.userKey("BOB"));
            apply(authorizer.userBatch(UserCommand.grant(true, "BOB", p.bit(), "PUBLIC.T", 7)));
            byte[] bob = authorizer.login("BOB", "pw");
            boolean insert = p == Privilege.INSERT;
            check(insert, () -> authorizer.checkWrite(bob, new WriteBatch().putIfAbsent(k, new byte[1])));
            check(insert, () -> authorizer.checkWrite(bob, new WriteBatch().expect(k, null).put(k, new byte[1])));
            // an update of a row read: UPDATE, and SELECT for comparing the value (below)
            check(false, () -> authorizer.checkWrite(bob, new WriteBatch().expect(k, new byte[1]).put(k, new byte[2])));
            check(false, () -> authorizer.checkWrite(bob, new WriteBatch().put(k, new byte[1]))); // needs both
            check(p == Privilege.DELETE, () -> authorizer.checkWrite(bob, new WriteBatch().delete(k)));
            check(p == Privilege.SELECT, () -> authorizer.checkGet(bob, k));
            check(p == Privilege.SELECT, () -> authorizer.checkScan(bob, SystemKeys.start(7), SystemKeys.start(8)));
            // a precondition alone reads
            check(p == Privilege.SELECT, () -> authorizer.checkWrite(bob, new WriteBatch().expect(k, null)));
            // not on another table
            check(false, () -> authorizer.checkGet(bob, key(8, "k")));
            apply(new WriteBatch().put(SystemKeys.userKey("BOB"), before));
        }
        apply(authorizer.userBatch(UserCommand.grant(true, "BOB", Privilege.UPDATE.bit() | Privilege.SELECT.bit(),
                "PUBLIC.T", 7)));
        byte[] updater = authorizer.login("BOB", "pw");
        authorizer.checkWrite(updater, new WriteBatch().expect(k, new byte[1]).put(k, new byte[2]));
        apply(authorizer.userBatch(UserCommand.grant(false, "BOB", Privilege.ALL, "PUBLIC.T", 7)));
        apply(authorizer.userBatch(UserCommand.grant(true, "BOB", Privilege.INSERT.bit() | Privilege.UPDATE.bit(),
                "PUBLIC.T", 7)));
        byte[] bob = authorizer.login("BOB", "pw");
        authorizer.checkWrite(bob, new WriteBatch().put(k, new byte[1])); // an upsert: INSERT and UPDATE
        Denial d = assertThrows(Denial.class, () -> authorizer.checkWrite(bob, new WriteBatch().delete(k)));
        assertEquals("permission denied: user BOB has no DELETE privilege on table PUBLIC.T", d.getMessage());
    }

    private static void check(boolean allowed, Runnable check) {
        if (allowed) {
            check.run();
        } else {
            assertRefused("42501", check);
        }
    }

    @Test
    void theCatalogIsReadByAllWrittenByAdminsTheUsersSpanByNoClient() {
        byte[] admin = secured();
        apply(authorizer.userBatch(UserCommand.create("BOB", "pw", false, false)));
        byte[] bob = authorizer.login("BOB", "pw");
        byte[] catalogMeta = {0, 0, 0, 0, 'M'};
        authorizer.checkGet(bob, catalogMeta);
        authorizer.checkScan(bob, new byte[] {0, 0, 0, 0, 'T'}, new byte[] {0, 0, 0, 0, 'U'});
        assertRefused("42501", () -> authorizer.checkWrite(bob, new WriteBatch().put(catalogMeta, new byte[8])));
        authorizer.checkWrite(admin, new WriteBatch().put(catalogMeta, new byte[8]));
        for (byte[] who : new byte[][] {bob, admin}) {
            assertRefused("42501", () -> authorizer.checkGet(who, SystemKeys.SECRET));
            assertRefused("42501", () -> authorizer.checkGet(who, SystemKeys.userKey("ADMIN")));
            assertRefused("42501", () -> authorizer.checkScan(who, null, null));
            assertRefused("42501", () -> authorizer.checkWrite(who, new WriteBatch().put(SystemKeys.userKey("X"),
                    new byte[1])));
        }
        assertRefused("42501", () -> authorizer.checkAdmin(bob, "changing users"));
        authorizer.checkAdmin(admin, "changing users");
    }

    @Test
    void theRangeDescriptorsAreReadByAllAndWrittenByNoClient() {
        byte[] admin = secured();
        apply(authorizer.userBatch(UserCommand.create("BOB", "pw", false, false)));
        byte[] bob = authorizer.login("BOB", "pw");
        byte[] descriptor = MetaKeys.descriptorKey(null);
        byte[] bounded = MetaKeys.descriptorKey(new byte[] {0, 0, 0, 7});
        for (byte[] who : new byte[][] {bob, admin}) {
            authorizer.checkGet(who, descriptor);
            authorizer.checkScan(who, MetaKeys.lookupFrom(new byte[] {0, 0, 0, 7, 'k'}), MetaKeys.descriptorsEnd());
            for (WriteBatch write : List.of(new WriteBatch().put(descriptor, new byte[1]),
                    new WriteBatch().putIfAbsent(bounded, new byte[1]), new WriteBatch().delete(descriptor),
                    new WriteBatch().expect(descriptor, null).put(descriptor, new byte[1]),
                    new WriteBatch().put(MetaKeys.LOCAL_DESCRIPTOR, new byte[1]))) {
                assertRefused("42501", () -> authorizer.checkWrite(who, write));
            }
        }
        // a precondition on a descriptor only reads it
        authorizer.checkWrite(admin, new WriteBatch().expect(descriptor, null).put(key(7, "a"), new byte[1]));
    }

    @Test
    void recordsAreSaltedSlowHashesThatVerify() {
        secured();
        apply(authorizer.userBatch(UserCommand.create("ALICE", "same", false, false)));
        apply(authorizer.userBatch(UserCommand.create("BOB", "same", false, false)));
        UserRecord alice = UserRecord.decode(state.get(SystemKeys.userKey("ALICE")));
        UserRecord bob = UserRecord.decode(state.get(SystemKeys.userKey("BOB")));
        assertEquals(UserRecord.FORMAT, state.get(SystemKeys.userKey("ALICE"))[0]);
        assertEquals(PasswordHash.ITERATIONS, alice.iterations());
        assertEquals(16, alice.salt().length);
        assertFalse(Arrays.equals(alice.salt(), bob.salt()));
        assertFalse(Arrays.equals(alice.hash(), bob.hash()));
        assertTrue(PasswordHash.matches("same", alice));
        assertFalse(PasswordHash.matches("other", alice));
        assertFalse(new String(state.get(SystemKeys.userKey("ALICE")), StandardCharsets.ISO_8859_1).contains("same"));
    }

    @Test
    void theLastAdminCannotBeDropped() {
        secured();
        assertRefused("55000", () -> authorizer.userBatch(UserCommand.drop("ADMIN")));
        apply(authorizer.userBatch(UserCommand.create("ROOT", "pw", true, false)));
        apply(authorizer.userBatch(UserCommand.drop("ADMIN")));
        assertNull(state.get(SystemKeys.userKey("ADMIN")));
    }

    @Test
    void grantsOnAllTablesCoverTablesMadeLaterAndRevokeTakesBitsAway() {
        secured();
        apply(authorizer.userBatch(UserCommand.create("CAROL", "pw", false, false)));
        apply(authorizer.userBatch(UserCommand.grant(true, "CAROL", Privilege.ALL, null, UserCommand.ALL_TABLES)));
        byte[] carol = authorizer.login("CAROL", "pw");
        authorizer.checkGet(carol, key(12345, "k"));
        authorizer.checkScan(carol, SystemKeys.start(1), null);
        apply(authorizer.userBatch(UserCommand.grant(false, "CAROL", Privilege.SELECT.bit(), null,
                UserCommand.ALL_TABLES)));
        assertRefused("42501", () -> authorizer.checkGet(carol, key(12345, "k")));
        authorizer.checkWrite(carol, new WriteBatch().delete(key(12345, "k")));
        assertEquals("INSERT, UPDATE, DELETE ON ALL TABLES",
                UserRecord.decode(state.get(SystemKeys.userKey("CAROL"))).describeGrants());
    }
}
