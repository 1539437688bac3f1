package io.kegdb.sql;

import java.util.Set;

/**
 * Runs the user statements (CREATE/ALTER/DROP USER, GRANT, REVOKE) against whoever keeps the users: a cluster's
 * nodes, through the driver (this module knows nothing of Raft). The nodes check that the caller is an admin
 * and hash passwords; this seam only asks. See {@link DatabaseOptions#users()}.
 */
public interface UserAdministration {

    /** What a grant allows on a table. */
    enum Privilege { SELECT, INSERT, UPDATE, DELETE }

    void createUser(String name, String password, boolean admin, boolean ifNotExists) throws SqlError;

    void alterPassword(String name, String password) throws SqlError;

    void dropUser(String name) throws SqlError;

    /**
     * GRANT ({@code grant} true) or REVOKE.
     *
     * @param table    the table's qualified name, or null for ALL TABLES (tables created later included)
     * @param keyspace the table's id (its keyspace), resolved from the catalog now; ignored for ALL TABLES
     */
    void grant(boolean grant, Set<Privilege> privileges, String table, int keyspace, String user) throws SqlError;
}
