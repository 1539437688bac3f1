package io.kegdb.raft.users;

import io.kegdb.raft.Privilege;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * One user as stored at {@code 0000 'A' 'U' name}: format byte {@value #FORMAT}, then name, admin flag, the
 * credential stamp, the PBKDF2 iteration count, salt and hash, and the grants. The stamp is a random number
 * drawn whenever the password is set; a ticket names it, so a changed password (or a user dropped and
 * created again) makes every older ticket invalid.
 */
record UserRecord(String name, boolean admin, long stamp, int iterations, byte[] salt, byte[] hash,
                  List<Grant> grants) {

    static final byte FORMAT = 1;
    private static final SecureRandom RANDOM = new SecureRandom();

    UserRecord {
        grants = List.copyOf(grants);
    }

    /** A new user with {@code password}, no grants. */
    static UserRecord create(String name, String password, boolean admin) {
        return new UserRecord(name, admin, 0, 0, null, null, List.of()).withPassword(password);
    }

    UserRecord withPassword(String password) {
        byte[] salt = PasswordHash.newSalt();
        return new UserRecord(name, admin, RANDOM.nextLong(), PasswordHash.ITERATIONS, salt,
                PasswordHash.hash(password, salt, PasswordHash.ITERATIONS), grants);
    }

    /** With {@code mask} added to (grant) or taken from (revoke) the grant on {@code keyspace}. */
    UserRecord withGrant(boolean grant, long keyspace, String table, int mask) {
        List<Grant> next = new ArrayList<>();
        boolean found = false;
        for (Grant g : grants) {
            if (g.keyspace() == keyspace) {
                found = true;
                int m = grant ? g.mask() | mask : g.mask() & ~mask;
                if (m != 0) {
                    next.add(new Grant(keyspace, table, m));
                }
            } else {
                next.add(g);
            }
        }
        if (!found && grant) {
            next.add(new Grant(keyspace, table, mask));
        }
        return new UserRecord(name, admin, stamp, iterations, salt, hash, next);
    }

    /** Whether this user may use {@code privilege} on keyspace {@code id}. */
    boolean allows(Privilege privilege, long id) {
        if (admin) {
            return true;
        }
        for (Grant g : grants) {
            if (g.covers(id) && (g.mask() & privilege.bit()) != 0) {
                return true;
            }
        }
        return false;
    }

    String describeGrants() {
        return grants.stream().map(Grant::describe).collect(Collectors.joining("; "));
    }

    byte[] encode() {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeByte(FORMAT);
            out.writeUTF(name);
            out.writeBoolean(admin);
            out.writeLong(stamp);
            out.writeInt(iterations);
            out.writeByte(salt.length);
            out.write(salt);
            out.writeByte(hash.length);
            out.write(hash);
            out.writeInt(grants.size());
            for (Grant g : grants) {
                out.writeLong(g.keyspace());
                out.writeBoolean(g.table() != null);
                if (g.table() != null) {
                    out.writeUTF(g.table());
                }
                out.writeByte(g.mask());
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static UserRecord decode(byte[] bytes) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
            int format = in.readUnsignedByte();
            if (format != FORMAT) {
                throw new IllegalStateException("a user record has unknown format " + format);
            }
            String name = in.readUTF();
            boolean admin = in.readBoolean();
            long stamp = in.readLong();
            int iterations = in.readInt();
            byte[] salt = in.readNBytes(in.readUnsignedByte());
            byte[] hash = in.readNBytes(in.readUnsignedByte());
            int n = in.readInt();
            List<Grant> grants = new ArrayList<>(n);
            for (int i = 0; i < n; i++) {
                long keyspace = in.readLong();
                String table = in.readBoolean() ? in.readUTF() : null;
                grants.add(new Grant(keyspace, table, in.readUnsignedByte()));
            }
            return new UserRecord(name, admin, stamp, iterations, salt, hash, grants);
        } catch (IOException e) {
            throw new IllegalStateException("a user record does not decode: " + e, e);
        }
    }
}
