package io.kegdb.raft.users;

import io.kegdb.raft.Privilege;
import io.kegdb.raft.UserCommand;

import java.util.ArrayList;
import java.util.List;

/**
 * Privileges on one table's keyspace, or on every table ({@link UserCommand#ALL_TABLES}, tables created later
 * included). The table's name is kept for display; the check goes by keyspace id, which is never reused, so a
 * table dropped and created again under the same name does not inherit the old table's grants.
 *
 * @param keyspace the table's keyspace id, or {@link UserCommand#ALL_TABLES}
 * @param table    the table's qualified name, or null for ALL TABLES
 * @param mask     the {@link Privilege#bit()}s
 */
record Grant(long keyspace, String table, int mask) {

    boolean covers(long id) {
        return keyspace == UserCommand.ALL_TABLES || keyspace == id;
    }

    /** e.g. {@code SELECT, INSERT ON PUBLIC.T}. */
    String describe() {
        List<String> names = new ArrayList<>();
        for (Privilege p : Privilege.values()) {
            if ((mask & p.bit()) != 0) {
                names.add(p.name());
            }
        }
        return (mask == Privilege.ALL ? "ALL" : String.join(", ", names)) + " ON "
                + (table == null ? "ALL TABLES" : table);
    }
}
