package io.kegdb.raft;

import com.alipay.sofa.jraft.JRaftServiceFactory;
import io.kegdb.raft.security.ClientCertificates;
import io.kegdb.raft.security.TlsFiles;
import io.kegdb.raft.storage.KegRaftServiceFactory;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * How to start a {@link RaftNode}: {@code RaftNodeOptions.builder().dir(d).group("g").self("127.0.0.1:8101")
 * .peers("127.0.0.1:8101,127.0.0.1:8102,127.0.0.1:8103").build()}.
 *
 * <p>When {@code peers} does not contain {@code self} the node joins an existing group: it starts without a
 * configuration and waits to be added with {@code CliService.addPeer} ({@code kegdb cluster add-peer}).
 */
public final class RaftNodeOptions {

    private final Path dir;
    private final String group;
    private final String self;
    private final String peers;
    private final int electionTimeoutMs;
    private final int snapshotIntervalSecs;
    private final Duration requestTimeout;
    private final ReadConsistency readConsistency;
    private final boolean logSync;
    private final JRaftServiceFactory serviceFactory;
    private final TlsFiles tls;
    private final ClientCertificates clientCertificates;
    private final String adminPassword;

    private RaftNodeOptions(Builder b) {
        this.dir = Objects.requireNonNull(b.dir, "dir");
        this.group = requireText(b.group, "group");
        this.self = requireText(b.self, "self");
        this.peers = requireText(b.peers, "peers");
        if (b.electionTimeoutMs < 100) {
            throw new IllegalArgumentException("electionTimeoutMs must be at least 100, not " + b.electionTimeoutMs);
        }
        if (b.snapshotIntervalSecs < 1) {
            throw new IllegalArgumentException("snapshotIntervalSecs must be at least 1, not " + b.snapshotIntervalSecs);
        }
        if (b.requestTimeout.isNegative() || b.requestTimeout.isZero()) {
            throw new IllegalArgumentException("requestTimeout must be positive, not " + b.requestTimeout);
        }
        this.electionTimeoutMs = b.electionTimeoutMs;
        this.snapshotIntervalSecs = b.snapshotIntervalSecs;
        this.requestTimeout = b.requestTimeout;
        this.readConsistency = b.readConsistency;
        this.logSync = b.logSync;
        this.serviceFactory = b.serviceFactory;
        this.tls = b.tls;
        this.clientCertificates = b.clientCertificates;
        this.adminPassword = b.adminPassword;
        if (clientCertificates == ClientCertificates.REQUIRED && tls == null) {
            throw new IllegalArgumentException("requiring client certificates needs TLS (--tls-ca, --tls-cert and"
                    + " --tls-key)");
        }
        if (adminPassword != null && tls == null) {
            throw new IllegalArgumentException("an admin password needs TLS: users log in with passwords, which"
                    + " travel inside TLS only");
        }
    }

    private static String requireText(String s, String name) {
        if (s == null || s.isBlank()) {
            throw new IllegalArgumentException(name + " is required");
        }
        return s.trim();
    }

    /** A builder with the defaults. */
    public static Builder builder() {
        return new Builder();
    }

    /** The node's directory: {@code log/}, {@code meta/}, {@code data/} and {@code snapshot/} live in it. */
    public Path dir() {
        return dir;
    }

    /** The Raft group this node belongs to. */
    public String group() {
        return group;
    }

    /** This node's {@code host:port}; the node's RPC server binds exactly this address. */
    public String self() {
        return self;
    }

    /** The group's members, {@code host:port,host:port,...}. */
    public String peers() {
        return peers;
    }

    /** See {@link Builder#electionTimeoutMs(int)}. */
    public int electionTimeoutMs() {
        return electionTimeoutMs;
    }

    /** See {@link Builder#snapshotIntervalSecs(int)}. */
    public int snapshotIntervalSecs() {
        return snapshotIntervalSecs;
    }

    /** See {@link Builder#requestTimeout(Duration)}. */
    public Duration requestTimeout() {
        return requestTimeout;
    }

    /** How this node serves the reads made through it. */
    public ReadConsistency readConsistency() {
        return readConsistency;
    }

    /** See {@link Builder#logSync(boolean)}. */
    public boolean logSync() {
        return logSync;
    }

    /** See {@link Builder#serviceFactory(JRaftServiceFactory)}. */
    public JRaftServiceFactory serviceFactory() {
        return serviceFactory;
    }

    /** See {@link Builder#adminPassword(String)}; null for none. */
    public String adminPassword() {
        return adminPassword;
    }

    /** See {@link Builder#tls(TlsFiles)}; null without TLS. */
    public TlsFiles tls() {
        return tls;
    }

    /** See {@link Builder#clientCertificates(ClientCertificates)}. */
    public ClientCertificates clientCertificates() {
        return clientCertificates;
    }

