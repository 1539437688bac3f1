package io.kegdb.raft;

import java.util.List;

/**
 * A cluster's users as a client sees them (implemented by the stores {@link RaftGroupClient} and
 * {@link RaftNode} return). The nodes check everything: a client only asks.
 */
public interface ClusterUsers {

    /**
     * Logs in (one slow password check on a node); every later request carries the ticket it returns, and a
     * ticket that expires is renewed with the same credentials. On a cluster without users (no node started
     * with an admin password) this succeeds whatever it is given.
     *
     * @param user     the user's name as SQL resolves it, or null for none
     * @param password the password, or null for none
     * @throws ReplicationException of kind NOT_AUTHORIZED, one message for a wrong password, an unknown user
     *                              and a missing password
     */
    void login(String user, String password);

    /**
     * Runs a change of the users (admins only).
     *
     * @throws RefusedException for a refused or failed change (its SQLState says why)
     */
    void manage(UserCommand command);

    /** The users (admins only). */
    List<UserInfo> users();
}
