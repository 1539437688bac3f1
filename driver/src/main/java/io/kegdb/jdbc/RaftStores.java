package io.kegdb.jdbc;

import io.kegdb.engine.KvStore;
import io.kegdb.raft.ClusterUsers;
import io.kegdb.raft.RaftGroupClient;
import io.kegdb.raft.RaftGroupView;
import io.kegdb.raft.RaftNode;
import io.kegdb.raft.RaftNodeOptions;
import io.kegdb.raft.RangeView;
import io.kegdb.raft.ReplicationException;
import io.kegdb.raft.tool.NodeMonitor;
import io.kegdb.sql.DatabaseOptions;
import io.kegdb.sql.SqlState;

import java.io.IOException;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.List;

/** Opens the replicated stores of Raft URLs, and maps replication failures to SQLStates. */
final class RaftStores {

    private RaftStores() {
    }

    /** A thin client of the group, or this process as a member storing its replica in {@code dir}. */
    static KvStore open(RaftSettings raft, Path dir) throws SQLException {
        try {
            if (raft.isClient()) {
                return RaftGroupClient.connect(raft.group(), raft.peers(), raft.requestTimeout(), raft.readConsistency(),
                        raft.tls());
            }
            return RaftNode.start(memberOptions(raft, dir));
        } catch (IOException | RuntimeException e) {
            throw JdbcErrors.of(SqlState.CANNOT_CONNECT, "cannot join raft group " + raft.group() + " through "
                    + raft.peers() + ": " + e.getMessage(), e);
        }
    }

    /** The options of this process's node as a member of the group, storing its replica in {@code dir}. */
    private static RaftNodeOptions memberOptions(RaftSettings raft, Path dir) {
        return RaftNodeOptions.builder()
                .dir(dir).group(raft.group()).self(raft.self()).peers(raft.peers())
                .electionTimeoutMs(raft.electionTimeoutMs())
                .requestTimeout(raft.requestTimeout())
                .readConsistency(raft.readConsistency())
                .tls(raft.tls())
                .build();
    }

    /**
     * What an embedded member shows of its node, as {@code kegdb node} does: its meters and health, and the MBean
     * {@code io.kegdb:type=RaftNode,...} while the store is open; null for a thin client's store.
     */
    static NodeMonitor monitor(KvStore store, RaftSettings raft, Path dir) {
        return store instanceof RaftNode node && !raft.isClient() ? NodeMonitor.start(node, memberOptions(raft, dir))
                : null;
    }

    /**
     * SQL over a replicated store: other processes of the group change the catalog too (so it is checked
     * before each statement), SYS.RAFT describes the group and SYS.RANGES its ranges.
     */
    static DatabaseOptions databaseOptions(KvStore store) {
        ClusterUsers users = (ClusterUsers) store;
        return new DatabaseOptions(true, List.of(new RaftSystemTable((RaftGroupView) store),
                new RangesSystemTable((RangeView) store), new UsersSystemTable(users)))
                .withUsers(new ClusterUserAdministration(users));
    }

    /**
     * Logs a thin client in with the connection's user and password (a cluster without users takes any; a
     * cluster with users answers every failure with one message, 28000).
     */
    static void login(KvStore store, ConnectionSettings settings) throws SQLException {
        if (settings.raft().tls() == null && settings.sqlUser() == null) {
            return; // plain text without a user: nothing to prove (a cluster with users refuses every request, 28000)
        }
        try {
            ((ClusterUsers) store).login(settings.sqlUser(), settings.password());
        } catch (ReplicationException e) {
            throw JdbcErrors.of(sqlState(e), e.getMessage(), e);
        } catch (RuntimeException e) {
            throw JdbcErrors.from(e);
        }
    }

    /** The SQLState of a replication failure, by its kind. */
    static String sqlState(ReplicationException e) {
        return switch (e.kind()) {
            case UNAVAILABLE -> SqlState.CONNECTION_FAILURE;
            case OUTCOME_UNKNOWN -> SqlState.TRANSACTION_RESOLUTION_UNKNOWN;
            case TLS -> SqlState.CANNOT_CONNECT;
            case NOT_AUTHORIZED -> SqlState.INVALID_AUTHORIZATION;
        };
    }

    /** The replication failure under {@code t}, or null. */
    static ReplicationException replicationCause(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof ReplicationException r) {
                return r;
            }
        }
        return null;
    }
}
