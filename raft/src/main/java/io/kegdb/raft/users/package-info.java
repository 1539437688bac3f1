/**
 * Users of a secured cluster, kept in the system span (keyspace 0) of the replicated store: their records
 * ({@link io.kegdb.raft.users.UserRecord}, PBKDF2 password hashes), the login tickets nodes issue and check
 * ({@link io.kegdb.raft.users.Ticket}), and the checks a node makes on every request it receives
 * ({@link io.kegdb.raft.users.Authorizer}). Depends on nothing of the replication package, which calls it.
 */
package io.kegdb.raft.users;
