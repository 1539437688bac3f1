package io.kegdb.jdbc;

import io.kegdb.raft.ClusterUsers;
import io.kegdb.raft.RefusedException;
import io.kegdb.raft.UserCommand;
import io.kegdb.sql.SqlError;
import io.kegdb.sql.UserAdministration;

import java.util.Set;

/** The SQL layer's user statements, sent to the cluster's leader (which checks that the caller is an admin). */
final class ClusterUserAdministration implements UserAdministration {

    private final ClusterUsers users;

    ClusterUserAdministration(ClusterUsers users) {
        this.users = users;
    }

    @Override
    public void createUser(String name, String password, boolean admin, boolean ifNotExists) throws SqlError {
        run(UserCommand.create(name, password, admin, ifNotExists));
    }

    @Override
    public void alterPassword(String name, String password) throws SqlError {
        run(UserCommand.alterPassword(name, password));
    }

    @Override
    public void dropUser(String name) throws SqlError {
        run(UserCommand.drop(name));
    }

    @Override
    public void grant(boolean grant, Set<UserAdministration.Privilege> privileges, String table, int keyspace,
                      String user) throws SqlError {
        int mask = 0;
        for (UserAdministration.Privilege p : privileges) {
            mask |= io.kegdb.raft.Privilege.valueOf(p.name()).bit();
        }
        run(UserCommand.grant(grant, user, mask, table, keyspace));
    }

    /** A refusal keeps the SQLState the node gave; other failures go the way of any store failure. */
    private void run(UserCommand command) throws SqlError {
        try {
            users.manage(command);
        } catch (RefusedException e) {
            throw new SqlError(e.sqlState(), e.getMessage(), e);
        }
    }
}
