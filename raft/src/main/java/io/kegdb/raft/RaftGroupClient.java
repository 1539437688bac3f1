package io.kegdb.raft;

import com.alipay.sofa.jraft.conf.Configuration;
import com.alipay.sofa.jraft.option.CliOptions;
import com.alipay.sofa.jraft.rpc.impl.cli.CliClientServiceImpl;
import io.kegdb.engine.KvStore;
import io.kegdb.raft.replication.LeaderLookup;
import io.kegdb.raft.replication.RangedStore;
import io.kegdb.raft.replication.RpcTransport;
import io.kegdb.raft.replication.Transport;
import io.kegdb.raft.security.TlsFiles;
import io.kegdb.raft.security.TransportSecurity;

import java.io.IOException;
import java.time.Duration;
import java.util.Objects;
import java.util.function.UnaryOperator;

/**
 * Connects thin clients of a cluster: each {@link #connect} returns a {@link KvStore} whose data lives on
 * the cluster's nodes, a {@link RangedStore} over every range of it (range 1 is the group {@code group}; a
 * cluster whose ranges never split is that group alone, at the same cost). It is also a {@link RaftGroupView},
 * a {@link RangeView} and {@link ClusterUsers}. Every request goes to its range's leader (found by asking the
 * range's nodes whom they follow, then through the hints nodes answer with) and is retried across leader
 * changes until the request timeout; then it fails with a {@link ReplicationException}. Scans page through
 * the leaders, range after range.
 */
public final class RaftGroupClient {

    private RaftGroupClient() {
    }

    /**
     * Connects to group {@code group} whose nodes are {@code peers} ({@code host:port,host:port,...}).
     * No connection is made before the first request.
     *
     * @param requestTimeout how long one read or write may take, retries included
     */
    public static KvStore connect(String group, String peers, Duration requestTimeout, ReadConsistency consistency) {
        return connect(group, peers, requestTimeout, consistency, (TlsFiles) null);
    }

    /**
     * {@link #connect(String, String, Duration, ReadConsistency)} over TLS when {@code tls} is given: the
     * nodes' certificates must be signed by {@code tls.ca()} and name the host each is reached by; the
     * client presents {@code tls.cert()} if given. A TLS failure or a node's refusal fails a request at once
     * with a {@link ReplicationException} of kind {@code TLS} or {@code NOT_AUTHORIZED}.
     *
     * @throws IllegalArgumentException if the TLS files do not load
     */
    public static KvStore connect(String group, String peers, Duration requestTimeout, ReadConsistency consistency,
                                  TlsFiles tls) {
        return connect(group, peers, requestTimeout, consistency, tls, UnaryOperator.identity());
    }

    /** As above, with every request passing through {@code hook}'s transport (tests lose or delay answers). */
    static KvStore connect(String group, String peers, Duration requestTimeout, ReadConsistency consistency,
                           TlsFiles tls, UnaryOperator<Transport> hook) {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(consistency, "consistency");
        if (requestTimeout.isZero() || requestTimeout.isNegative()) {
            throw new IllegalArgumentException("requestTimeout must be positive, not " + requestTimeout);
        }
        Configuration conf = PeerList.parse(peers);
        TransportSecurity security;
        try {
            security = TransportSecurity.client(tls);
        } catch (IOException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        CliClientServiceImpl client = new CliClientServiceImpl();
        client.init(security.configureClient(new CliOptions()));
        TransportSecurity.Calls calls = security.calls(client.getRpcClient());
        Transport transport = hook.apply(new RpcTransport(calls.client()));
        return new RangedStore(group, conf.getPeers(), transport,
                (rangeGroup, nodes) -> calls.finder(new LeaderLookup(rangeGroup, nodes, transport)),
                requestTimeout.toMillis(), consistency, client::shutdown);
    }

    /** {@link #connect(String, String, Duration, ReadConsistency)} with linearizable reads. */
    public static KvStore connect(String group, String peers, Duration requestTimeout) {
        return connect(group, peers, requestTimeout, ReadConsistency.LINEARIZABLE);
    }
}
