package io.kegdb.raft.users;

import io.kegdb.engine.KeyValue;
import io.kegdb.engine.WriteBatch;
import io.kegdb.raft.Privilege;
import io.kegdb.raft.UserCommand;
import io.kegdb.raft.UserInfo;
import io.kegdb.raft.range.MetaKeys;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The checks a node makes on each request a client (not a node) sends it, against the node's own applied
 * state: a cluster has users once its secret exists ({@link #bootstrap}); from then on every request but a
 * login carries a {@link Ticket}, checked with one HMAC and a look-up of the user's record, and every read and
 * write of a table's keyspace needs the user's privilege on it:
 * <ul>
 * <li>get, scan, and a precondition on a key the batch does not write: SELECT;</li>
 * <li>a put-if-absent, or a put of a key the batch expects absent: INSERT;</li>
 * <li>a put of a key the batch expects to hold a value: UPDATE;</li>
 * <li>any other put (it may create or change a row, as UPSERT does): INSERT and UPDATE;</li>
 * <li>a delete: DELETE.</li>
 * </ul>
 * The system span: the catalog is readable by every logged-in user and written by admins only (DDL); the
 * users' span is never read or written by a client, admin or not (user commands write it on the leader); the
 * ranges' span ({@link MetaKeys#isRangeKey}: the range descriptors) is readable like the catalog and never
 * written by a client.
 * Admins have every privilege on every table.
 */
public final class Authorizer {

    /** The one answer to a wrong password, an unknown user, and no user or password on a cluster with users. */
    public static final String LOGIN_FAILED = "login failed: unknown user, wrong password, or no user and password"
            + " given (this cluster has users: connect with user and password)";
    static final long TICKET_LIFETIME_MS = TimeUnit.HOURS.toMillis(12);
    private static final int SECRET_BYTES = 32;
    private static final SecureRandom RANDOM = new SecureRandom();
    /** Hashed against for an unknown user, so that its answer takes as long as a wrong password's. */
    private static final byte[] DUMMY_SALT = PasswordHash.newSalt();

    /** The node's applied state. */
    public interface State {
        byte[] get(byte[] key);

        /** The pairs of {@code [from, to)}, at most {@code limit}. */
        List<KeyValue> scan(byte[] from, byte[] to, int limit);
    }

    private final State state;
    private final boolean tls;
    private volatile byte[] secret;
    /** Decoded records by name, with the bytes they were decoded from (so a changed record is decoded again). */
    private final ConcurrentHashMap<String, Decoded> records = new ConcurrentHashMap<>();

    private record Decoded(byte[] bytes, UserRecord record) {
    }

    /** @param tls whether the node runs with TLS (a node without takes no passwords) */
    public Authorizer(State state, boolean tls) {
        this.state = state;
        this.tls = tls;
    }

    /** Whether the cluster has users (its secret exists); a cluster without is open to every caller. */
    public boolean secured() {
        return secret() != null;
    }

    private byte[] secret() {
        byte[] s = secret;
        if (s == null) {
            s = state.get(SystemKeys.SECRET);
            secret = s; // never changes once made (a snapshot install brings the same cluster's)
        }
        return s;
    }

    /**
     * A ticket for {@code user}, or null on a cluster without users.
     *
     * @throws Denial {@link Denial.Kind#LOGIN_FAILED}, the same for every reason
     */
    public byte[] login(String user, String password) {
        byte[] s = secret();
        if (s == null) {
            return null;
        }
        if (!tls) {
            throw new Denial(Denial.Kind.LOGIN_FAILED, "28000", "this node runs without TLS and takes no passwords");
        }
        UserRecord record = user == null ? null : record(user);
        if (record == null || password == null) {
            PasswordHash.hash(password == null ? "" : password, DUMMY_SALT, PasswordHash.ITERATIONS);
            throw loginFailed();
        }
        if (!PasswordHash.matches(password, record)) {
            throw loginFailed();
        }
        return new Ticket(record.name(), record.stamp(), System.currentTimeMillis() + TICKET_LIFETIME_MS).encode(s);
    }

    private static Denial loginFailed() {
        return new Denial(Denial.Kind.LOGIN_FAILED, "28000", LOGIN_FAILED);
    }

    /** The logged-in user of {@code ticket}, or null on a cluster without users. */
    private UserRecord caller(byte[] ticket) {
        byte[] s = secret();
        if (s == null) {
            return null;
        }
        Ticket t = Ticket.verify(s, ticket);
        UserRecord record = t == null || t.expires() < System.currentTimeMillis() ? null : record(t.user());
        if (record == null || record.stamp() != t.stamp()) {
            throw new Denial(Denial.Kind.LOGIN_REQUIRED, "28000", LOGIN_FAILED);
        }
        return record;
    }

    private UserRecord record(String name) {
        byte[] bytes = state.get(SystemKeys.userKey(name));
        if (bytes == null) {
            records.remove(name);
            return null;
        }
        Decoded d = records.get(name);
        if (d == null || !java.util.Arrays.equals(d.bytes(), bytes)) {
            d = new Decoded(bytes, UserRecord.decode(bytes));
            records.put(name, d);
        }
        return d.record();
    }

    /** Any logged-in user: status, statistics, snapshots, sessions. */
    public void checkLoggedIn(byte[] ticket) {
        caller(ticket);
    }

    public void checkAdmin(byte[] ticket, String what) {
        UserRecord user = caller(ticket);
        if (user != null && !user.admin()) {
            throw refused("42501", "permission denied: " + what + " is for admins only, and user " + user.name()
                    + " is none");
        }
    }

    public void checkGet(byte[] ticket, byte[] key) {
        UserRecord user = caller(ticket);
        if (user == null) {
            return;
        }
        if (SystemKeys.isAuth(key)) {
            throw usersSpan();
        }
        need(user, Privilege.SELECT, SystemKeys.keyspace(key));
    }

    public void checkScan(byte[] ticket, byte[] from, byte[] to) {
        UserRecord user = caller(ticket);
        if (user != null) {
            checkScanBy(user, from, to);
        }
    }

    public void checkWrite(byte[] ticket, WriteBatch batch) {
        UserRecord user = caller(ticket);
        if (user == null) {
            return;
        }
        Map<ByteBuffer, Boolean> expected = new HashMap<>(); // key -> expected present
        List<byte[]> ranges = new ArrayList<>();
        Map<ByteBuffer, Boolean> written = new HashMap<>();
        List<Runnable> checks = new ArrayList<>();
        batch.replay(new WriteBatch.Handler() {
            @Override
            public void expect(byte[] key, byte[] value) {
                expected.put(ByteBuffer.wrap(key), value != null);
            }

            @Override
            public void expectPresent(byte[] key) {
                expected.put(ByteBuffer.wrap(key), true); // an UPDATE by key: its put needs UPDATE, the check SELECT
            }

            @Override
            public void expectRange(byte[] fromInclusive, byte[] toExclusive, long digest) {
                ranges.add(fromInclusive);
                ranges.add(toExclusive);
            }

            @Override
            public void put(byte[] key, byte[] value) {
                Boolean present = expected.get(ByteBuffer.wrap(key));
                written.put(ByteBuffer.wrap(key), true);
                if (present == null) {
                    checks.add(() -> needWrite(user, Privilege.INSERT, key));
                    checks.add(() -> needWrite(user, Privilege.UPDATE, key));
                } else {
                    checks.add(() -> needWrite(user, present ? Privilege.UPDATE : Privilege.INSERT, key));
                }
            }

            @Override
            public void delete(byte[] key) {
                written.put(ByteBuffer.wrap(key), true);
                checks.add(() -> needWrite(user, Privilege.DELETE, key));
            }

            @Override
            public void putIfAbsent(byte[] key, byte[] value) {
                written.put(ByteBuffer.wrap(key), true);
                checks.add(() -> needWrite(user, Privilege.INSERT, key));
            }
        });
        for (Runnable check : checks) {
            check.run();
        }
        for (Map.Entry<ByteBuffer, Boolean> e : expected.entrySet()) {
            byte[] key = e.getKey().array();
            boolean partOfAWrite = written.containsKey(e.getKey());
            if (SystemKeys.isAuth(key)) {
                throw usersSpan();
            }
            if (!partOfAWrite || e.getValue()) {
                need(user, Privilege.SELECT, SystemKeys.keyspace(key)); // a precondition reads
            }
        }
        for (int i = 0; i < ranges.size(); i += 2) {
            checkScanBy(user, ranges.get(i), ranges.get(i + 1));
        }
    }

    /** SELECT on every keyspace {@code [from, to)} reaches (null bounds open); one reaching more than 64 needs
     *  SELECT on ALL TABLES. The users' span is refused to everyone. */
    private void checkScanBy(UserRecord user, byte[] from, byte[] to) {
        if (SystemKeys.touchesAuth(from, to)) {
            throw usersSpan();
        }
        if (user.admin()) {
            return;
        }
        long first = from == null ? 0 : SystemKeys.keyspace(from);
        long last = to == null ? Long.MAX_VALUE : SystemKeys.lastKeyspace(to);
        if (last - first > 64) {
            need(user, Privilege.SELECT, UserCommand.ALL_TABLES);
            return;
        }
        for (long id = first; id <= last; id++) {
            need(user, Privilege.SELECT, id);
        }
    }

    private void needWrite(UserRecord user, Privilege privilege, byte[] key) {
        if (SystemKeys.isAuth(key)) {
            throw usersSpan();
        }
        if (MetaKeys.isRangeKey(key)) {
            // The range descriptors are written by the ranges' leaders only, never by a client, admin or not.
            throw refused("42501", "permission denied: the range descriptors are written by the nodes only");
        }
        long id = SystemKeys.keyspace(key);
        if (id == 0) {
            if (!user.admin()) {
                throw refused("42501", "permission denied: changing the catalog (DDL) is for admins only, and user "
                        + user.name() + " is none");
            }
            return;
        }
        need(user, privilege, id);
    }

    /** Keyspace 0 (the catalog) is readable by every logged-in user. */
    private void need(UserRecord user, Privilege privilege, long id) {
        if (id == 0 || user.allows(privilege, id)) {
            return;
        }
        throw refused("42501", "permission denied: user " + user.name() + " has no " + privilege + " privilege on "
                + (id == UserCommand.ALL_TABLES ? "ALL TABLES" : tableName(id)));
    }

    /** The table of keyspace {@code id}, from the catalog's entries (format byte, then the id); asked on refusal only. */
    private String tableName(long id) {
        for (KeyValue kv : state.scan(SystemKeys.CATALOG_TABLES, SystemKeys.CATALOG_TABLES_END, 100_000)) {
            byte[] v = kv.value();
            if (v.length >= 5 && (ByteBuffer.wrap(v, 1, 4).getInt() & 0xffffffffL) == id) {
                String qualified = new String(kv.key(), SystemKeys.CATALOG_TABLES.length,
                        kv.key().length - SystemKeys.CATALOG_TABLES.length, StandardCharsets.UTF_8);
                return "table " + qualified.replace('\0', '.');
            }
        }
        return "the table of keyspace " + id;
    }

    private static Denial usersSpan() {
        return refused("42501", "permission denied: the users' records are read and written through user"
                + " statements and SYS.USERS only");
    }

    private static Denial refused(String sqlState, String message) {
        return new Denial(Denial.Kind.REFUSED, sqlState, message);
    }

    /**
     * The batch that carries out {@code command} against this node's state (the caller checked that it comes
     * from an admin); null when there is nothing to do (CREATE USER IF NOT EXISTS of an existing user). Each
     * change expects the record it read, so concurrent changes of one user conflict instead of losing one.
     */
    public WriteBatch userBatch(UserCommand command) {
        if (secret() == null) {
            throw refused("42000", "this cluster has no users: users need a TLS cluster whose nodes were started with"
                    + " --admin-password-file (see docs/SECURITY.md)");
        }
        byte[] key = SystemKeys.userKey(command.user());
        byte[] current = state.get(key);
        if (command.kind() == UserCommand.Kind.CREATE) {
            if (current != null) {
                if (command.ifNotExists()) {
                    return null;
                }
                throw refused("42710", "user " + command.user() + " already exists");
            }
            return new WriteBatch().putIfAbsent(key,
                    UserRecord.create(command.user(), command.password(), command.admin()).encode());
        }
        if (current == null) {
            throw refused("42704", "user " + command.user() + " does not exist");
        }
        UserRecord record = UserRecord.decode(current);
        WriteBatch batch = new WriteBatch().expect(key, current);
        return switch (command.kind()) {
            case ALTER_PASSWORD -> batch.put(key, record.withPassword(command.password()).encode());
            case DROP -> {
                if (record.admin() && adminCount() == 1) {
                    throw refused("55000", "user " + record.name() + " is the cluster's last admin; create another"
                            + " admin before dropping it");
                }
                yield batch.delete(key);
            }
            case GRANT, REVOKE -> batch.put(key, record.withGrant(command.kind() == UserCommand.Kind.GRANT,
                    command.keyspace(), command.table(), command.privileges()).encode());
            case CREATE -> throw new IllegalStateException("handled above");
        };
    }

    private int adminCount() {
        int admins = 0;
        for (KeyValue kv : state.scan(SystemKeys.USER_PREFIX, SystemKeys.USER_PREFIX_END, Integer.MAX_VALUE)) {
            if (UserRecord.decode(kv.value()).admin()) {
                admins++;
            }
        }
        return admins;
    }

    /** The users as {@code SYS.USERS} shows them, encoded for {@link #decodeUsers}. */
    public byte[] listUsers() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            List<KeyValue> users = state.scan(SystemKeys.USER_PREFIX, SystemKeys.USER_PREFIX_END, Integer.MAX_VALUE);
            out.writeInt(users.size());
            for (KeyValue kv : users) {
                UserRecord r = UserRecord.decode(kv.value());
                out.writeUTF(r.name());
                out.writeBoolean(r.admin());
                out.writeUTF(r.describeGrants());
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static List<UserInfo> decodeUsers(byte[] encoded) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded));
            int n = in.readInt();
            List<UserInfo> users = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                users.add(new UserInfo(in.readUTF(), in.readBoolean(), in.readUTF()));
            }
            return users;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The first admin, {@code ADMIN}, with {@code password}, and the cluster's secret, in one batch that applies
     * only while the cluster has never had users (the secret is put if absent).
     */
    public static WriteBatch bootstrap(String password) {
        byte[] s = new byte[SECRET_BYTES];
        RANDOM.nextBytes(s);
        return new WriteBatch().putIfAbsent(SystemKeys.SECRET, s)
                .putIfAbsent(SystemKeys.userKey(FIRST_ADMIN), UserRecord.create(FIRST_ADMIN, password, true).encode());
    }

    /** The first admin's name. */
    public static final String FIRST_ADMIN = "ADMIN";

    public static byte[] encodeCommand(UserCommand c) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(c.kind().ordinal());
            out.writeUTF(c.user());
            writeNullable(out, c.password());
            out.writeBoolean(c.admin());
            out.writeBoolean(c.ifNotExists());
            out.writeInt(c.privileges());
            writeNullable(out, c.table());
            out.writeLong(c.keyspace());
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static UserCommand decodeCommand(byte[] encoded) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(encoded));
            UserCommand.Kind kind = UserCommand.Kind.values()[in.readUnsignedByte()];
            return new UserCommand(kind, in.readUTF(), readNullable(in), in.readBoolean(), in.readBoolean(),
                    in.readInt(), readNullable(in), in.readLong());
        } catch (IOException | ArrayIndexOutOfBoundsException e) {
            throw new IllegalArgumentException("a user command does not decode: " + e, e);
        }
    }

    private static void writeNullable(DataOutputStream out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s);
        }
    }

    private static String readNullable(DataInputStream in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
