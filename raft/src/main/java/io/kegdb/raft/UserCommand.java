package io.kegdb.raft;

import java.util.Objects;

/**
 * A change to a secured cluster's users, sent to the leader, which checks that the caller is an admin and
 * writes the new record (a password is hashed there, never stored or logged as sent).
 *
 * @param kind        what to do
 * @param user        the user's name, as SQL resolved it (upper case unless quoted)
 * @param password    CREATE, ALTER_PASSWORD: the new password; else null
 * @param admin       CREATE: whether the user is an admin
 * @param ifNotExists CREATE: no error (and no change) when the user exists
 * @param privileges  GRANT, REVOKE: the {@link Privilege#bit()}s
 * @param table       GRANT, REVOKE: the table's qualified name, or null for ALL TABLES
 * @param keyspace    GRANT, REVOKE: the table's keyspace id, or {@link #ALL_TABLES}
 */
public record UserCommand(Kind kind, String user, String password, boolean admin, boolean ifNotExists,
                          int privileges, String table, long keyspace) {

    /** The keyspace of a grant on ALL TABLES, tables created later included. */
    public static final long ALL_TABLES = -1;

    /** What a command does. */
    public enum Kind { CREATE, ALTER_PASSWORD, DROP, GRANT, REVOKE }

    public UserCommand {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(user, "user");
    }

    public static UserCommand create(String user, String password, boolean admin, boolean ifNotExists) {
        return new UserCommand(Kind.CREATE, user, Objects.requireNonNull(password, "password"), admin, ifNotExists,
                0, null, ALL_TABLES);
    }

    public static UserCommand alterPassword(String user, String password) {
        return new UserCommand(Kind.ALTER_PASSWORD, user, Objects.requireNonNull(password, "password"), false, false,
                0, null, ALL_TABLES);
    }

    public static UserCommand drop(String user) {
        return new UserCommand(Kind.DROP, user, null, false, false, 0, null, ALL_TABLES);
    }

    /** GRANT ({@code grant}) or REVOKE of {@code privileges} on {@code table} (null: ALL TABLES). */
    public static UserCommand grant(boolean grant, String user, int privileges, String table, long keyspace) {
        return new UserCommand(grant ? Kind.GRANT : Kind.REVOKE, user, null, false, false, privileges,
                table, table == null ? ALL_TABLES : keyspace);
    }

    /** Never shows the password. */
    @Override
    public String toString() {
        return kind + " " + user + (table == null ? "" : " " + table);
    }
}
