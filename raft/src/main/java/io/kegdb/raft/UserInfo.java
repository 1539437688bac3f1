package io.kegdb.raft;

/**
 * A user as {@code SYS.USERS} shows it: never its password hash.
 *
 * @param name   the user's name
 * @param admin  whether the user is an admin
 * @param grants the grants, e.g. {@code SELECT, INSERT ON PUBLIC.T; SELECT ON ALL TABLES} (empty: none)
 */
public record UserInfo(String name, boolean admin, String grants) {
}
