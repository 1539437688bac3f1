package io.kegdb.jdbc;

import io.kegdb.raft.RaftNodeOptions;
import io.kegdb.raft.security.TlsFiles;
import io.kegdb.raft.ReadConsistency;
import io.kegdb.sql.SqlState;

import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;

/**
 * The Raft part of a URL: a thin client ({@code jdbc:kegdb:raft://h1:p1,h2:p2/G}) or an embedded member
 * ({@code jdbc:kegdb:<dir>?raft.group=G&raft.self=H:P&raft.peers=...}).
 *
 * @param group             the Raft group
 * @param peers             the group's nodes, {@code host:port,...}
 * @param self              this process's node address for a member, null for a thin client
 * @param readConsistency   linearizable (default) or local reads
 * @param requestTimeout    how long one store request may take, retries across leader changes included
 * @param electionTimeoutMs a member's election timeout
 * @param tls               the TLS files ({@code ssl=true}, {@code sslrootcert}, {@code sslcert}, {@code sslkey}),
 *                          or null without TLS
 */
record RaftSettings(String group, String peers, String self, ReadConsistency readConsistency,
                    Duration requestTimeout, int electionTimeoutMs, TlsFiles tls) {

    static final String CLIENT_PREFIX = "raft://";

    boolean isClient() {
        return self == null;
    }

    /** The name of a thin client's store: its nodes and group. */
    String clientKey() {
        return CLIENT_PREFIX + peers + "/" + group;
    }

    /**
     * The registry key of a thin client's store. Connections share a store only when they ask for the same
     * timeout and read consistency too (a store applies one of each to all its requests), and present the
     * same TLS files.
     */
    String clientRegistryKey() {
        return clientKey() + "?readConsistency=" + readConsistency.name().toLowerCase(java.util.Locale.ROOT)
                + "&raft.timeout=" + requestTimeout.toMillis() + "ms"
                + (tls == null ? "" : "&tls=" + tls.ca() + "," + tls.cert() + "," + tls.key());
    }

    /** The Raft settings of a URL, or null when it names a plain local or in-memory store. */
    static RaftSettings from(String location, Map<ConnectionOption, String> options) throws SQLException {
        boolean client = location.regionMatches(true, 0, CLIENT_PREFIX, 0, CLIENT_PREFIX.length());
        String group = options.get(ConnectionOption.RAFT_GROUP);
        String self = options.get(ConnectionOption.RAFT_SELF);
        String peers = options.get(ConnectionOption.RAFT_PEERS);
        if (client) {
            String rest = location.substring(CLIENT_PREFIX.length());
            int slash = rest.indexOf('/');
            if (slash <= 0 || slash == rest.length() - 1) {
                throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "raft URL needs nodes and a group: "
                        + ConnectionSettings.PREFIX + CLIENT_PREFIX + "h1:p1,h2:p2,h3:p3/<group>");
            }
            if (group != null || self != null || peers != null) {
                throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE,
                        "raft.group, raft.self and raft.peers belong to an embedded"
                        + " member's URL (" + ConnectionSettings.PREFIX + "<dir>?raft.group=...), not to "
                        + CLIENT_PREFIX + " URLs");
            }
            peers = rest.substring(0, slash);
            group = rest.substring(slash + 1);
        } else if (group == null && self == null && peers == null) {
            for (ConnectionOption o : new ConnectionOption[] {ConnectionOption.READ_CONSISTENCY,
                ConnectionOption.RAFT_TIMEOUT, ConnectionOption.RAFT_ELECTION_TIMEOUT, ConnectionOption.SSL,
                ConnectionOption.SSL_ROOT_CERT, ConnectionOption.SSL_CERT, ConnectionOption.SSL_KEY}) {
                if (options.containsKey(o)) {
                    throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE,
                            "option " + o.key() + " applies to Raft URLs only");
                }
            }
            return null;
        } else if (group == null || self == null || peers == null) {
            throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE,
                    "an embedded Raft member needs raft.group, raft.self and"
                    + " raft.peers together");
        }
        ReadConsistency consistency = ReadConsistency.LINEARIZABLE;
        String rc = options.get(ConnectionOption.READ_CONSISTENCY);
        if (rc != null) {
            try {
                consistency = ReadConsistency.parse(rc);
            } catch (IllegalArgumentException e) {
                throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE, e.getMessage(), e);
            }
        }
        Duration timeout = Duration.ofSeconds(10);
        int election = RaftNodeOptions.DEFAULT_ELECTION_TIMEOUT_MS;
        try {
            String t = options.get(ConnectionOption.RAFT_TIMEOUT);
            if (t != null) {
                timeout = ConnectionOption.parseDuration(t);
            }
            String e = options.get(ConnectionOption.RAFT_ELECTION_TIMEOUT);
            if (e != null) {
                election = Integer.parseInt(e.trim());
            }
        } catch (RuntimeException e) {
            throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE,
                    "bad raft.timeout or raft.electionTimeoutMs: " + e.getMessage(), e);
        }
        if (timeout.isZero() || timeout.isNegative() || election < 100) {
            throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE,
                    "raft.timeout must be positive and raft.electionTimeoutMs at"
                    + " least 100");
        }
        return new RaftSettings(group.trim(), peers.trim(), self == null ? null : self.trim(), consistency, timeout,
                election, tls(options, self != null));
    }

    /** The TLS files of {@code ssl=true}; a member needs its node certificate and key, a client may have its own. */
    private static TlsFiles tls(Map<ConnectionOption, String> options, boolean member) throws SQLException {
        String ssl = options.get(ConnectionOption.SSL);
        boolean on = ssl != null && ConnectionOption.SSL.parseBoolean(ssl);
        String ca = options.get(ConnectionOption.SSL_ROOT_CERT);
        String cert = options.get(ConnectionOption.SSL_CERT);
        String key = options.get(ConnectionOption.SSL_KEY);
        if (!on) {
            if (ca != null || cert != null || key != null) {
                throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE,
                        "sslrootcert, sslcert and sslkey need ssl=true");
            }
            return null;
        }
        if (ca == null || ca.isBlank()) {
            throw JdbcErrors.of(SqlState.INVALID_ATTRIBUTE_VALUE,
                    "ssl=true needs sslrootcert, the cluster CA's certificate (PEM) that the nodes' certificates"
                    + " are checked against");
        }
        try {
            return TlsFiles.of(ca, cert, key, member);
        } catch (IllegalArgumentException e) {
            throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "TLS: " + e.getMessage(), e);
        }
    }
}