    /**
     * The default election timeout. A killed leader is noticed by its followers between T and about 2.5 T
     * later (SOFAJRaft checks the leader's last heartbeat when a timer of period [T, 1.5 T) fires), so with
     * 600 ms writes resume within about 1.7 s including the vote and the client's retry (measured 0.73 to
     * 1.39 s over 8 leader kills by {@code io.kegdb.tests.cluster.ClusterProcessesTest} under {@code -Pstress}).
     */
    public static final int DEFAULT_ELECTION_TIMEOUT_MS = 600;

    /** Builds {@link RaftNodeOptions}; dir, group, self and peers are required. */
    public static final class Builder {
        private Path dir;
        private String group;
        private String self;
        private String peers;
        private int electionTimeoutMs = DEFAULT_ELECTION_TIMEOUT_MS;
        private int snapshotIntervalSecs = 600;
        private Duration requestTimeout = Duration.ofSeconds(10);
        private ReadConsistency readConsistency = ReadConsistency.LINEARIZABLE;
        private boolean logSync = true;
        private JRaftServiceFactory serviceFactory = new KegRaftServiceFactory();
        private TlsFiles tls;
        private ClientCertificates clientCertificates = ClientCertificates.OPTIONAL;
        private String adminPassword;

        private Builder() {
        }

        /** The node's directory (required). */
        public Builder dir(Path dir) {
            this.dir = dir;
            return this;
        }

        /** The Raft group (required). */
        public Builder group(String group) {
            this.group = group;
            return this;
        }

        /** This node's {@code host:port} (required); the only address it binds. */
        public Builder self(String self) {
            this.self = self;
            return this;
        }

        /** The group's members, {@code host:port,...} (required). */
        public Builder peers(String peers) {
            this.peers = peers;
            return this;
        }

        /**
         * A follower stands for election once it has heard no heartbeat for T, which a timer of random period
         * in [T, 1.5 T) checks; the leader's heartbeats go out every T / 10. Default
         * {@value RaftNodeOptions#DEFAULT_ELECTION_TIMEOUT_MS} ms. Smaller means faster failover and more
         * needless elections when a node pauses (GC, an overloaded machine).
         */
        public Builder electionTimeoutMs(int electionTimeoutMs) {
            this.electionTimeoutMs = electionTimeoutMs;
            return this;
        }

        /** A snapshot is taken, and the log truncated behind it, this often; default 600 s. */
        public Builder snapshotIntervalSecs(int snapshotIntervalSecs) {
            this.snapshotIntervalSecs = snapshotIntervalSecs;
            return this;
        }

        /** How long a read or write may take, retries across leader changes included; default 10 s. */
        public Builder requestTimeout(Duration requestTimeout) {
            this.requestTimeout = Objects.requireNonNull(requestTimeout, "requestTimeout");
            return this;
        }

        /** How reads made through this node are served; default linearizable. */
        public Builder readConsistency(ReadConsistency readConsistency) {
            this.readConsistency = Objects.requireNonNull(readConsistency, "readConsistency");
            return this;
        }

        /** Whether the Raft log fsyncs each append before acknowledging it; default true. */
        public Builder logSync(boolean logSync) {
            this.logSync = logSync;
            return this;
        }

        /** The SOFAJRaft storages; default {@link KegRaftServiceFactory} (log and meta in Bitcask stores). */
        public Builder serviceFactory(JRaftServiceFactory serviceFactory) {
            this.serviceFactory = Objects.requireNonNull(serviceFactory, "serviceFactory");
            return this;
        }

        /**
         * TLS on every connection of the node, from the cluster's CA and the node's certificate and key (made by
         * {@code kegdb cert}); default none, which leaves the node open to anyone who can reach its port.
         */
        public Builder tls(TlsFiles tls) {
            if (tls != null && !tls.hasCertificate()) {
                throw new IllegalArgumentException("a node's TLS needs its certificate and key besides the CA");
            }
            this.tls = tls;
            return this;
        }

        /**
         * With TLS, whether clients must present a certificate of the CA ({@code --tls-client-auth}); default
         * {@link ClientCertificates#OPTIONAL}: a client without one logs in with a password, on a cluster with
         * users only.
         */
        public Builder clientCertificates(ClientCertificates clientCertificates) {
            this.clientCertificates = Objects.requireNonNull(clientCertificates, "clientCertificates");
            return this;
        }

        /**
         * The password of the first admin, {@code ADMIN}, created once the group has a leader if the cluster
         * has never had users (needs TLS; ignored once the cluster has users).
         */
        public Builder adminPassword(String adminPassword) {
            if (adminPassword != null && adminPassword.isEmpty()) {
                throw new IllegalArgumentException("the admin password must not be empty");
            }
            this.adminPassword = adminPassword;
            return this;
        }

        /** @throws IllegalArgumentException naming a missing or bad option */
        public RaftNodeOptions build() {
            return new RaftNodeOptions(this);
        }
    }
}
