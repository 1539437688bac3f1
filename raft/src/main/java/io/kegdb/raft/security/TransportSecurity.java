package io.kegdb.raft.security;

import com.alipay.remoting.config.BoltGenericOption;
import com.alipay.sofa.jraft.option.RpcOptions;
import com.alipay.sofa.jraft.rpc.RpcClient;
import com.alipay.sofa.jraft.rpc.RpcServer;
import com.alipay.sofa.jraft.rpc.RpcContext;
import io.kegdb.raft.replication.Caller;
import io.kegdb.raft.replication.GroupCaller;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Function;

/**
 * How one process's cluster connections are secured, set up once per node or client and applied to each RPC
 * server and client it makes: TLS from {@link TlsFiles} on every connection, or none ({@link #open()}).
 *
 * <p>A node with TLS ({@link #node}) accepts TLS only, asks callers for a certificate of its CA (optional for
 * clients unless {@link ClientCertificates#REQUIRED}) and checks every request against the caller's proven
 * {@link PeerIdentity} ({@link AccessPolicy}); its own calls to
 * peers present its node certificate and check theirs. A client ({@link #client}) checks the node's
 * certificate and host name and presents its own certificate if it has one. Mismatches (TLS on one side only,
 * another CA, a wrong host name) fail fast with one line that names the cause.
 */
public final class TransportSecurity {

    private final TlsFiles files;
    private final ClientCertificates clients;
    private final SslContexts serverContexts;
    private final ClientChannels clientChannels;

    private TransportSecurity(TlsFiles files, boolean node, ClientCertificates clients) throws IOException {
        this.files = files;
        this.clients = clients;
        if (files == null) {
            this.serverContexts = null;
            this.clientChannels = null;
        } else {
            this.serverContexts = node ? SslContexts.server(files, clients) : null;
            this.clientChannels = new ClientChannels(SslContexts.client(files), files);
        }
    }

    /** No TLS: every connection in plain text, every caller served (local development only). */
    public static TransportSecurity open() {
        try {
            return new TransportSecurity(null, true, ClientCertificates.OPTIONAL);
        } catch (IOException e) {
            throw new UncheckedIOException(e); // cannot happen without files
        }
    }

    /** {@link #node(TlsFiles, ClientCertificates)} with client certificates optional. */
    public static TransportSecurity node(TlsFiles files) throws IOException {
        return node(files, ClientCertificates.OPTIONAL);
    }

    /**
     * A node's security: TLS with its certificate when {@code files} is given, else {@link #open()}.
     *
     * @param clients whether clients must present a certificate of the CA (ignored without TLS)
     * @throws IOException if the files do not load (they are checked now, not at the first connection)
     */
    public static TransportSecurity node(TlsFiles files, ClientCertificates clients) throws IOException {
        if (files != null && !files.hasCertificate()) {
            throw new IllegalArgumentException("a node's TLS needs its certificate and key besides the CA");
        }
        return files == null ? open() : new TransportSecurity(files, true, clients);
    }

    /** A thin client's security: TLS when {@code files} is given (its certificate optional), else open. */
    public static TransportSecurity client(TlsFiles files) throws IOException {
        return files == null ? open() : new TransportSecurity(files, false, ClientCertificates.OPTIONAL);
    }

    /** True when connections are TLS. */
    public boolean isTls() {
        return files != null;
    }

    /** The files in use, or null without TLS. */
    public TlsFiles files() {
        return files;
    }

    /**
     * Prepares a node's SOFABolt server before it starts: TLS (or, without TLS, the detection of TLS callers)
     * on each accepted connection.
     *
     * @param self the node's address, for the log lines
     */
    public void configureServer(com.alipay.remoting.rpc.RpcServer bolt, String self) {
        if (files != null && serverContexts == null) {
            throw new IllegalStateException("a client's security has no server side");
        }
        bolt.option(BoltGenericOption.EXTENDED_NETTY_CHANNEL_HANDLER, new ServerChannels(serverContexts, self));
    }

    /**
     * Who sent a store request received on a connection of this node's server ({@code KvRequestProcessor}):
     * a node, a client with a certificate of the CA, a client without one; without TLS every caller is a
     * client.
     */
    public Function<RpcContext, Caller> callers() {
        return context -> AccessPolicy.caller(PeerIdentity.of(context));
    }

    /** The node's RPC server as its processors should be registered: guarded by identity with TLS. */
    public RpcServer guard(RpcServer server) {
        return files == null ? server : new GuardedRpcServer(server);
    }

    /**
     * Registers {@code options} so that the SOFAJRaft RPC clients initialised with them (a node's replication
     * client through its {@code NodeOptions}, a {@code CliClientServiceImpl} through its {@code CliOptions})
     * use this side's TLS. Call before the client is initialised.
     */
    public <T extends RpcOptions> T configureClient(T options) {
        if (clientChannels != null) {
            TlsRaftRpcFactory.register(options, clientChannels);
        }
        return options;
    }

    /** {@code client} with TLS failures and node refusals turned into immediate, named failures. */
    public Calls calls(RpcClient client) {
        return new Calls(new FailureTranslatingClient(client, clientChannels));
    }

    /** The RPC client and leader finder a KegDB client should use, failing fast on TLS and refusals. */
    public static final class Calls {
        private final FailureTranslatingClient client;

        private Calls(FailureTranslatingClient client) {
            this.client = client;
        }

        /** The RPC client to send requests through. */
        public RpcClient client() {
            return client;
        }

        /** {@code finder}, reporting a TLS or authorization failure when it found no node because of one. */
        public GroupCaller.LeaderFinder finder(GroupCaller.LeaderFinder finder) {
            return client.reporting(finder);
        }
    }

    /** The first log line of a node: what protects its port. */
    public String describe(String self) {
        return files == null
                ? "node " + self + " runs WITHOUT TLS: anyone who can reach " + self + " can read and write its data"
                + " and change its cluster (start it with --tls-ca, --tls-cert and --tls-key; see docs/SECURITY.md)"
                : "node " + self + " requires TLS on every connection (CA " + files.ca() + ", certificate "
                + files.cert() + "); Raft and membership requests only from node certificates of that CA; client"
                + " certificates " + (clients == ClientCertificates.REQUIRED ? "required"
                : "optional (a client without one must log in, on a cluster with users)");
    }
}
