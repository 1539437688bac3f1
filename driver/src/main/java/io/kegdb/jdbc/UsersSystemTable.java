package io.kegdb.jdbc;

import io.kegdb.raft.ClusterUsers;
import io.kegdb.raft.UserInfo;
import io.kegdb.sql.SystemTableSource;

import java.util.ArrayList;
import java.util.List;

/**
 * {@code SYS.USERS}: the cluster's users with their admin flag and grants, as the leader lists them to an
 * admin (others get 42501); never a password hash, which no node sends to a client.
 */
final class UsersSystemTable implements SystemTableSource {

    private final ClusterUsers users;

    UsersSystemTable(ClusterUsers users) {
        this.users = users;
    }

    @Override
    public String name() {
        return "USERS";
    }

    @Override
    public List<Column> columns() {
        return List.of(
                new Column("NAME", Kind.VARCHAR, false),
                new Column("ADMIN", Kind.BOOLEAN, false),
                new Column("GRANTS", Kind.VARCHAR, false));
    }

    @Override
    public List<Object[]> rows() {
        List<Object[]> rows = new ArrayList<>();
        for (UserInfo u : users.users()) {
            rows.add(new Object[] {u.name(), u.admin(), u.grants()});
        }
        return rows;
    }
}
